package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileReads;
import dev.kcshare.host.HostContext;
import dev.kcshare.host.config.ConfigSamples.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way a configuration file can be unusable names the file, the JSON pointer or the line and
 * column, and what was expected, in plain words. A discovered file that cannot be used at all is
 * skipped, and an entry that cannot be used is left out on its own; a named file with either is an
 * error.
 */
final class ConfigErrorsTest {
  @TempDir Path root;

  static Stream<Arguments> badEntries() {
    return Stream.of(
        Arguments.of(
            ".cursor/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"args\": [1]}}}",
            "~/.cursor/mcp.json: /mcpServers/x/args/0: expected a string, got a number"),
        Arguments.of(
            ".cursor/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"args\": \"-y pkg\"}}}",
            "~/.cursor/mcp.json: /mcpServers/x/args: expected an array of strings, got a string"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": [\"npx\"]}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/command: expected a string, got an array"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"env\": [\"A=1\"]}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/env: expected an object, got an array"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"env\": {\"RATIO\": 0.5}}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/env/RATIO: expected a string, an integer or"
                + " a boolean, got a non-integer number"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"env\": {\"A/B~C\": null}}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/env/A~1B~0C: expected a string, got null"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"env\": {\"O\": {}}}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/env/O: expected a string, got an object"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"disabled\": \"true\"}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/disabled: expected a boolean, got a string"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"cwd\": 1}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/cwd: expected a string, got a number"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"url\": true}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/url: expected a string, got a boolean"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"type\": 3}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x/type: expected a string, got a number"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\" \": {\"command\": \"npx\"}}}",
            "~/.kiro/settings/mcp.json: /mcpServers/ : a server needs a name that is not blank"),
        Arguments.of(
            ".cursor/mcp.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"  \", \"args\": [\"-y\"]}}}",
            "~/.cursor/mcp.json: /mcpServers/x/command: expected a command, got a blank string"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {\"x\": \"npx -y pkg\"}}",
            "~/.kiro/settings/mcp.json: /mcpServers/x: expected an object, got a string"),
        Arguments.of(
            ".kiro/agents/a.json",
            "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"args\": [null]}}}",
            "~/.kiro/agents/a.json: /mcpServers/x/args/0: expected a string, got null"));
  }

  /**
   * Files that cannot be used at all: not valid JSON, or a top level or section of the wrong shape.
   */
  static Stream<Arguments> badFiles() {
    return Stream.of(
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": [{\"command\": \"npx\"}]}",
            "~/.kiro/settings/mcp.json: /mcpServers: expected an object, got an array"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "[]",
            "~/.kiro/settings/mcp.json: (root): expected an object, got an array"),
        Arguments.of(
            ".claude.json",
            "{\"projects\": []}",
            "~/.claude.json: /projects: expected an object, got an array"),
        Arguments.of(
            ".kiro/crew/config.json",
            "{\"mcp_gateway\": \"on\"}",
            "~/.kiro/crew/config.json: /mcp_gateway: expected an object, got a string"),
        Arguments.of(
            ".kiro/crew/config.json",
            "{\"mcp_gateway\": {\"socket_path\": false}}",
            "~/.kiro/crew/config.json: /mcp_gateway/socket_path: expected a string or null, got a"
                + " boolean"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "{\"mcpServers\": {} /* unterminated",
            "~/.kiro/settings/mcp.json:1:19: not valid JSON: a /* comment that is never closed"),
        Arguments.of(
            ".kiro/settings/mcp.json",
            "",
            "~/.kiro/settings/mcp.json: not valid JSON: the file is empty; expected a JSON object"),
        Arguments.of(
            ".cursor/mcp.json",
            "{\"mcpServers\": {\"a\": {\"command\": \"x\",, \"args\": []}}}",
            "~/.cursor/mcp.json:1:38: not valid JSON: expected a member name in double quotes,"
                + " found ','"),
        Arguments.of(
            ".cursor/mcp.json",
            "{\"mcpServers\": {\"a\": {\"command\": \"x\"",
            "~/.cursor/mcp.json:1:37: not valid JSON: the file ends inside an object opened at"
                + " line 1; expected '}'"),
        Arguments.of(
            ".cursor/mcp.json",
            "{\"mcpServers\": {\"a\": {\"command\": \"x\" \"args\": []}}}",
            "~/.cursor/mcp.json:1:38: not valid JSON: expected ',' or '}' after a member, found"
                + " a double quote"),
        Arguments.of(
            ".cursor/mcp.json",
            "{\"mcpServers\": {\"a\": {\"command\": npx}}}",
            "~/.cursor/mcp.json:1:34: not valid JSON: expected a value (a string in double"
                + " quotes, a number, an object, an array, true, false or null)"));
  }

  /** Words of a parser's internals that must never reach an operator. */
  private static final List<String> INTERNALS =
      List.of("Source", "REDACTED", "StreamReadFeature", "(code ", "marker", "Exception", "\\\"");

