package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.UnusableEntry;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.ConfigSamples.Layout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One bad entry never drops its file (issue #30): an entry kcshare cannot use is left out on its
 * own, named with its file, pointer and why, and every other entry of the file is read, in every
 * client family. Only a file that is not valid JSON, TOML or YAML, or whose top level or server
 * section has the wrong shape, is skipped whole.
 */
final class HostConfigLoaderEntriesTest {
  @TempDir Path root;

  private static HostConfig discover(Layout l, String... env) {
    return HostConfigLoader.load(
        l.context(l.env(env)).host(), ConfigRequest.discovery(), Platform.LINUX);
  }

  private static List<String> names(HostConfig c) {
    return c.servers().stream().map(ConfiguredServer::name).toList();
  }

  private static ConfigFile file(HostConfig c, String display) {
    return c.files().stream().filter(f -> f.display().equals(display)).findFirst().orElseThrow();
  }

  /** The file was read: its good entries count, the bad one is listed alone. */
  private static void readWithOneUnusable(
      HostConfig c, String display, String server, String pointer, String problem) {
    ConfigFile f = file(c, display);
    assertThat(f.status()).as(display).isEqualTo(ConfigFile.Status.READ);
    assertThat(f.problems()).isEmpty();
    assertThat(f.unusableEntries())
        .containsExactly(UnusableEntry.of(server, display, pointer, problem));
    assertThat(c.skipped()).containsExactly(display + ": " + pointer + ": " + problem);
    assertThat(c.errors()).isEmpty();
    assertThat(c.requireValid()).isSameAs(c);
  }

  @Test
  void aOneMcpFileWithABlankCommandKeepsItsOtherServers() {
    Layout l = ConfigSamples.empty(root);
    Path config = root.resolve("gateway/1mcp.json");
    l.write(
        config,
        "{\"mcpServers\": {\"one\": {\"command\": \"npx\", \"args\": [\"-y\", \"one-mcp\"]},"
            + " \"blank\": {\"command\": \"\"},"
            + " \"two\": {\"command\": \"npx\", \"args\": [\"-y\", \"two-mcp\"]}}}");
    HostConfig c = discover(l, "ONE_MCP_CONFIG", config.toString());
    assertThat(names(c)).containsExactly("one", "two");
    readWithOneUnusable(
        c,
        config.toString(),
        "blank",
        "/mcpServers/blank/command",
        "expected a command, got a blank string");
    assertThat(file(c, config.toString()).servers()).isEqualTo(2);
    assertThat(file(c, config.toString()).formats()).containsExactly("1mcp");
  }

  @Test
  void aOneMcpFileInItsDefaultPlaceWithAnEnvOfTheWrongType() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".config/1mcp/mcp.json"),
        "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}, \"b\": {\"command\": \"npx\","
            + " \"env\": \"K=v\"}, \"c\": {\"command\": \"npx\"}}}");
    HostConfig c = discover(l);
    assertThat(names(c)).containsExactly("a", "c");
    readWithOneUnusable(
        c,
        "~/.config/1mcp/mcp.json",
        "b",
        "/mcpServers/b/env",
        "expected an object or an array of KEY=VALUE strings, got a string");
  }

  @Test
  void claudeDesktopAndCursorFilesKeepTheirGoodEntries() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".config/Claude/claude_desktop_config.json"),
        "{\"mcpServers\": {\"desk\": {\"command\": \"npx\"}, \"bad\": \"npx -y pkg\"}}");
    l.write(
        l.home().resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"cur\": {\"command\": \"npx\"}, \"odd\": {\"command\": \"npx\","
            + " \"disabled\": \"no\"}}}");
    HostConfig c = discover(l);
    assertThat(names(c)).containsExactly("desk", "cur");
    assertThat(file(c, "~/.config/Claude/claude_desktop_config.json").unusableEntries())
        .containsExactly(
            UnusableEntry.of(
                "bad",
                "~/.config/Claude/claude_desktop_config.json",
                "/mcpServers/bad",
                "expected an object, got a string"));
    assertThat(file(c, "~/.cursor/mcp.json").unusableEntries())
        .extracting(UnusableEntry::server, UnusableEntry::pointer)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("odd", "/mcpServers/odd/disabled"));
    assertThat(c.files()).noneMatch(f -> f.status() == ConfigFile.Status.SKIPPED);
    assertThat(c.skipped())
        .containsExactly(
            "~/.config/Claude/claude_desktop_config.json: /mcpServers/bad: expected an object, got"
                + " a string",
            "~/.cursor/mcp.json: /mcpServers/odd/disabled: expected a boolean, got a string");
  }

  @Test
  void aCodexTomlEntryWithArgsOfTheWrongType() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".codex/config.toml"),
        "[mcp_servers.good]\ncommand = \"npx\"\nargs = [\"-y\", \"good-mcp\"]\n\n"
            + "[mcp_servers.bad]\ncommand = \"npx\"\nargs = \"-y bad-mcp\"\n\n"
            + "[mcp_servers.other]\ncommand = \"npx\"\n");
    HostConfig c = discover(l);
    assertThat(names(c)).containsExactly("good", "other");
    readWithOneUnusable(
        c,
        "~/.codex/config.toml",
        "bad",
        "/mcp_servers/bad/args",
        "expected an array of strings, got a string");
  }

  @Test
  void aContinueListItemIsReportedUnderItsName() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".continue/config.yaml"),
        "mcpServers:\n"
            + "  - name: first\n    command: npx\n"
            + "  - name: broken\n    command: npx\n    args: 5\n"
            + "  - name: third\n    command: npx\n");
    HostConfig c = discover(l);
    assertThat(names(c)).containsExactly("first", "third");
    readWithOneUnusable(
        c,
        "~/.continue/config.yaml",
        "broken",
        "/mcpServers/1/args",
        "expected an array of strings, got a number");
  }

  @Test
  void aContinueListItemWithoutAStringNameHasNoName() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".continue/config.yaml"),
        "mcpServers:\n  - name: 7\n    command: npx\n  - name: fine\n    command: npx\n");
    HostConfig c = discover(l);
    assertThat(names(c)).containsExactly("fine");
    readWithOneUnusable(
        c, "~/.continue/config.yaml", "", "/mcpServers/0/name", "expected a string, got a number");
  }

  @Test
  void aGooseExtensionIsReportedUnderTheNameGooseGivesIt() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".config/goose/config.yaml"),
        "extensions:\n"
            + "  good:\n    enabled: true\n    type: stdio\n    name: good\n    cmd: npx\n"
            + "    args: []\n"
            + "  key:\n    enabled: true\n    type: stdio\n    name: shown-name\n    cmd: npx\n"
            + "    args: []\n    envs: [A]\n"
            + "  later:\n    enabled: true\n    type: stdio\n    cmd: npx\n    args: []\n");
    HostConfig c = discover(l);
    assertThat(names(c)).containsExactly("good", "later");
    readWithOneUnusable(
        c,
        "~/.config/goose/config.yaml",
        "shown-name",
        "/extensions/key/envs",
        "expected an object, got an array");
  }

  @Test
  void aBlankNameIsLeftOutAlone() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".kiro/settings/mcp.json"),
        "{\"mcpServers\": {\" \": {\"command\": \"npx\"}, \"named\": {\"command\": \"npx\"}}}");
    HostConfig c = discover(l);
    assertThat(names(c)).containsExactly("named");
    readWithOneUnusable(
        c,
        "~/.kiro/settings/mcp.json",
        " ",
        "/mcpServers/ ",
        "a server needs a name that is not blank");
  }

  @Test
  void aFileThatIsNotValidJsonIsStillSkippedWhole() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}, \"b\": {\"command\": \"\"},}");
    l.write(
        l.home().resolve(".config/1mcp/mcp.json"),
        "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}}, \"mcpTemplates\": []}");
    HostConfig c = discover(l);
    assertThat(names(c)).isEmpty();
    assertThat(file(c, "~/.cursor/mcp.json").status()).isEqualTo(ConfigFile.Status.SKIPPED);
    assertThat(file(c, "~/.config/1mcp/mcp.json").status())
        .as("a server section of the wrong shape")
        .isEqualTo(ConfigFile.Status.SKIPPED);
    assertThat(c.unusableEntries()).isEmpty();
    assertThat(c.skipped())
        .hasSize(2)
        .anySatisfy(
            s -> assertThat(s).startsWith("~/.cursor/mcp.json:1:").contains("not valid JSON"))
        .contains("~/.config/1mcp/mcp.json: /mcpTemplates: expected an object, got an array");
  }

  @Test
  void kiroCrewGatewaySettingsOfTheWrongTypeStillSkipTheFile() {
    Layout l = ConfigSamples.empty(root);
    l.write(l.home().resolve(".kiro/crew/config.json"), "{\"mcp_gateway\": {\"socket_path\": 1}}");
    HostConfig c = discover(l);
    ConfigFile crew = file(c, "~/.kiro/crew/config.json");
    assertThat(crew.status()).isEqualTo(ConfigFile.Status.SKIPPED);
    assertThat(crew.unusableEntries()).isEmpty();
    assertThat(c.gateway().present()).isFalse();
    assertThatThrownBy(c::requireGatewaySettings).isInstanceOf(BadInputException.class);
  }

  @Test
  void aNamedFileWithOneBadEntryIsAnErrorThatStillListsItsGoodEntries() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.workspace().resolve("team.json"),
        "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}, \"b\": {\"command\": \"\"},"
            + " \"c\": {\"command\": \"npx\"}}}");
    HostConfig c =
        HostConfigLoader.load(
            l.context(l.env()).host(), ConfigRequest.files(List.of("team.json")), Platform.LINUX);
    ConfigFile team = file(c, "team.json");
    assertThat(team.status()).isEqualTo(ConfigFile.Status.ERROR);
    assertThat(team.servers()).isEqualTo(2);
    assertThat(team.problems())
        .containsExactly("/mcpServers/b/command: expected a command, got a blank string");
    assertThat(team.unusableEntries())
        .containsExactly(
            UnusableEntry.of(
                "b",
                "team.json",
                "/mcpServers/b/command",
                "expected a command, got a blank string"));
    assertThat(names(c)).containsExactly("a", "c");
    assertThat(c.errors())
        .containsExactly(
            "team.json: /mcpServers/b/command: expected a command, got a blank string");
    assertThat(c.skipped()).isEmpty();
    assertThatThrownBy(c::requireValid)
        .isInstanceOf(BadInputException.class)
        .hasMessage("team.json: /mcpServers/b/command: expected a command, got a blank string");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> files = (List<Map<String, Object>>) c.toJson().get("files");
    assertThat(files.get(0))
        .containsEntry("status", "error")
        .containsEntry(
            "unusableEntries",
            List.of(
                Map.of(
                    "server",
                    "b",
                    "pointer",
                    "/mcpServers/b/command",
                    "problem",
                    "expected a command, got a blank string")));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> servers = (List<Map<String, Object>>) c.toJson().get("servers");
    assertThat(servers).extracting(s -> s.get("name")).containsExactly("a", "c");
  }

  @Test
  void aNameOnlyAnUnusableEntryHasIsSaidToBeUnusable() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"good\": {\"command\": \"npx\"}, \"bad\": {\"command\": \"  \"}}}");
    HostConfig c = discover(l);
    assertThat(c.unknownServer("bad"))
        .isEqualTo(
            "\"bad\": the entry at ~/.cursor/mcp.json /mcpServers/bad/command cannot be used:"
                + " expected a command, got a blank string");
    assertThatThrownBy(() -> c.require(List.of("good", "bad")))
        .isInstanceOf(BadInputException.class)
        .hasMessage(c.unknownServer("bad"));
    assertThat(c.unknownServer("godo")).startsWith("unknown server \"godo\"");
  }
}
