package dev.kcshare.core.policy;

import dev.kcshare.core.records.CacheLookup;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.HostProfile;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Builds one server's {@link Evidence} from config facts, the host profile and the two loaded
 * record files (docs/design.md#evidence-assembly). Load both files once per command and pass the
 * same instances for every server, so every verdict in one output agrees about the files.
 */
public final class EvidenceAssembly {
  private EvidenceAssembly() {}

  /**
   * The evidence and the cache row it used.
   *
   * @param evidence the assembled evidence
   * @param row the usable cache row, or null when none was usable
   * @param identitiesAgree every definition resolves to the same execution identity
   */
  public record Assembled(Evidence evidence, @Nullable CacheRow row, boolean identitiesAgree) {}

  /**
   * Assembles evidence with no spawn: the cache row counts only if every definition resolves to the
   * same identity and the identity-checked read (with no current version) hits.
   *
   * @param server the server's definitions
   * @param profile the host profile
   * @param hazards the ledger's name-wide codes for the server ({@code codesForName}, sorted)
   * @param cache the loaded verdict cache
   * @return the evidence, the cache row it used (if any) and whether the identities agree
   */
  public static Assembled assemble(
      ServerFacts server, HostProfile profile, List<String> hazards, VerdictCache cache) {
    String identity = server.agreedIdentity();
    CacheRow row = null;
    if (identity != null) {
      CacheLookup lookup = cache.get(server.name(), identity, "");
      row = lookup.row();
    }
    Evidence.Builder b = base(server, profile, hazards);
    if (row != null) {
      row.applyTo(b);
    } else {
      CacheRow.applyAbsent(b);
    }
    return new Assembled(b.build(), row, identity != null);
  }

  /**
   * The config- and ledger-derived part of the evidence (everything but the pre-flight).
   *
   * @param server the server's definitions
   * @param profile the host profile
   * @param hazards the ledger's name-wide codes for the server ({@code codesForName}, sorted)
   * @return a builder whose pre-flight and handshake fields are still at their defaults
   */
  public static Evidence.Builder base(
      ServerFacts server, HostProfile profile, List<String> hazards) {
    return Evidence.builder()
        .name(server.name())
        .isStdio(server.first().hasCommand())
        .sessionBoundByConstruction(profile.sessionBound(server.name()))
        .declaredEnvNames(server.declaredEnvNames())
        .observedHazards(hazards);
  }
}
