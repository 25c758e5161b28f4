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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code kcshare preflight SERVER --config FILE}: output shapes, exit codes, captures. */
@Execution(ExecutionMode.CONCURRENT)
final class PreflightCommandTest {
  private static final Path SCRIPT = NodeFixture.SCRIPT;

  @BeforeAll
  static void requireNode() {
    NodeFixture.assumeNode();
  }

  /** A config with one fixture server per mode, each named after its mode. */
  private static void config(Path dir, String... modes) throws Exception {
    Map<String, Object> servers = new LinkedHashMap<>();
    for (String mode : modes) {
      Map<String, Object> server = new LinkedHashMap<>();
      server.put("command", "node");
      server.put("args", List.of(SCRIPT.toString(), mode));
      servers.put(mode, server);
    }
    Files.writeString(
        dir.resolve("cfg.json"),
        JsonWriter.pretty(Map.of("mcpServers", servers)),
        StandardCharsets.UTF_8);
  }

  private static CliRun run(Path dir, String... args) {
    return CliRun.run(dir, "", System.getenv(), args);
  }

  private static Object json(String text) throws Exception {
    return JsonReader.withDepthLimit(1000).parse(text);
  }

  @Test
  void jsonOutputOfAMeasuredServer(@TempDir Path dir) throws Exception {
    config(dir, "stable");
    CliRun r = run(dir, "preflight", "stable", "--config", "cfg.json", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<?, ?> out = (Map<?, ?>) json(r.stdout());
    assertThat(new ArrayList<Object>(out.keySet()))
        .isEqualTo(
            List.of(
                "name", "ran", "callerSensitive", "reasons", "detail", "era", "reportedVersion"));
    assertThat(out)
        .isEqualTo(
            json(
                "{\"name\":\"stable\",\"ran\":true,\"callerSensitive\":false,\"reasons\":[],"
                    + "\"detail\":\"\",\"era\":\"legacy\",\"reportedVersion\":\"1.2.3\"}"));
  }

  @Test
  void serverThatCouldNotRunStillExitsZero(@TempDir Path dir) throws Exception {
    config(dir, "exit-early");
    CliRun r = run(dir, "preflight", "exit-early", "--config", "cfg.json", "--json");
    assertThat(r.exitCode()).isZero();
    @SuppressWarnings("unchecked")
    Map<Object, Object> out = (Map<Object, Object>) json(r.stdout());
    assertThat(new java.util.ArrayList<Object>(out.keySet()))
        .containsExactly(
            "name",
            "ran",
            "callerSensitive",
            "reasons",
            "detail",
            "era",
            "reportedVersion",
            "stderrTail",
            "exitStatus");
    assertThat(out)
        .containsEntry("ran", false)
        .containsEntry("detail", "no response (process exited with status 1)")
        .containsEntry("exitStatus", "exit 1");
    // The tail is the text itself, escaped once by JSON: no raw control character reaches stdout.
    assertThat((String) out.get("stderrTail"))
        .startsWith("...x")
        .endsWith("\u001b[31mfixture: BRAVE_API_KEY is not set\u001b[0m\n");
    assertThat(r.stdout()).doesNotContain("\u001b");

    config(dir, "stable");
    Map<?, ?> ran =
        (Map<?, ?>)
            json(run(dir, "preflight", "stable", "--config", "cfg.json", "--json").stdout());
    assertThat(ran.containsKey("stderrTail") || ran.containsKey("exitStatus")).isFalse();
    assertThat(ran.get("ran")).isEqualTo(true);
  }

  @Test
  void humanOutputShowsTheEscapedStderrTailWhenItCouldNotRun(@TempDir Path dir) throws Exception {
    config(dir, "exit-early");
    CliRun r = run(dir, "preflight", "exit-early", "--config", "cfg.json");
    assertThat(r.exitCode()).isZero();
    List<String> lines = r.stdout().lines().toList();
    assertThat(lines.get(0))
        .isEqualTo(
            "server \"exit-early\": could not run: no response (process exited with status 1)");
    assertThat(lines.subList(1, lines.size()))
        .hasSize(2)
        .allSatisfy(
            line ->
                assertThat(line)
                    .matches(
                        "  identity [AB]: no response \\(process exited with status 1\\); stderr"
                            + " tail: \"\\.\\.\\.x+.*\"")
                    .endsWith("\\x1b[31mfixture: BRAVE_API_KEY is not set\\x1b[0m\\n\""));
    assertThat(r.stdout()).doesNotContain("\u001b");
  }

  @Test
  void humanOutputEscapesServerStrings(@TempDir Path dir) throws Exception {
    config(dir, "weird-version");
    CliRun r = run(dir, "preflight", "weird-version", "--config", "cfg.json");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .isEqualTo(
            "server \"weird-version\": measured, not caller-sensitive (era legacy, reported"
                + " version \"1.0\\x1b[31m\\nINJECTED \\\"x\\\" \\\\ \\u202e\\t\")\n");
  }

  @Test
  void humanOutputOfADivergence(@TempDir Path dir) throws Exception {
    config(dir, "sensitive-tools");
    CliRun r = run(dir, "preflight", "sensitive-tools", "--config", "cfg.json");
    assertThat(r.stdout())
        .isEqualTo(
            "server \"sensitive-tools\": measured, caller-sensitive: tools_shape_differs (era"
                + " legacy, reported version \"1.2.3\")\n");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "stable",
        "sensitive-tools",
        "sensitive-capabilities",
        "sensitive-serverinfo",
        "paginated",
        "modern-only",
        "modern-sensitive",
        "bad-names"
      })
  void capturesReproduceTheVerdictThroughCompare(String mode, @TempDir Path dir) throws Exception {
    config(dir, mode);
    CliRun live =
        run(dir, "preflight", mode, "--config", "cfg.json", "--capture", "caps", "--json");
    assertThat(live.exitCode()).as(live.stderr()).isZero();
    Map<?, ?> liveJson = (Map<?, ?>) json(live.stdout());
    Path a = dir.resolve("caps").resolve(mode).resolve("a.json");
    Path b = dir.resolve("caps").resolve(mode).resolve("b.json");
    assertThat(a).exists();
    assertThat(b).exists();
    assertThat(Files.readString(a)).endsWith("}\n").contains("\n  \"clientInfo\": {");
    CliRun offline = run(dir, "preflight", "compare", a.toString(), b.toString());
    assertThat(offline.exitCode()).as(offline.stderr()).isZero();
    Map<String, Object> expected = new LinkedHashMap<>();
    for (String key : List.of("ran", "callerSensitive", "reasons", "detail")) {
      expected.put(key, liveJson.get(key));
    }
    assertThat(json(offline.stdout())).isEqualTo(expected);
  }

