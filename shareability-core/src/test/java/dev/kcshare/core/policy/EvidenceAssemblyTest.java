package dev.kcshare.core.policy;

import static dev.kcshare.core.policy.PolicyFixtures.handshake;
import static dev.kcshare.core.policy.PolicyFixtures.identity;
import static dev.kcshare.core.policy.PolicyFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.HostProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class EvidenceAssemblyTest {
  @Test
  void usableRowFeedsPreflightAndHandshake() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("fs", row(identity("fs"), true, "1.0", handshake(Map.of("logging", Map.of()), true)));
    ServerFacts fs =
        new ServerFacts(
            "fs",
            List.of(
                DefinitionFacts.stdio(identity("fs"), List.of("Z", "A")),
                DefinitionFacts.stdio(identity("fs"), List.of("A", "M"))));
    EvidenceAssembly.Assembled a =
        EvidenceAssembly.assemble(
            fs, HostProfile.empty(), List.of("unroutable_server_request"), cache);
    Evidence e = a.evidence();
    assertThat(a.identitiesAgree()).isTrue();
    assertThat(a.row()).isNotNull();
    assertThat(e.name()).isEqualTo("fs");
    assertThat(e.isStdio()).isTrue();
    assertThat(e.declaredEnvNames()).containsExactly("A", "M", "Z");
    assertThat(e.observedHazards()).containsExactly("unroutable_server_request");
    assertThat(e.preflightRan()).isTrue();
    assertThat(e.preflightCallerSensitive()).isTrue();
    assertThat(e.probeOk()).isTrue();
    assertThat(e.capabilities()).containsKey("logging");
    assertThat(e.protocolVersion()).isEqualTo("2024-11-05");
    assertThat(e.hasTools()).isTrue();
    assertThat(e.toolAnnotations()).hasSize(1);
  }

  @Test
  void rowWithoutHandshakeGivesPreflightButNoProbe() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("py", row(identity("py"), false, ""));
    Evidence e =
        EvidenceAssembly.assemble(
                new ServerFacts("py", List.of(DefinitionFacts.stdio(identity("py"), List.of()))),
                HostProfile.empty(),
                List.of(),
                cache)
            .evidence();
    assertThat(e.preflightRan()).isTrue();
    assertThat(e.probeOk()).isFalse();
    assertThat(e.capabilities()).isNull();
  }

  @Test
  void disagreeingIdentitiesOrMismatchOrNoRowGiveNothingMeasured() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("x", row(identity("x"), false, "", handshake(Map.of(), false)));
    for (ServerFacts s :
        List.of(
            new ServerFacts(
                "x",
                List.of(
                    DefinitionFacts.stdio(identity("x"), List.of()),
                    DefinitionFacts.stdio(identity("y"), List.of()))),
            new ServerFacts("x", List.of(DefinitionFacts.stdio(identity("changed"), List.of()))),
            new ServerFacts("none", List.of(DefinitionFacts.stdio(identity("none"), List.of()))))) {
      Evidence e = EvidenceAssembly.assemble(s, HostProfile.empty(), List.of(), cache).evidence();
      assertThat(e.preflightRan()).as(s.toString()).isNull();
      assertThat(e.probeOk()).isFalse();
    }
    assertThat(cache.getByName("x")).as("a mismatch keeps the row").isNotNull();
  }

  @Test
  void transportAndProfileFacts() {
    ServerFacts remote = new ServerFacts("r", List.of(DefinitionFacts.remote(List.of())));
    assertThat(
            EvidenceAssembly.assemble(remote, HostProfile.empty(), List.of(), VerdictCache.empty())
                .evidence()
                .isStdio())
        .isFalse();
    ServerFacts computer =
        new ServerFacts(
            "kirocrew-computer", List.of(DefinitionFacts.stdio(identity("k"), List.of())));
    assertThat(
            EvidenceAssembly.assemble(
                    computer, HostProfile.kirocrew(), List.of(), VerdictCache.empty())
                .evidence()
                .sessionBoundByConstruction())
        .isTrue();
  }
}
