package dev.kcshare.core.policy;

import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.text.SecretPrefixes;
import dev.kcshare.core.verdict.Assessor;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Bulk-stub eligibility (docs/design.md#bulk-stub-eligibility): decided at the point of the write,
 * inside the same config lock hold that performs it, so one config state decides both and the rule
 * has exactly one implementation.
 *
 * <pre>{@code
 * // inside the gateway's config lock, with the records loaded once:
 * Eligibility.Result r = Eligibility.resolve(requested, settings, facts, ledger::codesForName, cache);
 * Seeding.setOverrides(section, r.stubbed(), true);   // write only what is eligible
 * }</pre>
 */
public final class Eligibility {
  private Eligibility() {}

  /** Why a requested name was not stubbed. */
  public enum SkipReason {
    /** No loaded definition has this name. */
    UNKNOWN,
    /** Not stdio, or the host profile marks it unstubbable. */
    CANNOT_STUB,
    /** Sharing is on and the rewriter would withhold a declared env key from a shared backend. */
    POOLING_BLOCKED_BY_ENV,
    /** The verdict does not recommend what the sharing switch would make of a stub. */
    EVIDENCE_INSUFFICIENT;

    /**
     * The JSON spelling, for example {@code pooling_blocked_by_env}.
     *
     * @return the stable code
     */
    public String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * A skipped name and why.
   *
   * @param name the requested name
   * @param reason why it was not stubbed
   */
  public record Skip(String name, SkipReason reason) {}

  /**
   * The outcome of one stub request.
   *
   * @param stubbed eligible names, request order
   * @param skipped the others with reasons, request order
   * @param sharingOn the effective sharing switch that decided
   */
  public record Result(List<String> stubbed, List<Skip> skipped, boolean sharingOn) {
    /**
     * Copies the lists (unmodifiable).
     *
     * @param stubbed eligible names, request order
     * @param skipped the others with reasons, request order
     * @param sharingOn the effective sharing switch that decided
     */
    public Result {
      stubbed = List.copyOf(stubbed);
      skipped = List.copyOf(skipped);
    }
  }

  /**
   * The effective settings read under the config lock.
   *
   * @param sharingOn the effective global sharing switch
   * @param forwardDeclaredEnv the effective {@code forward_declared_env}
   * @param identityKeys the resolved pool identity env names
   * @param profile the host profile
   */
  public record Settings(
      boolean sharingOn,
      boolean forwardDeclaredEnv,
      Set<String> identityKeys,
      HostProfile profile) {
    /**
     * Copies the identity keys.
     *
     * @param sharingOn the effective global sharing switch
     * @param forwardDeclaredEnv the effective {@code forward_declared_env}
     * @param identityKeys the resolved pool identity env names
     * @param profile the host profile
     * @throws NullPointerException if {@code profile} is null
     */
    public Settings {
      identityKeys = Set.copyOf(identityKeys);
      Objects.requireNonNull(profile, "profile");
    }
  }

  /**
   * Resolves eligibility for each requested name in request order (a repeated name counts once, at
   * its first occurrence).
   *
   * @param requested the candidate names
   * @param settings the effective settings
   * @param servers every loaded definition, by name
   * @param hazards the ledger's name-wide codes for a name
   * @param cache the loaded verdict cache
   * @return the names to stub and the names skipped with their reasons, in request order, and the
   *     sharing switch that decided
   */
  public static Result resolve(
      List<String> requested,
      Settings settings,
      Map<String, ServerFacts> servers,
      Function<String, List<String>> hazards,
      VerdictCache cache) {
    List<String> stubbed = new ArrayList<>();
    List<Skip> skipped = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String name : requested) {
      if (!seen.add(name)) {
        continue;
      }
      ServerFacts server = servers.get(name);
      SkipReason reason = check(name, server, settings, hazards, cache);
      if (reason == null) {
        stubbed.add(name);
      } else {
        skipped.add(new Skip(name, reason));
      }
    }
    return new Result(stubbed, skipped, settings.sharingOn());
  }

  private static @Nullable SkipReason check(
      String name,
      @Nullable ServerFacts server,
      Settings settings,
      Function<String, List<String>> hazards,
      VerdictCache cache) {
    if (server == null) {
      return SkipReason.UNKNOWN;
    }
    if (!server.first().hasCommand() || settings.profile().isUnstubbable(name)) {
      return SkipReason.CANNOT_STUB;
    }
    if (settings.sharingOn() && withholdsAny(server.declaredEnvNames(), settings)) {
      return SkipReason.POOLING_BLOCKED_BY_ENV;
    }
    Verdict verdict =
        Assessor.assess(
            EvidenceAssembly.assemble(server, settings.profile(), hazards.apply(name), cache)
                .evidence(),
            settings.identityKeys());
    boolean allowed = settings.sharingOn() ? verdict.recommendShare() : verdict.recommendStub();
    return allowed ? null : SkipReason.EVIDENCE_INSUFFICIENT;
  }

  /**
   * Would the rewriter withhold any declared key from a shared backend? With forwarding off, every
   * declared key is withheld. With it on, a key is withheld when it has a rotating-secret prefix
   * (case-SENSITIVE) and is not an identity key, or has a credential-scrub prefix.
   */
  static boolean withholdsAny(List<String> declared, Settings settings) {
    if (!settings.forwardDeclaredEnv()) {
      return !declared.isEmpty();
    }
    for (String key : declared) {
      if (SecretPrefixes.matchesCaseSensitive(key) && !settings.identityKeys().contains(key)) {
        return true;
      }
      if (SecretPrefixes.matchesCredentialScrub(key)) {
        return true;
      }
    }
    return false;
  }
}
