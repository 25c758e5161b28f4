package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.testing.NodeFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code --era} on {@code preflight} and {@code measure} (docs/design.md#which-era-is-measured),
 * and rows of two era choices sharing one records directory
 * (docs/design.md#rows-of-two-era-choices).
 */
@Execution(ExecutionMode.CONCURRENT)
final class EraChoiceCommandsTest {
  private static final Path SCRIPT = NodeFixture.SCRIPT;

  @BeforeAll
  static void requireNode() {
    NodeFixture.assumeNode();
  }

  /**
   * A config with one fixture server per mode (flags after the mode), named after its mode, or
   * {@code NAME=MODE}.
   */
  @SafeVarargs
  private static void config(Path dir, List<String>... modes) throws Exception {
    Map<String, Object> servers = new LinkedHashMap<>();
    for (List<String> mode : modes) {
      String[] nameAndMode = mode.get(0).split("=", 2);
      Map<String, Object> server = new LinkedHashMap<>();
      List<String> args = new ArrayList<>();
      args.add(SCRIPT.toString());
      args.add(nameAndMode[nameAndMode.length - 1]);
      args.addAll(mode.subList(1, mode.size()));
      server.put("command", "node");
      server.put("args", args);
      servers.put(nameAndMode[0], server);
    }
    Files.writeString(
        dir.resolve("cfg.json"),
        JsonWriter.pretty(Map.of("mcpServers", servers)),
        StandardCharsets.UTF_8);
  }

  private static CliRun run(Path dir, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", "cfg.json"));
    return CliRun.run(dir, "", System.getenv(), all.toArray(String[]::new));
  }

  private static Map<?, ?> json(String text) throws Exception {
    return (Map<?, ?>) JsonReader.withDepthLimit(1000).parse(text);
  }

  private static Map<?, ?> row(Path dir, String name) throws Exception {
    Map<?, ?> cache = json(Files.readString(dir.resolve("records/shareability-verdicts.json")));
    return (Map<?, ?>) ((Map<?, ?>) cache.get("entries")).get(name);
  }

  @Test
  void preflightMeasuresTheEraTheChoiceSelects(@TempDir Path dir) throws Exception {
    config(dir, List.of("dual-era"), List.of("modern-only", "--init-code", "-32601"));
    CliRun auto = run(dir, "preflight", "dual-era", "--json");
    assertThat(auto.exitCode()).as(auto.stderr()).isZero();
    assertThat(json(auto.stdout()).get("era")).isEqualTo("legacy");
    CliRun modern = run(dir, "preflight", "dual-era", "--era", "modern", "--json");
    assertThat(modern.exitCode()).as(modern.stderr()).isZero();
    assertThat(json(modern.stdout()).get("era")).isEqualTo("modern");
    // A modern-only server answering initialize with -32601 is measured, not "could not run".
    CliRun fallback = run(dir, "preflight", "modern-only", "--json");
    assertThat(json(fallback.stdout()).get("ran")).isEqualTo(true);
    assertThat(json(fallback.stdout()).get("era")).isEqualTo("modern");
    CliRun legacy = run(dir, "preflight", "modern-only", "--era", "legacy", "--json");
    assertThat(json(legacy.stdout()).get("ran")).isEqualTo(false);
    assertThat(json(legacy.stdout()).get("detail")).isEqualTo("Method not found");
  }

  @Test
  void anUnknownEraIsAUsageError(@TempDir Path dir) throws Exception {
    config(dir, List.of("stable"));
    for (String command : List.of("preflight", "measure")) {
      CliRun r = run(dir, command, "stable", "--era", "2026");
      assertThat(r.exitCode()).as(command).isEqualTo(2);
      assertThat(r.stderr()).contains("--era must be auto, modern or legacy, got \"2026\"");
    }
  }

  @Test
  void passesOfBothChoicesKeepBothMeasurementsOfADualEraServer(@TempDir Path dir) throws Exception {
    config(dir, List.of("dual-era"));
    CliRun first = run(dir, "measure", "--all", "--records-dir", "records", "--json");
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    assertThat(row(dir, "dual-era").get("era")).isEqualTo("legacy");
    assertThat(row(dir, "dual-era").containsKey("modern")).isFalse();

    CliRun modern =
        run(dir, "measure", "--all", "--era", "modern", "--records-dir", "records", "--json");
    assertThat(modern.exitCode()).as(modern.stderr()).isZero();
    assertThat(modern.stdout()).contains("\"era\": \"modern\"", "\"stored\": true");
    Map<?, ?> row = row(dir, "dual-era");
    assertThat(row.get("era")).isEqualTo("legacy");
    assertThat(((Map<?, ?>) row.get("modern")).get("era")).isEqualTo("modern");
    assertThat(((Map<?, ?>) row.get("modern")).get("eraBasis")).isEqualTo("discover");

    // Both choices now find their measurement: nothing is due for either.
    for (String era : List.of("auto", "modern")) {
      CliRun again =
          run(dir, "measure", "--all", "--era", era, "--records-dir", "records", "--json");
      assertThat(again.exitCode()).as(again.stderr()).isZero();
      assertThat(again.stdout().replaceAll("\\s", "")).as(era).isEqualTo("[]");
    }
  }

  @Test
  void preflightAndAssessSayWhetherAModernDivergenceIsInOneProcess(@TempDir Path dir)
      throws Exception {
    config(dir, List.of("modern-sensitive"));
    CliRun json = run(dir, "preflight", "modern-sensitive", "--json");
    assertThat(json.exitCode()).as(json.stderr()).isZero();
    assertThat(json(json.stdout()).get("divergence")).isEqualTo("in_process");
    CliRun text = run(dir, "preflight", "modern-sensitive");
    assertThat(text.stdout())
        .contains(": measured, caller-sensitive: discover_shape_differs (era modern")
        .contains("\n  in_process: one process answered the two callers differently");

    CliRun measure = run(dir, "measure", "modern-sensitive", "--records-dir", "records");
    assertThat(measure.exitCode()).as(measure.stderr()).isZero();
    assertThat(row(dir, "modern-sensitive").get("divergence")).isEqualTo("in_process");
    CliRun assess = run(dir, "assess", "modern-sensitive", "--records-dir", "records");
    assertThat(assess.stdout())
        .contains("    handshake_not_reproducible (in_process): ")
        .contains("      one process answered the two callers differently");
  }

  @Test
  void theIsolationSelfTestIsStoredAndDecidesTheShareOfADeclaredServer(@TempDir Path dir)
      throws Exception {
    config(dir, List.of("isolating"), List.of("leaking=isolating", "--leak", "1"));
    CliRun measure = run(dir, "measure", "--all", "--records-dir", "records");
    assertThat(measure.exitCode()).as(measure.stderr()).isZero();
    assertThat(row(dir, "isolating").get("selfTest")).isEqualTo("passed");
    assertThat(row(dir, "leaking").get("selfTest")).isEqualTo("failed");
    CliRun passed = run(dir, "assess", "isolating", "--records-dir", "records");
    assertThat(passed.stdout())
        .startsWith("isolating: declared")
        .contains("share: recommended")
        .contains("    isolation_self_test_passed: ");
    CliRun failed = run(dir, "assess", "leaking", "--records-dir", "records");
    assertThat(failed.stdout())
        .startsWith("leaking: declared")
        .contains("share: not recommended")
        .contains("    isolation_self_test_failed: ");

    CliRun skipped =
        run(dir, "measure", "leaking", "--no-self-test", "--records-dir", "records", "--json");
    assertThat(skipped.exitCode()).as(skipped.stderr()).isZero();
    assertThat(row(dir, "leaking").get("selfTest")).isEqualTo("skipped");
    assertThat(run(dir, "assess", "leaking", "--records-dir", "records").stdout())
        .contains("share: recommended")
        .contains("  isolation self-test: skipped when it was measured (--no-self-test)\n");
    CliRun preflight = run(dir, "preflight", "isolating", "--json");
    assertThat(json(preflight.stdout()).get("selfTest")).isEqualTo("passed");
  }
}