  @ParameterizedTest(name = "{2}")
  @MethodSource("badFiles")
  void aBadDiscoveredFileIsSkippedNamingFilePointerAndExpectation(
      String relative, String content, String message) {
    Layout l = ConfigSamples.empty(root);
    l.write(l.home().resolve(relative), content);
    l.write(
        l.home().resolve(".lmstudio/mcp.json"),
        "{\"mcpServers\": {\"other\": {\"command\": \"npx\"}}}");
    HostConfig c =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(c.skipped()).containsExactly(message);
    assertThat(c.errors()).isEmpty();
    assertThat(c.requireValid()).isSameAs(c);
    assertThat(c.files()).filteredOn(f -> f.status() == ConfigFile.Status.SKIPPED).hasSize(1);
    assertThat(c.unusableEntries()).isEmpty();
    assertThat(c.servers()).extracting(ConfiguredServer::name).containsExactly("other");
    for (String word : INTERNALS) {
      assertThat(message).doesNotContain(word);
    }
  }

  @ParameterizedTest(name = "{2}")
  @MethodSource("badEntries")
  void aBadEntryOfADiscoveredFileIsLeftOutOnItsOwnNamingFilePointerAndExpectation(
      String relative, String content, String message) {
    Layout l = ConfigSamples.empty(root);
    l.write(l.home().resolve(relative), content);
    l.write(
        l.home().resolve(".lmstudio/mcp.json"),
        "{\"mcpServers\": {\"other\": {\"command\": \"npx\"}}}");
    HostConfig c =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(c.skipped()).containsExactly(message);
    assertThat(c.errors()).isEmpty();
    assertThat(c.requireValid()).isSameAs(c);
    assertThat(c.files()).noneMatch(f -> f.status() == ConfigFile.Status.SKIPPED);
    ConfigFile file =
        c.files().stream().filter(f -> f.display().equals("~/" + relative)).findFirst().get();
    assertThat(file.status()).isEqualTo(ConfigFile.Status.READ);
    assertThat(file.problems()).isEmpty();
    assertThat(file.unusableEntries())
        .singleElement()
        .satisfies(
            u -> {
              assertThat(u.describe()).isEqualTo(message);
              assertThat(u.file()).isEqualTo("~/" + relative);
              assertThat(message).contains(": " + u.pointer() + ": " + u.problem());
            });
    assertThat(c.servers()).extracting(ConfiguredServer::name).containsExactly("other");
    for (String word : INTERNALS) {
      assertThat(message).doesNotContain(word);
    }
  }

  @ParameterizedTest(name = "{2}")
  @MethodSource({"badEntries", "badFiles"})
  void theSameFileNamedWithConfigIsAnError(String relative, String content, String message) {
    Layout l = ConfigSamples.empty(root);
    Path file = l.write(l.home().resolve(relative), content);
    HostConfig c =
        HostConfigLoader.load(
            l.context(l.env()).host(),
            ConfigRequest.files(List.of(file.toString())),
            Platform.LINUX);
    String named = file + message.substring(("~/" + relative).length());
    assertThat(c.errors()).containsExactly(named);
    assertThat(c.skipped()).isEmpty();
    assertThatThrownBy(c::requireValid).isInstanceOf(BadInputException.class).hasMessage(named);
  }

