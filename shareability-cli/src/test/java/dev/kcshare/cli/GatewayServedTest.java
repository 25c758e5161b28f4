package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeding and stubbing write {@code stub_overrides} only for servers the Kiro Crew gateway fronts
 * (on {@link OperatorFixture#mixed}: {@code cursor-only} and {@code claude-only} are not).
 */
final class GatewayServedTest {
  @TempDir Path root;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  @Test
  void seedWritesOnlyServersTheGatewayFronts() {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.measuredRows("good", "cursor-only", "claude-only", "agent-srv");
    Map<String, Object> plan =
        object(OperatorFixture.parse(f.run("seed", "--plan", "--json").stdout()));
    assertThat(object(plan.get("plan")).get("addStub")).isEqualTo(List.of("agent-srv", "good"));
    assertThat(list(object(plan.get("plan")).get("markApplied")))
        .doesNotContain("cursor-only", "claude-only");
    assertThat(plan.get("notServed")).isEqualTo(List.of("claude-only", "cursor-only"));
    assertThat(f.run("seed", "--plan").stdout())
        .contains(
            "  not served by the gateway (defined only outside ~/.kiro/settings/mcp.json and"
                + " ~/.kiro/agents/*.json; never seeded): claude-only, cursor-only\n");

    CliRun apply = f.run("seed", "--apply");
    assertThat(apply.exitCode()).as(apply.stderr()).isZero();
    Map<String, Object> overrides =
        object(
            object(object(OperatorFixture.parse(f.configText())).get("mcp_gateway"))
                .get("stub_overrides"));
    assertThat(overrides).containsOnlyKeys("agent-srv", "good", "q");
    // Not marked applied either: moved into a Kiro file later, it is seeded then.
    assertThat(f.readCache().applied()).doesNotContain("cursor-only", "claude-only");
  }

  @Test
  void stubSkipsAServerTheGatewayDoesNotFront() throws Exception {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.measuredRows("cursor-only", "good");
    byte[] before = Files.readAllBytes(f.config);
    CliRun r = f.run("stub", "cursor-only");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .isEqualTo(
            "skipped cursor-only: not_served (not served by the Kiro Crew gateway: defined only in"
                + " ~/.cursor/mcp.json; the gateway fronts the servers of ~/.kiro/settings/mcp.json"
                + " and ~/.kiro/agents/*.json)\n"
                + "Nothing eligible: "
                + f.config
                + " not changed.\n");
    assertThat(Files.readAllBytes(f.config)).isEqualTo(before);

    CliRun json = f.run("stub", "--resolve-eligibility", "--json", "cursor-only", "good");
    Map<String, Object> out = object(OperatorFixture.parse(json.stdout()));
    assertThat(out.get("stubbed")).isEqualTo(List.of("good"));
    assertThat(out.get("skipped"))
        .isEqualTo(List.of(Map.of("name", "cursor-only", "reason", "not_served")));
  }

  @Test
  void aNamedKiroFileCountsAsTheGatewaysWhileAnyOtherNamedFileDoesNot() {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.measuredRows("good");
    Path kiro = f.layout.home().resolve(".kiro/settings/mcp.json");
    Path copy = f.homeFile("elsewhere/mcp.json", OperatorFixture.text("mcp.json"));
    Map<String, Object> viaKiro =
        object(
            OperatorFixture.parse(
                f.run("seed", "--plan", "--json", "--config", kiro.toString()).stdout()));
    assertThat(list(object(viaKiro.get("plan")).get("addStub"))).contains("good");
    Map<String, Object> viaCopy =
        object(
            OperatorFixture.parse(
                f.run("seed", "--plan", "--json", "--config", copy.toString()).stdout()));
    assertThat(list(viaCopy.get("notServed"))).contains("x", "p");
  }
}
