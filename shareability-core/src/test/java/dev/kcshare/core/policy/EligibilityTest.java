package dev.kcshare.core.policy;

import static dev.kcshare.core.policy.PolicyFixtures.handshake;
import static dev.kcshare.core.policy.PolicyFixtures.identity;
import static dev.kcshare.core.policy.PolicyFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.policy.Eligibility.Result;
import dev.kcshare.core.policy.Eligibility.Settings;
import dev.kcshare.core.policy.Eligibility.Skip;
import dev.kcshare.core.policy.Eligibility.SkipReason;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.HostProfile;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class EligibilityTest {
  private static final Map<String, Object> DECLARING =
      Map.of("tools", Map.of(), "experimental", Map.of("kirocrew.caller-identity", Map.of()));

  private static ServerFacts stdio(String name, String... env) {
    return new ServerFacts(name, List.of(DefinitionFacts.stdio(identity(name), List.of(env))));
  }

  private final VerdictCache cache = VerdictCache.empty();

  private Result resolve(Settings settings, Map<String, ServerFacts> servers, String... names) {
    return Eligibility.resolve(List.of(names), settings, servers, n -> List.of(), cache);
  }

  private static Settings sharing(boolean on, boolean forward, Set<String> keys) {
    return new Settings(on, forward, keys, HostProfile.kirocrew());
  }

  @Test
  void unknownAndCannotStub() {
    Map<String, ServerFacts> servers =
        Map.of("remote", new ServerFacts("remote", List.of(DefinitionFacts.remote(List.of()))));
    Result r = resolve(sharing(false, false, Set.of()), servers, "ghost", "remote", "ghost");
    assertThat(r.stubbed()).isEmpty();
    assertThat(r.skipped())
        .containsExactly(
            new Skip("ghost", SkipReason.UNKNOWN), new Skip("remote", SkipReason.CANNOT_STUB));
  }

  @Test
  void unstubbableProfileNamesCannotBeStubbed() {
    HostProfile profile = new HostProfile(Set.of(), Set.of(), Set.of(), Set.of("pinned"));
    cache.put(
        "pinned", row(identity("pinned"), false, "", handshake(Map.of("tools", Map.of()), true)));
    Result r =
        resolve(
            new Settings(false, false, Set.of(), profile),
            Map.of("pinned", stdio("pinned")),
            "pinned");
    assertThat(r.skipped()).containsExactly(new Skip("pinned", SkipReason.CANNOT_STUB));
  }

  @Test
  void sharingOffNeedsRecommendStubOnly() {
    cache.put("m", row(identity("m"), false, "", handshake(Map.of("tools", Map.of()), true)));
    Map<String, ServerFacts> servers =
        Map.of("m", stdio("m", "OAUTH_TOKEN"), "never", stdio("never"));
    Result r = resolve(sharing(false, false, Set.of()), servers, "never", "m");
    assertThat(r.stubbed()).containsExactly("m");
    assertThat(r.skipped()).containsExactly(new Skip("never", SkipReason.EVIDENCE_INSUFFICIENT));
    assertThat(r.sharingOn()).isFalse();
  }

  @Test
  void sharingOnNeedsRecommendShare() {
    cache.put("m", row(identity("m"), false, "", handshake(Map.of("tools", Map.of()), true)));
    cache.put("d", row(identity("d"), false, "", handshake(DECLARING, true)));
    Map<String, ServerFacts> servers = Map.of("m", stdio("m"), "d", stdio("d"));
    Result r = resolve(sharing(true, true, Set.of()), servers, "m", "d");
    assertThat(r.stubbed()).containsExactly("d");
    assertThat(r.skipped()).containsExactly(new Skip("m", SkipReason.EVIDENCE_INSUFFICIENT));
  }

  @Test
  void sharingOnChecksWithheldEnvBeforeEvidence() {
    cache.put("d", row(identity("d"), false, "", handshake(DECLARING, true)));
    // Forwarding off: any declared key is withheld.
    assertThat(
            resolve(sharing(true, false, Set.of()), Map.of("d", stdio("d", "REGION")), "d")
                .skipped())
        .containsExactly(new Skip("d", SkipReason.POOLING_BLOCKED_BY_ENV));
    // Forwarding on: a plain key passes; a rotating secret passes only as an identity key.
    assertThat(
            resolve(sharing(true, true, Set.of()), Map.of("d", stdio("d", "REGION")), "d")
                .stubbed())
        .containsExactly("d");
    assertThat(
            resolve(sharing(true, true, Set.of()), Map.of("d", stdio("d", "OAUTH_TOKEN")), "d")
                .skipped())
        .containsExactly(new Skip("d", SkipReason.POOLING_BLOCKED_BY_ENV));
    assertThat(
            resolve(
                    sharing(true, true, Set.of("OAUTH_TOKEN")),
                    Map.of("d", stdio("d", "OAUTH_TOKEN")),
                    "d")
                .stubbed())
        .containsExactly("d");
    // The rewriter's test is case-sensitive: a lower-case name is forwarded (but the verdict's
    // own case-insensitive rotating-secret note then withholds the share).
    assertThat(
            resolve(sharing(true, true, Set.of()), Map.of("d", stdio("d", "oauth_token")), "d")
                .skipped())
        .containsExactly(new Skip("d", SkipReason.EVIDENCE_INSUFFICIENT));
    // Credential-scrub prefixes are always withheld, even as identity keys.
    assertThat(
            resolve(
                    sharing(true, true, Set.of("SSH_AUTH_SOCK")),
                    Map.of("d", stdio("d", "SSH_AUTH_SOCK")),
                    "d")
                .skipped())
        .containsExactly(new Skip("d", SkipReason.POOLING_BLOCKED_BY_ENV));
  }

  @Test
  void sessionBoundManagedServerIsIneligible() {
    cache.put(
        "kirocrew-computer",
        row(identity("kirocrew-computer"), false, "", handshake(DECLARING, true)));
    Result r =
        resolve(
            sharing(false, false, Set.of()),
            Map.of("kirocrew-computer", stdio("kirocrew-computer")),
            "kirocrew-computer");
    assertThat(r.skipped())
        .containsExactly(new Skip("kirocrew-computer", SkipReason.EVIDENCE_INSUFFICIENT));
  }

  @Test
  void hazardsRefuteEligibility() {
    cache.put("m", row(identity("m"), false, "", handshake(Map.of("tools", Map.of()), true)));
    Result r =
        Eligibility.resolve(
            List.of("m"),
            sharing(false, false, Set.of()),
            Map.of("m", stdio("m")),
            n -> List.of("unroutable_server_request"),
            cache);
    assertThat(r.skipped()).containsExactly(new Skip("m", SkipReason.EVIDENCE_INSUFFICIENT));
  }

  @Test
  void conflictingDefinitionsGetNoPreflightEvidence() {
    cache.put("m", row(identity("m"), false, "", handshake(Map.of("tools", Map.of()), true)));
    ServerFacts twoIdentities =
        new ServerFacts(
            "m",
            List.of(
                DefinitionFacts.stdio(identity("m"), List.of()),
                DefinitionFacts.stdio(identity("other"), List.of())));
    Result r = resolve(sharing(false, false, Set.of()), Map.of("m", twoIdentities), "m");
    assertThat(r.skipped()).containsExactly(new Skip("m", SkipReason.EVIDENCE_INSUFFICIENT));
  }

  @Test
  void skipReasonCodes() {
    assertThat(SkipReason.POOLING_BLOCKED_BY_ENV.code()).isEqualTo("pooling_blocked_by_env");
    assertThat(SkipReason.UNKNOWN.code()).isEqualTo("unknown");
  }
}
