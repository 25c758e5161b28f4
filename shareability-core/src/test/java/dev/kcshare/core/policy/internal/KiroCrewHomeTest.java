package dev.kcshare.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class KiroCrewHomeTest {
  private static final Object KCSHARE_CONFIG =
      Map.of("mcp_gateway", Map.of("stub_overrides", Map.of("good", true)));

  @Test
  void whatKcshareWritesIsNotAKiroCrewHome() {
    // seed/stub on a host without Kiro Crew: config.json with stub_overrides, its lock and backup.
    assertThat(
            KiroCrewHome.onlyKcshareFiles(
                List.of("config.json", "config.json.lock", "config.json.bak"),
                null,
                List.of(KCSHARE_CONFIG, KCSHARE_CONFIG)))
        .isTrue();
    // measure on a host without Kiro Crew: the default records directory and its files.
    assertThat(
            KiroCrewHome.onlyKcshareFiles(
                List.of("mcp-gateway"),
                List.of(
                    "shareability-verdicts.json",
                    "shareability-verdicts.json.lock",
                    "observed-hazards.json",
                    "observed-hazards.json.lock",
                    ".shareability-verdicts.json.123456.tmp",
                    "kcshare-attempts.json",
                    "kcshare-attempts.json.lock",
                    "kcshare-processes.json",
                    ".kcshare-processes.json.99.tmp"),
                List.of()))
        .isTrue();
    assertThat(
            KiroCrewHome.onlyKcshareFiles(
                List.of("mcp-gateway", "config.json", ".config.json.42.tmp"),
                List.of(),
                List.of(KCSHARE_CONFIG)))
        .isTrue();
  }

  @Test
  void anythingElseMakesItAKiroCrewHome() {
    // Kiro Crew's own files.
    assertThat(
            KiroCrewHome.onlyKcshareFiles(
                List.of("config.json", "mcp.json"), null, List.of(KCSHARE_CONFIG)))
        .isFalse();
    assertThat(
            KiroCrewHome.onlyKcshareFiles(
                List.of("mcp-gateway"),
                List.of("gateway.sock", "shareability-verdicts.json"),
                List.of()))
        .isFalse();
    assertThat(KiroCrewHome.onlyKcshareFiles(List.of("mcp-gateway"), List.of("agents"), List.of()))
        .isFalse();
    // A configuration with any other member: an operator or Kiro Crew wrote it.
    for (Object config :
        Arrays.asList(
            Map.of("mcp_gateway", Map.of("stub_overrides", Map.of(), "enabled", true)),
            Map.of("mcp_gateway", Map.of("stub_overrides", Map.of()), "agent", Map.of()),
            Map.of("mcp_gateway", "not an object"),
            Map.of(),
            List.of(),
            null)) {
      assertThat(KiroCrewHome.onlyKcshareFiles(List.of("config.json"), null, Arrays.asList(config)))
          .as(String.valueOf(config))
          .isFalse();
    }
    // An empty directory, or an mcp-gateway that is not a directory: in doubt, Kiro Crew's.
    assertThat(KiroCrewHome.onlyKcshareFiles(List.of(), null, List.of())).isFalse();
    assertThat(KiroCrewHome.onlyKcshareFiles(List.of("mcp-gateway"), null, List.of())).isFalse();
    assertThat(KiroCrewHome.onlyKcshareFiles(List.of("kcshare-"), null, List.of())).isFalse();
  }
}
