package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mcphub's {@code mcp_settings.json} (in the working directory) and 1MCP's {@code
 * ~/.config/1mcp/mcp.json} as discovery sources, through the packaged launcher, with the fixtures
 * of {@code src-it/fixtures/client-configs}: both are listed with their own origins, and a 1MCP
 * template whose launch holds variables is never spawned (its command would leave a pid in a marker
 * directory if it ran).
 */
final class GatewayConfigsIT {
  private static final Path FIXTURES = Kcshare.repo().resolve("src-it/fixtures");

  @TempDir Path dir;

  private Path home() {
    return dir.resolve("home");
  }

  private Path workspace() {
    return dir.resolve("workspace");
  }

  private Path pids() {
    return dir.resolve("pids");
  }

  /** Only the two gateway files, placeholders substituted; a PATH that holds only node. */
  private Map<String, String> install(Path node) throws IOException {
    Files.createDirectories(pids());
    Path fixture = FIXTURES.resolve("client-configs");
    copy(fixture.resolve("home/.config/1mcp/mcp.json"), home().resolve(".config/1mcp/mcp.json"));
    copy(fixture.resolve("workspace/mcp_settings.json"), workspace().resolve("mcp_settings.json"));
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("node"), node);
    Map<String, String> env = new HashMap<>();
    for (String v :
        List.of(
            "KIROCREW_HOME",
            "KCSHARE_RECORDS_DIR",
            "MCPHUB_SETTING_PATH",
            "ONE_MCP_CONFIG",
            "ONE_MCP_CONFIG_DIR",
            "CODEX_HOME",
            "GEMINI_CLI_HOME",
            "CONTINUE_GLOBAL_DIR",
            "CLINE_DIR",
            "CLINE_DATA_DIR",
            "CLINE_MCP_SETTINGS_PATH",
            "OPENCODE_CONFIG",
            "APPDATA")) {
      env.put(v, "");
    }
    env.put("HOME", home().toString());
    env.put("XDG_CONFIG_HOME", home().resolve(".config").toString());
    env.put("XDG_CACHE_HOME", home().resolve(".cache").toString());
    env.put("PATH", bin.toString());
    env.put("NO_COLOR", "1");
    return env;
  }

  private void copy(Path from, Path to) throws IOException {
    String text =
        Files.readString(from, StandardCharsets.UTF_8)
            .replace("@FIXTURE@", FIXTURES.resolve("mcp-fixture.mjs").toString())
            .replace("@PIDS@", pids().toString());
    Files.createDirectories(to.getParent());
    Files.writeString(to, text, StandardCharsets.UTF_8);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  private List<Path> spawned() throws IOException {
    try (Stream<Path> files = Files.list(pids())) {
      return files.toList();
    }
  }

  @Test
  void bothGatewaysAreListedAndATemplateWithVariablesIsNeverSpawned() throws Exception {
    Optional<Path> node = ItProcesses.onPath("node");
    Assumptions.assumeTrue(node.isPresent(), "node is not installed");
    Map<String, String> env = install(node.get());

    Kcshare.Result config = Kcshare.run(workspace(), env, "", "config", "--json");
    assertThat(config.exitCode()).as(config.stderr()).isZero();
    Map<String, Object> doc = object(Json.parse(config.stdout()));
    Map<String, String> status = new HashMap<>();
    for (Object f : list(doc.get("files"))) {
      status.put((String) object(f).get("origin"), (String) object(f).get("status"));
    }
    assertThat(status).containsEntry("mcphub", "read").containsEntry("1mcp", "read");
    Map<String, Map<String, Object>> first = new HashMap<>();
    for (Object s : list(doc.get("servers"))) {
      first.put((String) object(s).get("name"), object(list(object(s).get("definitions")).get(0)));
    }
    assertThat(first.get("mcphub-playwright").get("format")).isEqualTo("mcphub");
    assertThat(first.get("mcphub-off").get("disabled")).isEqualTo(true);
    assertThat(first.get("onemcp-off").get("disabled")).isEqualTo(true);
    Map<String, Object> template = first.get("onemcp-project");
    assertThat(template.get("format")).isEqualTo("1mcp");
    assertThat(template.get("pointer")).isEqualTo("/mcpTemplates/onemcp-project");
    assertThat(template.get("identity")).isNull();
    assertThat(list(template.get("unresolved")))
        .map(u -> object(u).get("reason"))
        .containsOnly("template")
        .hasSize(2);
    assertThat(first.get("onemcp-plain-template").get("identity")).isNotNull();
    assertThat(config.stdout()).doesNotContain("mcphub-env-value");

    String records = dir.resolve("records").toString();
    Kcshare.Result one =
        Kcshare.run(
            workspace(), env, "", "measure", "onemcp-project", "--json", "--records-dir", records);
    // Refused with the reason (docs/config.md), nothing on stdout.
    assertThat(one.exitCode()).as(one.stderr()).isEqualTo(2);
    assertThat(one.stdout()).isEmpty();
    assertThat(one.stderr())
        .contains("cannot measure \"onemcp-project\": a 1MCP template with variables");
    assertThat(spawned()).as("a template with variables is never spawned").isEmpty();

    Kcshare.Result all =
        Kcshare.run(workspace(), env, "", "measure", "--all", "-v", "--records-dir", records);
    assertThat(all.exitCode()).as(all.stderr()).isZero();
    assertThat(all.stdout() + all.stderr()).doesNotContain("onemcp-project");
    assertThat(spawned()).as("nor disabled servers, nor by --all").isEmpty();
  }
}
