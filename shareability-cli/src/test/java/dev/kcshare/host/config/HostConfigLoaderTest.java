package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.UnresolvedVariable;
import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.IdentityHashes;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.ConfigSamples.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class HostConfigLoaderTest {
  @TempDir Path root;

  private static HostConfig load(Layout l, Map<String, String> env, ConfigRequest request) {
    return HostConfigLoader.load(l.context(env).host(), request, Platform.LINUX);
  }

  private static HostConfig discover(Layout l, String... env) {
    return load(l, l.env(env), ConfigRequest.discovery());
  }

  private static List<String> names(HostConfig c) {
    return c.servers().stream().map(ConfiguredServer::name).toList();
  }

  private static ConfiguredServer server(HostConfig c, String name) {
    ConfiguredServer s = c.serverNamed(name);
    assertThat(s).as(name).isNotNull();
    return s;
  }

  @Test
  void discoveryReadsEverySourceInTheDocumentedOrder() {
    Layout l = ConfigSamples.full(root);
    HostConfig c = discover(l);

    assertThat(c.files())
        .extracting(ConfigFile::display, f -> f.status().id(), ConfigFile::origin)
        .startsWith(
            org.assertj.core.groups.Tuple.tuple("~/.kiro/crew/config.json", "read", "kirocrew"),
            org.assertj.core.groups.Tuple.tuple("~/.kiro/settings/mcp.json", "read", "kiro-user"),
            org.assertj.core.groups.Tuple.tuple(
                ".kiro/settings/mcp.json", "read", "kiro-workspace"),
            org.assertj.core.groups.Tuple.tuple(
                "~/.kiro/agents/kirocrew.json", "read", "kiro-agent"),
            org.assertj.core.groups.Tuple.tuple(
                "~/.kiro/agents/reviewer.json", "read", "kiro-agent"),
            org.assertj.core.groups.Tuple.tuple(
                "~/.config/Claude/claude_desktop_config.json", "read", "claude-desktop"),
            org.assertj.core.groups.Tuple.tuple("~/.claude.json", "read", "claude-code-user"),
            org.assertj.core.groups.Tuple.tuple(".mcp.json", "read", "claude-code-project"),
            org.assertj.core.groups.Tuple.tuple("~/.cursor/mcp.json", "read", "cursor-user"),
            org.assertj.core.groups.Tuple.tuple(".cursor/mcp.json", "missing", "cursor-workspace"),
            org.assertj.core.groups.Tuple.tuple(".vscode/mcp.json", "read", "vscode-workspace"),
            org.assertj.core.groups.Tuple.tuple(
                "~/.config/Code/User/mcp.json", "missing", "vscode-user"));
    assertThat(c.files().subList(11, c.files().size()))
        .extracting(ConfigFile::origin)
        .as("the other clients' files, after the first ten sources")
        .containsExactly(
            "vscode-user",
            "vscode-profile",
            "vscode-settings",
            "windsurf",
            "cline",
            "cline-vscode",
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
            "continue-json",
            "goose",
            "lmstudio",
            "amazonq-user",
            "amazonq-workspace",
            "amazonq-agent",
            "amazonq-agent",
            "opencode-user",
            "opencode-user",
            "opencode-user",
            "opencode-project",
            "opencode-project",
            "opencode-project",
            "opencode-project",
            "mcphub",
            "1mcp");
    assertThat(c.errors()).isEmpty();
    assertThat(names(c))
        .containsExactly(
            "fetch",
            "filesystem",
            "github",
            "aws-docs",
            "context7",
            "kirocrew-core",
            "kirocrew-cron",
            "kirocrew-computer",
            "git",
            "sqlite",
            "memory",
            "puppeteer",
            "postgres",
            "sentry",
            "linear",
            "brave-search",
            "notion",
            "workspace-tool",
            "playwright",
            "perplexity");
    assertThat(server(c, "memory").configured())
        .extracting(ConfiguredDefinition::file, ConfiguredDefinition::pointer)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "~/.config/Claude/claude_desktop_config.json", "/mcpServers/memory"),
            org.assertj.core.groups.Tuple.tuple("~/.claude.json", "/mcpServers/memory"));
    assertThat(server(c, "puppeteer").first().pointer())
        .isEqualTo(
            "/projects/" + l.workspace().toString().replace("/", "~1") + "/mcpServers/puppeteer");
    assertThat(c.serverNamed("other-project-only")).as("another project's servers").isNull();
    assertThat(server(c, "kirocrew-core").first().format()).isEqualTo(ConfigFormat.KIRO_AGENT.id());
    assertThat(server(c, "postgres").first().format()).isEqualTo(ConfigFormat.CLAUDE_CODE.id());
    assertThat(server(c, "playwright").first().format()).isEqualTo(ConfigFormat.VSCODE.id());
  }

  @Test
  void sameNameSameIdentityIsNoConflictDifferentArgsOrTransportIs() {
    HostConfig c = discover(ConfigSamples.full(root));

    ConfiguredServer filesystem = server(c, "filesystem");
    assertThat(filesystem.definitions()).hasSize(2);
    assertThat(filesystem.isConflicting()).isFalse();
    assertThat(filesystem.commonIdentity()).isEqualTo(filesystem.first().identity()).isNotNull();
    assertThat(server(c, "memory").isConflicting()).isFalse();

    assertThat(c.conflictDetails())
        .extracting(Conflict::name, Conflict::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "fetch", "definitions resolve to different execution identities"),
            org.assertj.core.groups.Tuple.tuple(
                "github", "some definitions are stdio and some are not"));
    assertThat(server(c, "fetch").commonIdentity()).isNull();
    assertThat(server(c, "github").commonIdentity()).isNull();
    assertThat(server(c, "github").isStdio()).as("the first definition is the docker one").isTrue();
  }

  @Test
  void identityIsTheVerdictCacheIdentityOfTheDefinitionAsLaunched() {
    HostConfig c = discover(ConfigSamples.full(root));
    ConfiguredDefinition memory = server(c, "memory").first();
    List<String> args = List.of("-y", "@modelcontextprotocol/server-memory");
    assertThat(memory.identity())
        .isEqualTo(
            ExecutionIdentity.cacheIdentity(
                IdentityHashes.commandArgsHash("npx", args),
                IdentityHashes.envHash(
                    Map.of("MEMORY_FILE_PATH", "/home/op/.local/share/claude-memory-sample.json"),
                    Set.of()),
                ConfigSamples.NPX_FINGERPRINT));
    // uvx is not on PATH: its fingerprint is unknown, and the identity says so.
    assertThat(server(c, "sqlite").first().identity()).contains("\0unknown\0");
    assertThat(server(c, "sentry").first().identity()).isNull();
  }

  @Test
  void integerAndBooleanEnvValuesAreConvertedAsTheGatewayConvertsThem() {
    HostConfig c = discover(ConfigSamples.full(root));
    ConfiguredDefinition awsDocs = server(c, "aws-docs").first();
    assertThat(awsDocs.definition().env())
        .containsEntry("MCP_TIMEOUT_SECONDS", "120")
        .containsEntry("MCP_VERBOSE", "False");
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("FASTMCP_LOG_LEVEL", "ERROR");
    raw.put("AWS_DOCUMENTATION_PARTITION", "aws");
    raw.put("MCP_TIMEOUT_SECONDS", 120);
    raw.put("MCP_VERBOSE", false);
    assertThat(IdentityHashes.envHash(awsDocs.definition().env(), Set.of()))
        .as("the env hash of the raw JSON values (as the Kiro Crew gateway hashes them)")
        .isEqualTo(IdentityHashes.envHash(raw, Set.of()));
    ConfigFile kiro = c.files().get(1);
    assertThat(kiro.warnings())
        .containsExactly(
            "/mcpServers/aws-docs/env/MCP_TIMEOUT_SECONDS: integer used as its decimal text, as"
                + " the Kiro Crew gateway does",
            "/mcpServers/aws-docs/env/MCP_VERBOSE: boolean used as True/False, as the Kiro Crew"
                + " gateway converts it");
  }

  @Test
  void stdioDisabledAndUrlEntries() {
    HostConfig c = discover(ConfigSamples.full(root));
    assertThat(server(c, "kirocrew-computer").first().definition().disabled()).isTrue();
    assertThat(server(c, "kirocrew-computer").isStdio()).isTrue();
    ConfiguredDefinition context7 = server(c, "context7").first();
    assertThat(context7.isStdio()).isFalse();
    assertThat(context7.definition().url()).isEqualTo("https://mcp.context7.com/mcp");
    assertThat(server(c, "linear").first().definition().type()).isEqualTo("sse");
    assertThat(server(c, "linear").isStdio()).isFalse();
  }

  @Test
  void typeHttpWithACommandIsNotStdio(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    Path f =
        l.write(
            l.workspace().resolve("odd.json"),
            "{\"mcpServers\": {\"x\": {\"type\": \"streamable-http\", \"command\": \"npx\","
                + " \"url\": \"http://127.0.0.1:9/mcp\"},"
                + " \"y\": {\"type\": \"websocket\", \"command\": \"npx\"}}}");
    HostConfig c = load(l, l.env(), ConfigRequest.files(List.of(f.toString())));
    assertThat(server(c, "x").isStdio()).isFalse();
    assertThat(server(c, "x").first().identity()).isNull();
    assertThat(server(c, "y").isStdio()).as("unknown type with a command").isTrue();
    assertThat(c.files().get(0).warnings())
        .containsExactly(
            "/mcpServers/y/type: unknown transport type 'websocket'; read as stdio because a"
                + " command is given");
  }

  @Test
  void declaredEnvNamesAreTheSortedUnionOverDefinitions(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    Path a =
        l.write(
            l.workspace().resolve("a.json"),
            "{\"mcpServers\": {\"s\": {\"command\": \"npx\", \"env\": {\"Z\": \"1\", \"B\": \"2\"}}}}");
    Path b =
        l.write(
            l.workspace().resolve("b.json"),
            "{\"mcpServers\": {\"s\": {\"command\": \"npx\", \"env\": {\"A\": \"3\", \"Z\": \"4\"}}}}");
    HostConfig c = load(l, l.env(), ConfigRequest.files(List.of(a.toString(), b.toString())));
    assertThat(server(c, "s").declaredEnvNames()).containsExactly("A", "B", "Z");
    assertThat(server(c, "s").isConflicting()).as("env values differ").isTrue();
  }

  @Test
  void vscodeSubstitutionAndUnresolvedInputs() {
    Layout l = ConfigSamples.full(root);
    HostConfig c = discover(l);
    ConfiguredDefinition playwright = server(c, "playwright").first();
    assertThat(playwright.definition().args())
        .containsExactly("@playwright/mcp@latest", "--output-dir", l.workspace() + "/.playwright");
    assertThat(playwright.definition().env())
        .containsEntry("PLAYWRIGHT_BROWSERS_PATH", l.home() + "/.cache/ms-playwright")
        .containsEntry("DEBUG", "")
        .containsEntry("API_TOKEN", "${input:github-token}")
        .containsEntry("STATIC_SETTING", "vscode-literal-sample-value /* not a comment */");
    assertThat(c.unresolved())
        .extracting(
            UnresolvedVariable::server,
            UnresolvedVariable::pointer,
            UnresolvedVariable::reference,
            UnresolvedVariable::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "postgres",
                "/mcpServers/postgres/env/PGPASSWORD",
                "${PGPASSWORD}",
                UnresolvedVariable.Reason.UNSET),
            org.assertj.core.groups.Tuple.tuple(
                "workspace-tool",
                "/mcpServers/workspace-tool/env/TOOL_TOKEN",
                "${env:WORKSPACE_TOOL_TOKEN}",
                UnresolvedVariable.Reason.UNSET),
            org.assertj.core.groups.Tuple.tuple(
                "playwright",
                "/servers/playwright/env/DEBUG",
                "${env:PW_DEBUG}",
                UnresolvedVariable.Reason.UNSET),
            org.assertj.core.groups.Tuple.tuple(
                "playwright",
                "/servers/playwright/env/API_TOKEN",
                "${input:github-token}",
                UnresolvedVariable.Reason.INPUT),
            org.assertj.core.groups.Tuple.tuple(
                "perplexity",
                "/servers/perplexity/env/PERPLEXITY_API_KEY",
                "${input:perplexity-key}",
                UnresolvedVariable.Reason.INPUT));
  }

  @Test
  void substitutionUsesTheContextEnvironment() {
    Layout l = ConfigSamples.full(root);
    HostConfig c =
        discover(
            l,
            "PW_DEBUG",
            "pw:api",
            "PGPASSWORD",
            "pg-from-env",
            "DATABASE_URL",
            "postgresql://db/prod",
            "WORKSPACE_TOOL_TOKEN",
            "wt");
    assertThat(server(c, "playwright").first().definition().env()).containsEntry("DEBUG", "pw:api");
    assertThat(server(c, "postgres").first().definition().args())
        .containsExactly("-y", "@modelcontextprotocol/server-postgres", "postgresql://db/prod");
    assertThat(server(c, "postgres").first().definition().env())
        .containsEntry("PGPASSWORD", "pg-from-env");
    ConfiguredDefinition tool = server(c, "workspace-tool").first();
    assertThat(tool.definition().args())
        .containsExactly(
            l.workspace() + "/tools/mcp-server.js",
            "--name",
            l.workspace().getFileName().toString());
    assertThat(tool.definition().env())
        .containsEntry("TOOL_HOME", l.home() + "/.workspace-tool")
        .containsEntry("TOOL_TOKEN", "wt");
    assertThat(c.unresolved())
        .extracting(UnresolvedVariable::reason)
        .containsOnly(UnresolvedVariable.Reason.INPUT);
  }

  @Test
  void claudeCodeDefaultIsUsedWhenTheVariableIsUnset() {
    HostConfig c = discover(ConfigSamples.full(root));
    assertThat(server(c, "postgres").first().definition().args())
        .containsExactly(
            "-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost:5432/dev");
    assertThat(server(c, "postgres").first().definition().env())
        .containsEntry("PGPASSWORD", "${PGPASSWORD}");
  }

  @Test
  void kiroAndClaudeDesktopValuesAreVerbatim(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    l.write(
        l.home().resolve(".kiro/settings/mcp.json"),
        "{\"mcpServers\": {\"k\": {\"command\": \"npx\", \"env\": {\"A\": \"${env:HOME}\","
            + " \"B\": \"${HOME}\"}}}}");
    HostConfig c = discover(l);
    assertThat(server(c, "k").first().definition().env())
        .containsEntry("A", "${env:HOME}")
        .containsEntry("B", "${HOME}");
    assertThat(c.unresolved()).isEmpty();
  }

  @Test
  void gatewaySettingsComeFromTheKiroCrewConfig() {
    HostConfig c = discover(ConfigSamples.full(root));
    GatewaySettings g = c.gateway();
    assertThat(g.source()).isEqualTo("~/.kiro/crew/config.json");
    assertThat(g.present()).isTrue();
    assertThat(g.sharingOn()).isFalse();
    assertThat(g.socketPath()).isEmpty();
    assertThat(g.roster()).containsExactly("filesystem", "fetch"); // duplicates collapse
    assertThat(g.effectiveStubSet()).containsExactly("filesystem", "github");
    assertThat(c.identityKeys()).containsExactly("OAUTH_CLIENT_ID", "OAUTH_TENANT");
    assertThat(g.forwardDeclaredEnv()).isTrue();
  }

  @Test
  void kiroCrewHomeMovesTheKiroCrewConfig(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    Path crew = other.resolve("crew-home");
    l.write(crew.resolve("config.json"), "{\"mcp_gateway\": {\"enabled\": true}}");
    HostConfig c = discover(l, "KIROCREW_HOME", crew.toString());
    assertThat(c.files().get(0).display()).isEqualTo(crew.resolve("config.json").toString());
    assertThat(c.gateway().sharingOn()).isTrue();
    assertThat(c.profile().name()).isEqualTo("kirocrew");
    assertThat(c.profile().reason()).isEqualTo("KIROCREW_HOME is set");
  }

  @Test
  void namedFilesDisableDiscoveryAndDiscoverBringsItBack(@TempDir Path other) {
    Layout l = ConfigSamples.full(root);
    Path named =
        l.write(other.resolve("team.json"), ConfigSamples.text("claude_desktop_config.json"));

    HostConfig only = load(l, l.env(), ConfigRequest.files(List.of(named.toString())));
    assertThat(only.files()).extracting(ConfigFile::display).containsExactly(named.toString());
    assertThat(only.files().get(0).formats()).containsExactly(ConfigFormat.MCP_SERVERS.id());
    assertThat(names(only)).containsExactly("sqlite", "memory");
    assertThat(only.gateway().source()).as("the Kiro Crew config was not read").isNull();

    HostConfig both =
        load(l, l.env(), ConfigRequest.files(List.of(named.toString())).discover(true));
    assertThat(both.files().get(0).display()).isEqualTo(named.toString());
    assertThat(both.files()).hasSize(47);
    assertThat(names(both)).startsWith("sqlite", "memory", "fetch");
    assertThat(server(both, "memory").definitions()).hasSize(3);
  }

  @Test
  void aNamedFileThatIsAlsoDiscoveredIsReadOnce() {
    Layout l = ConfigSamples.full(root);
    HostConfig c =
        load(l, l.env(), ConfigRequest.files(List.of("~/.cursor/mcp.json")).discover(true));
    assertThat(c.files().get(0).formats()).containsExactly(ConfigFormat.CURSOR.id());
    ConfigFile again =
        c.files().stream().filter(f -> f.origin().equals("cursor-user")).findFirst().orElseThrow();
    assertThat(again.status()).isEqualTo(ConfigFile.Status.DUPLICATE);
    assertThat(again.warnings()).containsExactly("same file as ~/.cursor/mcp.json; read once");
    assertThat(server(c, "brave-search").definitions()).hasSize(1);
  }

  @Test
  void aWorkspaceThatIsTheHomeReadsEachFileOnce(@TempDir Path other) throws Exception {
    Layout l = ConfigSamples.empty(other);
    l.write(l.home().resolve(".cursor/mcp.json"), ConfigSamples.text("cursor-mcp.json"));
    Layout atHome = new Layout(l.home(), l.home(), l.bin());
    HostConfig c = discover(atHome);
    assertThat(c.files())
        .filteredOn(f -> f.origin().equals("cursor-workspace"))
        .extracting(ConfigFile::status)
        .containsExactly(ConfigFile.Status.DUPLICATE);
    assertThat(server(c, "notion").definitions()).hasSize(1);
  }

  @Test
  void namedFileFormatsAreDetected(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    Path vscode = l.write(other.resolve("x/mcp.json"), ConfigSamples.text("vscode-mcp.json"));
    Path crew = l.write(other.resolve("x/config.json"), ConfigSamples.text("kirocrew-config.json"));
    Path claude = l.write(other.resolve("y/.claude.json"), ConfigSamples.claudeJson(l.workspace()));
    Path dotMcp = l.write(other.resolve("z/.mcp.json"), ConfigSamples.text("claude-code-mcp.json"));
    Path cursor =
        l.write(other.resolve("z/.cursor/mcp.json"), ConfigSamples.text("cursor-mcp.json"));
    Path kiro =
        l.write(other.resolve("z/.kiro/settings/mcp.json"), ConfigSamples.text("kiro-mcp.json"));
    Path desktop =
        l.write(
            other.resolve("z/claude_desktop_config.json"),
            ConfigSamples.text("claude_desktop_config.json"));
    Path both =
        l.write(
            other.resolve("both.json"),
            "{\"mcp_gateway\": {\"stub_servers\": [\"a\"]}, \"mcpServers\": {\"a\": {\"command\":"
                + " \"npx\"}}}");
    List<String> named =
        List.of(vscode, crew, claude, dotMcp, cursor, kiro, desktop, both).stream()
            .map(Path::toString)
            .toList();
    HostConfig c = load(l, l.env(), ConfigRequest.files(named));
    assertThat(c.files())
        .extracting(ConfigFile::formats)
        .containsExactly(
            List.of(ConfigFormat.VSCODE.id()),
            List.of(ConfigFormat.KIROCREW.id()),
            List.of(ConfigFormat.CLAUDE_CODE_USER.id()),
            List.of(ConfigFormat.CLAUDE_CODE.id()),
            List.of(ConfigFormat.CURSOR.id()),
            List.of(ConfigFormat.KIRO.id()),
            List.of(ConfigFormat.CLAUDE_DESKTOP.id()),
            List.of(ConfigFormat.KIROCREW.id(), ConfigFormat.MCP_SERVERS.id()));
    assertThat(c.gateway().source()).isEqualTo(crew.toString());
    assertThat(c.files().get(7).warnings())
        .containsExactly(
            "/mcp_gateway: ignored; the gateway settings were already read from " + crew);
    assertThat(server(c, "puppeteer").first().format())
        .isEqualTo(ConfigFormat.CLAUDE_CODE_USER.id());
  }

  @Test
  void claudeDesktopLivesInThePlatformsApplicationDirectory(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    String sample = ConfigSamples.text("claude_desktop_config.json");
    l.write(
        l.home().resolve("Library/Application Support/Claude/claude_desktop_config.json"), sample);
    Path appData = other.resolve("AppData-Roaming");
    l.write(appData.resolve("Claude/claude_desktop_config.json"), sample);
    Path xdg = other.resolve("xdg");
    l.write(xdg.resolve("Claude/claude_desktop_config.json"), sample);

    HostConfig mac =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.MACOS);
    assertThat(desktop(mac).display())
        .isEqualTo("~/Library/Application Support/Claude/claude_desktop_config.json");
    assertThat(desktop(mac).status()).isEqualTo(ConfigFile.Status.READ);

    HostConfig windows =
        HostConfigLoader.load(
            l.context(l.env("APPDATA", appData.toString())).host(),
            ConfigRequest.discovery(),
            Platform.WINDOWS);
    assertThat(desktop(windows).path())
        .isEqualTo(appData.resolve("Claude/claude_desktop_config.json"));
    assertThat(desktop(windows).status()).isEqualTo(ConfigFile.Status.READ);

    HostConfig windowsNoAppData =
        HostConfigLoader.load(
            l.context(l.env()).host(), ConfigRequest.discovery(), Platform.WINDOWS);
    assertThat(desktop(windowsNoAppData).display())
        .isEqualTo("~/AppData/Roaming/Claude/claude_desktop_config.json");

    HostConfig linuxXdg =
        HostConfigLoader.load(
            l.context(l.env("XDG_CONFIG_HOME", xdg.toString())).host(),
            ConfigRequest.discovery(),
            Platform.LINUX);
    assertThat(desktop(linuxXdg).status()).isEqualTo(ConfigFile.Status.READ);
    HostConfig linux =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(desktop(linux).display()).isEqualTo("~/.config/Claude/claude_desktop_config.json");
    assertThat(desktop(linux).status()).isEqualTo(ConfigFile.Status.MISSING);
  }

  private static ConfigFile desktop(HostConfig c) {
    return c.files().stream()
        .filter(f -> f.origin().equals("claude-desktop"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void kiroAgentsAreReadInFileNameOrder(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    Path agents = l.home().resolve(".kiro/agents");
    l.write(agents.resolve("zeta.json"), "{\"mcpServers\": {\"z\": {\"command\": \"npx\"}}}");
    l.write(agents.resolve("Alpha.json"), "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}}}");
    l.write(agents.resolve("beta.json"), "{\"name\": \"beta\"}");
    HostConfig c = discover(l);
    assertThat(c.files())
        .filteredOn(f -> f.origin().equals("kiro-agent"))
        .extracting(ConfigFile::display)
        .containsExactly(
            "~/.kiro/agents/Alpha.json", "~/.kiro/agents/beta.json", "~/.kiro/agents/zeta.json");
    assertThat(names(c)).containsExactly("a", "z");
  }

  @Test
  void missingDiscoveredFilesAreSkippedSilently(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    HostConfig c = discover(l);
    assertThat(c.files()).extracting(ConfigFile::status).containsOnly(ConfigFile.Status.MISSING);
    assertThat(c.files())
        .extracting(ConfigFile::display)
        .contains("~/.kiro/agents/*.json", "~/.claude.json");
    assertThat(c.errors()).isEmpty();
    assertThat(c.servers()).isEmpty();
    assertThat(c.gateway()).isSameAs(GatewaySettings.absent());
    assertThat(c.requireValid()).isSameAs(c);
  }

  @Test
  void profileSelection(@TempDir Path other) throws Exception {
    Layout l = ConfigSamples.empty(other);
    HostConfig none = discover(l);
    assertThat(none.profile().name()).isEqualTo("default");
    assertThat(none.hostProfile()).isEqualTo(HostProfile.empty());
    assertThat(none.profile().reason())
        .isEqualTo("KIROCREW_HOME is unset and ~/.kiro/crew does not exist");
    assertThat(discover(l, "KIROCREW_HOME", "").profile().name()).isEqualTo("default");

    assertThat(discover(l, "KIROCREW_HOME", "/nonexistent/crew").hostProfile())
        .isEqualTo(HostProfile.kirocrew());

    Files.createDirectories(l.home().resolve(".kiro/crew"));
    HostConfig home = discover(l);
    assertThat(home.profile().name()).isEqualTo("kirocrew");
    assertThat(home.profile().reason()).isEqualTo("~/.kiro/crew exists");

    HostConfig forced = load(l, l.env(), ConfigRequest.discovery().profile("default"));
    assertThat(forced.hostProfile()).isEqualTo(HostProfile.empty());
    assertThat(forced.profile().reason()).isEqualTo("--profile default was given");
    assertThat(load(l, l.env(), ConfigRequest.discovery().profile("kirocrew")).profile().name())
        .isEqualTo("kirocrew");

    assertThatThrownBy(() -> load(l, l.env(), ConfigRequest.discovery().profile("crew")))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--profile crew: expected default or kirocrew");
  }
}