  @Test
  void aSyntaxErrorIsLocatedButNeverQuotesTheOffendingToken() {
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".kiro/settings/mcp.json"),
        "{\n  \"mcpServers\": {\n    \"x\": {\"env\": {\"TOKEN\": sk-unquoted-secret}}\n  }\n}");
    HostConfig c =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(c.skipped()).hasSize(1);
    assertThat(c.skipped().get(0))
        .startsWith("~/.kiro/settings/mcp.json:3:")
        .contains(": not valid JSON: expected a value")
        .doesNotContain("sk-unquoted")
        .doesNotContain("secret");
  }

  @Test
  void aFileWithBadEntriesKeepsItsGoodOnesAndListsEveryBadOne() {
    // Before issue #30 a file with a bad entry was skipped whole: none of its servers counted.
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}, \"b\": {\"args\": [2]},"
            + " \"c\": {\"command\": 1}}}");
    HostConfig c =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(c.skipped())
        .containsExactly(
            "~/.cursor/mcp.json: /mcpServers/b/args/0: expected a string, got a number",
            "~/.cursor/mcp.json: /mcpServers/c/command: expected a string, got a number");
    assertThat(c.servers()).extracting(ConfiguredServer::name).containsExactly("a");
    assertThat(c.unusableEntries())
        .extracting(u -> u.server() + " " + u.pointer())
        .containsExactly("b /mcpServers/b/args/0", "c /mcpServers/c/command");
    assertThat(c.errors()).isEmpty();
  }

  @Test
  void aSkippedKiroCrewConfigLeavesNoGatewaySettingsAndIsRequiredWhereItMatters() {
    Layout l = ConfigSamples.empty(root);
    l.write(l.home().resolve(".kiro/crew/config.json"), "{\"mcp_gateway\": {\"enabled\": true,,}}");
    HostConfig c =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(c.gateway().present()).isFalse();
    assertThat(c.requireValid()).isSameAs(c);
    assertThatThrownBy(c::requireGatewaySettings)
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("~/.kiro/crew/config.json:1:")
        .hasMessageContaining("not valid JSON: ")
        .hasMessageContaining("the Kiro Crew configuration is needed for this command");
  }

  @Test
  void namedFilesThatAreMissingOrNotMcpConfigsAreErrors() {
    Layout l = ConfigSamples.empty(root);
    l.write(l.workspace().resolve("other.json"), "{\"name\": \"not an MCP config\"}");
    HostConfig c =
        HostConfigLoader.load(
            l.context(l.env()).host(),
            ConfigRequest.files(List.of("nope.json", "other.json", ".")),
            Platform.LINUX);
    assertThat(c.errors())
        .containsExactly(
            "nope.json: no such file",
            "other.json: (root): expected mcpServers, servers, mcp_servers, context_servers,"
                + " extensions or mcp (a client's servers) or mcp_gateway (Kiro Crew); found none"
                + " of them",
            ".: is a directory, expected a JSON file");
  }

  @Test
  void anUnreadableDiscoveredFileIsSkipped() throws Exception {
    Layout l = ConfigSamples.empty(root);
    Path f = l.write(l.workspace().resolve(".mcp.json"), "{\"mcpServers\": {}}");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("---------"));
    assumeFalse(Files.isReadable(f), "running with privileges that ignore file modes");
    HostConfig c =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(c.skipped()).containsExactly(".mcp.json: cannot read: permission denied");
  }

  @Test
  void invalidUtf8IsSkipped() throws Exception {
    Layout l = ConfigSamples.empty(root);
    Path f = l.home().resolve(".cursor/mcp.json");
    Files.createDirectories(f.getParent());
    Files.write(f, new byte[] {'{', '"', (byte) 0xff, '"', ':', '1', '}'});
    HostConfig c =
        HostConfigLoader.load(l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
    assertThat(c.skipped())
        .containsExactly("~/.cursor/mcp.json: not valid JSON: not valid UTF-8 text");
  }

  /**
   * One context reads the Kiro Crew configuration once: where the records are, the host profile and
   * the gateway settings all come from that read, even when the file changes in between; a new
   * context reads it as it is now.
   */
  @Test
  void oneContextReadsTheKiroCrewConfigurationOnce() {
    Layout l = ConfigSamples.empty(root);
    Path cfg =
        l.write(
            l.home().resolve(".kiro/crew/config.json"),
            "{\"mcp_gateway\": {\"stub_overrides\": {\"a\": true}}}");
    HostContext once = new HostContext(l.env(), l.workspace(), Clock.systemUTC());
    assertThat(KiroCrewConfig.socketPath(once.reads(), cfg)).isNull();
    l.write(cfg, "{\"mcp_gateway\": {\"socket_path\": \"/run/b.sock\"}}");

    HostConfig sameRead = HostConfigLoader.load(once, ConfigRequest.discovery(), Platform.LINUX);
    assertThat(sameRead.profile().name())
        .as("~/.kiro/crew held only what kcshare writes when it was read")
        .isEqualTo("default");
    assertThat(sameRead.gateway().socketPath()).isNull();

    HostContext now = new HostContext(l.env(), l.workspace(), Clock.systemUTC());
    HostConfig newRead = HostConfigLoader.load(now, ConfigRequest.discovery(), Platform.LINUX);
    assertThat(newRead.profile().name()).isEqualTo("kirocrew");
    assertThat(newRead.gateway().socketPath()).isEqualTo("/run/b.sock");
    assertThat(KiroCrewConfig.socketPath(now.reads(), cfg)).isEqualTo("/run/b.sock");
  }

  @Test
  void kiroCrewConfigSocketPathKeepsItsBehaviour() {
    Layout l = ConfigSamples.empty(root);
    Path cfg = l.home().resolve(".kiro/crew/config.json");
    assertThat(KiroCrewConfig.socketPath(new FileReads(), cfg)).as("missing file").isNull();
    l.write(cfg, "{\n // comment\n \"mcp_gateway\": {\"socket_path\": \"/run/g.sock\",},\n}");
    assertThat(KiroCrewConfig.socketPath(new FileReads(), cfg)).isEqualTo("/run/g.sock");
    l.write(cfg, "{\"mcp_gateway\": null}");
    assertThat(KiroCrewConfig.socketPath(new FileReads(), cfg)).isNull();
    l.write(cfg, "{\"mcp_gateway\": {\"socket_path\": 1}}");
    assertThatThrownBy(() -> KiroCrewConfig.socketPath(new FileReads(), cfg))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith(
            cfg + ": /mcp_gateway/socket_path: expected a string or null, got a number")
        .hasMessageContaining("--records-dir");
    l.write(cfg, "{");
    assertThatThrownBy(() -> KiroCrewConfig.socketPath(new FileReads(), cfg))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith(cfg + ":1:2: not valid JSON: the file ends inside an object");
  }
}
