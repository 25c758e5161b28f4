package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.host.config.ConfigSamples.Layout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every client format beyond the first ten sources, read from {@code
 * src-it/fixtures/client-configs} (one file per location): the entry mapping, each disabled
 * encoding, each variable syntax, {@code envFile}, and the notes.
 */
final class ClientConfigsTest {
  static final Path FIXTURES =
      Path.of(System.getProperty("kcshare.fixtures", "../src-it/fixtures"))
          .resolve("client-configs")
          .toAbsolutePath();

  @TempDir Path root;
  private Layout l;
  private HostConfig c;

  /** Copies the fixture home and workspace into {@code l}, substituting the placeholders. */
  static void install(Layout l, Path fixture, String pids) {
    copy(fixture.resolve("home"), l.home(), fixture, pids);
    copy(fixture.resolve("workspace"), l.workspace(), fixture, pids);
  }

  private static void copy(Path from, Path to, Path fixture, String pids) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        String text = Files.readString(p, StandardCharsets.UTF_8);
        text =
            text.replace("@FIXTURE@", fixture.getParent().resolve("mcp-fixture.mjs").toString())
                .replace("@PIDS@", pids);
        Path target = to.resolve(from.relativize(p).toString());
        Files.createDirectories(target.getParent());
        Files.writeString(target, text, StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @BeforeEach
  void load() throws IOException {
    l = ConfigSamples.empty(root);
    install(l, FIXTURES, root.resolve("pids").toString());
    Map<String, String> env = l.env("CODEX_FORWARDED", "forwarded", "LANG_HINT", "from-host");
    c = HostConfigLoader.load(l.context(env).host(), ConfigRequest.discovery(), Platform.LINUX);
  }

  private ConfiguredDefinition def(String name) {
    ConfiguredServer s = c.serverNamed(name);
    assertThat(s).as(name).isNotNull();
    return s.first();
  }

  private ConfigFile file(String origin) {
    return c.files().stream().filter(f -> f.origin().equals(origin)).findFirst().orElseThrow();
  }

  private List<String> unresolved(String name) {
    return c.serverNamed(name).unresolved().stream()
        .map(u -> u.reference() + " " + u.reason().id())
        .toList();
  }

  @Test
  void everyLocationIsReadWithItsOwnOriginAndNothingIsSkipped() {
    assertThat(c.skipped()).isEmpty();
    assertThat(c.errors()).isEmpty();
    for (String origin :
        List.of(
            "vscode-user",
            "vscode-profile",
            "vscode-settings",
            "windsurf",
            "cline",
            "cline-vscode",
            "roo-user",
            "roo-project",
            "gemini-user",
            "gemini-project",
            "codex-user",
            "codex-project",
            "zed-user",
            "zed-project",
            "continue-user",
            "continue-global-block",
            "continue-block",
            "continue-json",
            "goose",
            "lmstudio",
            "amazonq-user",
            "amazonq-workspace",
            "amazonq-agent",
            "opencode-user",
            "opencode-project")) {
      assertThat(c.files())
          .as(origin)
          .anyMatch(f -> f.origin().equals(origin) && f.status() == ConfigFile.Status.READ);
    }
    assertThat(file("codex-user").display()).isEqualTo("~/.codex/config.toml");
    assertThat(file("continue-block").display()).isEqualTo(".continue/mcpServers/local.yaml");
    assertThat(file("vscode-profile").display())
        .isEqualTo("~/.config/Code/User/profiles/5f2a9c/mcp.json");
  }

  @Test
  void vscodeNumbersNullEnvFileAndNoDisabledMember() {
    ConfiguredDefinition d = def("vscode-user-tool");
    ServerDefinition s = d.definition();
    assertThat(d.format()).isEqualTo(ConfigFormat.VSCODE.id());
    assertThat(s.args()).containsExactly("-y", "vscode-user-tool", l.home() + "/data");
    // JavaScript's String(): 8080 -> "8080", 1.5 -> "1.5"; null removes the variable.
    assertThat(s.env())
        .containsEntry("PORT", "8080")
        .containsEntry("RATIO", "1.5")
        .containsEntry("HOME_HINT", l.home().toString())
        .containsEntry("FROM_FILE", "vscode-envfile-value")
        .containsEntry("TOKEN", "vscode-user-env-value")
        .doesNotContainKey("DROP_ME");
    assertThat(s.unsetEnv()).containsExactly("DROP_ME");
    assertThat(s.disabled()).as("VS Code has no disabled member").isFalse();
    assertThat(file("vscode-user").warnings())
        .anyMatch(w -> w.startsWith("/servers/vscode-user-tool/disabled: ignored"))
        .anyMatch(
            w ->
                w.equals(
                    "/servers/vscode-user-tool/env/PORT: number used as 8080, as VS Code converts it"));
    assertThat(def("vscode-remote").isStdio()).isFalse();
    assertThat(unresolved("vscode-profile-tool")).containsExactly("${input:key} input");
    assertThat(def("vscode-settings-tool").pointer())
        .isEqualTo("/mcp/servers/vscode-settings-tool");
    assertThat(def("vscode-settings-tool").format()).isEqualTo(ConfigFormat.VSCODE_SETTINGS.id());
  }

  @Test
  void vscodeEnvFilePrecedencePathAppendAndAnUnreadableFileIsANote() {
    Layout m = ConfigSamples.empty(root.resolve("m"));
    m.write(m.workspace().resolve(".env"), "PATH=/from/file\nA=file\nB=file\n");
    m.write(
        m.workspace().resolve(".vscode/mcp.json"),
        "{\"servers\": {"
            + "\"t\": {\"command\": \"npx\", \"envFile\": \"${workspaceFolder}/.env\","
            + " \"env\": {\"A\": \"declared\", \"PATH\": \"/extra\"}},"
            + " \"u\": {\"command\": \"npx\", \"env\": {\"PATH\": \"/extra\"}},"
            + " \"v\": {\"command\": \"npx\", \"envFile\": \"missing.env\", \"env\": {\"K\": \"x\"}}}}");
    HostConfig h =
        HostConfigLoader.load(m.context(m.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    Map<String, String> t = h.serverNamed("t").first().definition().env();
    assertThat(t)
        .containsEntry("A", "declared")
        .containsEntry("B", "file")
        .containsEntry("PATH", "/from/file:/extra");
    assertThat(h.serverNamed("u").first().definition().env())
        .containsEntry("PATH", m.bin() + ":/extra");
    assertThat(h.serverNamed("v").first().definition().env()).containsOnlyKeys("K");
    assertThat(h.skipped()).isEmpty();
    assertThat(
            h.files().stream()
                .filter(f -> f.origin().equals("vscode-workspace"))
                .findFirst()
                .orElseThrow()
                .warnings())
        .anyMatch(
            w ->
                w.startsWith("/servers/v/envFile: cannot read ")
                    && w.contains("missing.env: no such file"));
    // the identity is that of the env VS Code gives the server
    assertThat(h.serverNamed("t").first().identity())
        .isNotEqualTo(h.serverNamed("u").first().identity());
  }

  @Test
  void windsurfClineAndRoo() {
    assertThat(def("windsurf-tool").definition().env()).containsEntry("API_KEY", "");
    assertThat(unresolved("windsurf-tool")).containsExactly("${env:WINDSURF_SAMPLE_KEY} unset");
    assertThat(def("windsurf-remote").definition().url())
        .isEqualTo("https://example.invalid/windsurf");
    assertThat(def("windsurf-remote").isStdio()).isFalse();

    assertThat(def("cline-tool").definition().cwd()).isEqualTo("/tmp");
    assertThat(def("cline-tool").definition().disabled()).isFalse();
    ServerDefinition nested = def("cline-nested").definition();
    assertThat(nested.command()).isEqualTo("npx");
    assertThat(nested.args()).containsExactly("-y", "cline-nested");
    assertThat(nested.disabled()).isTrue();
    assertThat(def("cline-legacy-sse").definition().type()).isEqualTo("sse");
    assertThat(def("cline-vscode-tool").file())
        .isEqualTo(
            "~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json");

    ServerDefinition roo = def("roo-tool").definition();
    assertThat(roo.args()).containsExactly("-y", "roo-tool", l.workspace().toString());
    assertThat(roo.env()).containsEntry("KEY", "${env:ROO_SAMPLE_UNSET}");
    assertThat(unresolved("roo-tool")).containsExactly("${env:ROO_SAMPLE_UNSET} unset");
    assertThat(def("roo-off").definition().disabled()).isTrue();
    assertThat(def("roo-project-tool").isStdio()).isFalse();
  }

  @Test
  void geminiVariablesAndItsThreeWaysOfDisabling() {
    ServerDefinition g = def("gemini-tool").definition();
    assertThat(g.args()).containsExactly("-y", "gemini-tool", l.home().toString(), "fallback");
    assertThat(g.disabled()).isFalse();
    assertThat(def("gemini-excluded").definition().disabled()).as("mcp.excluded").isTrue();
    assertThat(def("gemini-off").definition().disabled()).as("enablement file").isTrue();
    assertThat(def("gemini-http").definition().type()).isEqualTo("http");
    assertThat(def("gemini-http").isStdio()).isFalse();
    assertThat(def("gemini-project-tool").file()).isEqualTo(".gemini/settings.json");
  }

  @Test
  void codexTomlTablesEnabledEnvAndTheTrustNote() {
    ServerDefinition t = def("codex-tool").definition();
    assertThat(t.env()).containsOnly(Map.entry("API_KEY", "codex-env-value"));
    assertThat(def("codex-tool").pointer()).isEqualTo("/mcp_servers/codex-tool");
    assertThat(def("codex-off").definition().disabled()).isTrue();
    assertThat(def("codex-remote").isStdio()).isFalse();
    assertThat(def("codex-remote").definition().type()).isEqualTo("streamable_http");
    assertThat(file("codex-user").warnings())
        .anyMatch(w -> w.startsWith("/mcp_servers/codex-tool/env_vars: forwarded"));
    assertThat(def("codex-project-tool").definition().env()).containsEntry("MODE", "project");
    assertThat(file("codex-project").warnings())
        .anyMatch(w -> w.contains("only in a trusted project"));
  }

  @Test
  void codexTrustsAProjectMarkedTrusted() {
    Layout m = ConfigSamples.empty(root.resolve("m"));
    m.write(
        m.home().resolve(".codex/config.toml"),
        "[projects.\"" + m.workspace() + "\"]\ntrust_level = \"trusted\"\n");
    m.write(m.workspace().resolve(".codex/config.toml"), "[mcp_servers.p]\ncommand = \"npx\"\n");
    HostConfig h =
        HostConfigLoader.load(m.context(m.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(h.serverNamed("p")).isNotNull();
    assertThat(h.files())
        .filteredOn(f -> f.origin().equals("codex-project"))
        .singleElement()
        .satisfies(f -> assertThat(f.warnings()).isEmpty());
  }

  @Test
  void zedAllThreeFormsAndExtensions() {
    assertThat(def("zed-flat").definition().env()).containsEntry("ZED_KEY", "zed-env-value");
    assertThat(def("zed-flat").definition().disabled()).isFalse();
    assertThat(def("zed-custom").definition().disabled()).as("enabled: false").isTrue();
    ServerDefinition nested = def("zed-nested").definition();
    assertThat(nested.command()).isEqualTo("npx");
    assertThat(nested.args()).containsExactly("-y", "zed-nested");
    assertThat(def("zed-nested").isStdio()).isTrue();
    assertThat(c.serverNamed("zed-extension")).isNull();
    assertThat(c.clientPartNamed("zed-extension").first().definition().type())
        .isEqualTo("extension");
    assertThat(file("zed-user").warnings())
        .anyMatch(w -> w.startsWith("/context_servers/zed-extension: provided by a Zed extension"));
    assertThat(def("zed-project-tool").isStdio()).isFalse();
  }

  @Test
  void continueListsBlocksJsonAndSecrets() {
    ConfiguredDefinition t = def("continue-tool");
    assertThat(t.pointer()).isEqualTo("/mcpServers/0");
    assertThat(t.definition().env())
        .containsEntry("API_KEY", "continue-secret-value")
        .containsEntry("MODE", "on");
    assertThat(def("continue-sse").isStdio()).isFalse();
    assertThat(file("continue-user").warnings())
        .anyMatch(w -> w.startsWith("/mcpServers/2: a hub block (uses someone/hub-block)"));
    assertThat(def("continue-block-tool").file()).isEqualTo("~/.continue/mcpServers/block.yaml");
    assertThat(def("continue-workspace-block").format())
        .isEqualTo(ConfigFormat.CONTINUE_BLOCK.id());
    assertThat(def("continue-json-tool").definition().env())
        .containsEntry("KEY", "continue-secret-value");
    assertThat(file("continue-json").warnings())
        .anyMatch(
            w ->
                w.equals(
                    "/mcpServers/continue-json-tool/envFile: ignored, as Continue ignores it"));
    assertThat(def("continue-json-workspace").file()).isEqualTo(".continue/mcpServers/ws.json");
  }

  @Test
  void gooseExtensionsEnabledEnvsAndSecretKeys() {
    ServerDefinition t = def("goosetool").definition();
    assertThat(t.command()).isEqualTo("npx");
    assertThat(t.args()).containsExactly("-y", "goose-tool");
    assertThat(t.env()).containsOnly(Map.entry("GOOSE_KEY", "goose-env-value"));
    assertThat(unresolved("goosetool")).containsExactly("GOOSE_SECRET secret");
    assertThat(file("goose").warnings())
        .anyMatch(w -> w.startsWith("/extensions/goosetool/envs/PATH: skipped"));
    assertThat(def("gooseoff").definition().disabled()).isTrue();
    // A builtin extension is part of Goose: listed apart, never a server.
    assertThat(c.serverNamed("developer")).isNull();
    ConfiguredServer developer = c.clientPartNamed("developer");
    assertThat(developer).isNotNull();
    assertThat(developer.isPartOfClient()).isTrue();
    assertThat(developer.first().definition().type()).isEqualTo("builtin");
    assertThat(c.clientParts()).extracting(ConfiguredServer::name).contains("developer", "todo");
    assertThat(c.serverNamed("todo")).isNull();
    // A websocket extension is remote, at its uri: a server, not part of Goose.
    assertThat(def("goosesocket").definition().url()).isEqualTo("wss://example.invalid/goose");
    assertThat(def("goosesocket").isStdio()).isFalse();
    assertThat(file("goose").warnings()).noneMatch(w -> w.contains("goosesocket: a Goose"));
    assertThat(def("gooseremote").definition().url()).isEqualTo("https://example.invalid/goose");
  }

  @Test
  void lmStudioAmazonQAndOpencode() {
    assertThat(def("lmstudio-tool").isStdio()).isTrue();

    ServerDefinition q = def("amazonq-tool").definition();
    assertThat(q.env())
        .containsEntry("REGION", "${AMAZONQ_SAMPLE_UNSET}")
        .containsEntry("LANG_HINT", "from-host");
    assertThat(unresolved("amazonq-tool")).containsExactly("${env:AMAZONQ_SAMPLE_UNSET} unset");
    assertThat(def("amazonq-off").definition().disabled()).isTrue();
    assertThat(def("amazonq-workspace-tool").isStdio()).isFalse();
    assertThat(def("amazonq-agent-tool").format()).isEqualTo(ConfigFormat.AMAZONQ_AGENT.id());
    assertThat(def("amazonq-workspace-agent").file())
        .isEqualTo(".amazonq/cli-agents/ws-agent.json");

    ServerDefinition o = def("opencode-tool").definition();
    assertThat(o.command()).isEqualTo("npx");
    assertThat(o.args()).containsExactly("-y", "opencode-tool");
    assertThat(o.env()).containsEntry("OC_KEY", "");
    assertThat(unresolved("opencode-tool")).containsExactly("{env:OPENCODE_SAMPLE_UNSET} unset");
    assertThat(def("opencode-off").definition().disabled()).isTrue();
    assertThat(def("opencode-remote").isStdio()).isFalse();
    assertThat(def("opencode-project-tool").file()).isEqualTo("opencode.jsonc");
  }

  @Test
  void severalClientsOneName() {
    ConfiguredServer memory = c.serverNamed("memory");
    assertThat(memory.clients()).containsExactly("Codex CLI", "Goose");
    assertThat(memory.isConflicting()).as("the same command line in two clients").isFalse();
    assertThat(memory.differences()).isEmpty();
    ConfiguredServer fetch = c.serverNamed("fetch");
    assertThat(fetch.clients()).containsExactly("Zed", "opencode");
    assertThat(fetch.isConflicting()).isTrue();
    assertThat(fetch.differences()).containsExactly("args");
    assertThat(fetch.commonIdentity()).isNull();
  }

  @Test
  void opencodeArgsPointersKeepTheirIndexInTheCommandArray() {
    Layout m = ConfigSamples.empty(root.resolve("m"));
    m.write(
        m.workspace().resolve("opencode.json"),
        "{\"mcp\": {\"x\": {\"type\": \"local\", \"command\": [\"npx\", \"-y\", 3]}}}");
    HostConfig h =
        HostConfigLoader.load(m.context(m.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(h.skipped())
        .containsExactly("opencode.json: /mcp/x/command/2: expected a string, got a number");
  }

  @Test
  void tomlAndYamlSyntaxErrorsNameLineAndColumn() {
    Layout m = ConfigSamples.empty(root.resolve("m"));
    m.write(m.home().resolve(".codex/config.toml"), "[mcp_servers.a]\ncommand = \"npx\n");
    m.write(
        m.home().resolve(".config/goose/config.yaml"),
        "extensions:\n  a:\n    enabled: true\n   type: stdio\n");
    m.write(
        m.home().resolve(".continue/config.yaml"),
        "mcpServers:\n  - name: a\n  - name: a\n\tcommand: x\n");
    HostConfig h =
        HostConfigLoader.load(m.context(m.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(h.skipped()).hasSize(3);
    assertThat(h.skipped().get(0)).matches("~/\\.codex/config\\.toml:2:\\d+: not valid TOML: .*");
    assertThat(h.skipped().get(1))
        .matches("~/\\.continue/config\\.yaml:4:\\d+: not valid YAML: .*");
    assertThat(h.skipped().get(2))
        .matches("~/\\.config/goose/config\\.yaml:4:\\d+: not valid YAML: .*");
    for (String s : h.skipped()) {
      assertThat(s)
          .doesNotContain("Exception")
          .doesNotContain("com.fasterxml")
          .doesNotContain("snakeyaml");
    }
  }

  @Test
  void yamlIsReadWithTheCoreSchemaAndRepeatedKeysAreRefused() {
    Layout m = ConfigSamples.empty(root.resolve("m"));
    m.write(
        m.home().resolve(".config/goose/config.yaml"),
        "extensions:\n  a:\n    enabled: yes\n    type: stdio\n    name: a\n    cmd: npx\n    args: []\n");
    HostConfig h =
        HostConfigLoader.load(m.context(m.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(h.skipped())
        .containsExactly(
            "~/.config/goose/config.yaml: /extensions/a/enabled: expected a boolean, got a string");
    m.write(
        m.home().resolve(".config/goose/config.yaml"),
        "extensions:\n  a:\n    enabled: true\n    enabled: false\n");
    h = HostConfigLoader.load(m.context(m.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(h.skipped()).singleElement().asString().contains("a key appears twice");
  }

  @Test
  void envValuesOfTheFixturesNeverReachTheJsonForm() {
    String json = c.toJson().toString();
    for (String secret :
        List.of(
            "vscode-user-env-value",
            "vscode-envfile-value",
            "vscode-header-value",
            "codex-env-value",
            "zed-env-value",
            "continue-secret-value",
            "goose-env-value",
            "amazonq-env-value")) {
      assertThat(json).doesNotContain(secret);
    }
  }
}