  @Test
  void unknownServerIsBadInput(@TempDir Path dir) throws Exception {
    config(dir, "stable");
    CliRun r = run(dir, "preflight", "nope", "--config", "cfg.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("unknown server \"nope\" (see kcshare config)");
  }

  @Test
  void badConfigNamesFilePointerAndType(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("cfg.json"),
        "{\"mcpServers\":{\"notes\":{\"command\":\"node\",\"args\":[\"x\",1]}}}");
    CliRun r = run(dir, "preflight", "notes", "--config", "cfg.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stderr())
        .contains("cfg.json: /mcpServers/notes/args/1: expected a string, got a number");
    assertThat(run(dir, "preflight", "notes", "--config", "missing.json").exitCode())
        .isEqualTo(Main.EXIT_USAGE);
  }

  @Test
  void usageErrors(@TempDir Path dir) throws Exception {
    config(dir, "stable");
    assertThat(run(dir, "preflight").exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(run(dir, "preflight", "stable").exitCode()).isEqualTo(Main.EXIT_USAGE);
    CliRun tooShort = run(dir, "preflight", "stable", "--config", "cfg.json", "--timeout", "4");
    assertThat(tooShort.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(tooShort.stderr()).contains("--timeout must be between 5 and 120 seconds");
    assertThat(
            run(dir, "preflight", "stable", "--config", "cfg.json", "--timeout", "121").exitCode())
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(run(dir, "preflight", "stable", "--config", "cfg.json", "--timeout", "x").exitCode())
        .isEqualTo(Main.EXIT_USAGE);
  }

  @Test
  void disabledServerIsReportedNotSpawned(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("cfg.json"),
        "{\"mcpServers\":{\"off\":{\"command\":\"node\",\"disabled\":true},"
            + "\"web\":{\"url\":\"https://example.test/mcp\"}}}");
    CliRun off = run(dir, "preflight", "off", "--config", "cfg.json", "--json");
    assertThat(off.exitCode()).isZero();
    assertThat(((Map<?, ?>) json(off.stdout())).get("detail")).isEqualTo("disabled");
    CliRun web = run(dir, "preflight", "web", "--config", "cfg.json");
    assertThat(web.stdout()).isEqualTo("server \"web\": could not run: no command\n");
  }
}
