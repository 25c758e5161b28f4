package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.UnresolvedVariable;
import dev.kcshare.host.config.ConfigSamples.Layout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 1MCP's and mcphub's files read as those gateways launch them (docs/config.md, "What the gateway
 * launches"), tested with the gateways' own examples (src/test/resources/gateways/README.md) and
 * vectors taken from their source.
 */
final class GatewayLaunchTest {
  @TempDir Path root;

  private static String resource(String name) {
    try (InputStream in = GatewayLaunchTest.class.getResourceAsStream("/gateways/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Reads {@code text} as the named file {@code fileName} with kcshare's environment {@code env}.
   */
  private HostConfig named(String fileName, String text, String... env) {
    Layout l = ConfigSamples.empty(root);
    Path file = l.write(l.workspace().resolve(fileName), text);
    return HostConfigLoader.load(
        l.context(l.env(env)).host(),
        ConfigRequest.files(List.of(file.toString())),
        Platform.LINUX);
  }

  private static ConfiguredDefinition def(HostConfig c, String name) {
    return c.serverNamed(name).first();
  }

  private static List<String> references(ConfiguredDefinition d) {
    return d.unresolved().stream().map(UnresolvedVariable::reference).toList();
  }

  @Test
  void oneMcpsOwnExampleIsReadWithItsDefaultsAndSubstitution() {
    HostConfig c =
        named("mcp.json", resource("1mcp/mcp.json.example"), "GITHUB_TOKEN", "ghp-from-env");
    ConfigFile f = c.files().get(0);
    assertThat(f.formats()).containsExactly("1mcp");
    assertThat(f.status()).isEqualTo(ConfigFile.Status.READ);
    assertThat(f.servers()).isEqualTo(8);
    ConfiguredDefinition github = def(c, "github");
    // serverDefaults.env merged in; the server's own ${GITHUB_TOKEN} substituted.
    assertThat(github.definition().env())
        .containsEntry("GITHUB_PERSONAL_ACCESS_TOKEN", "ghp-from-env")
        .containsEntry("HTTP_PROXY", "${HTTP_PROXY}");
    assertThat(github.envOrigin("HTTP_PROXY")).isEqualTo("serverDefaults.env");
    assertThat(github.envOrigin("GITHUB_PERSONAL_ACCESS_TOKEN")).isEqualTo("env");
    // serverDefaults.inheritParentEnv: true, no filter: the whole environment.
    assertThat(github.definition().inheritedEnv()).isNull();
    assertThat(references(github)).containsExactly("${HTTP_PROXY}");
    assertThat(references(def(c, "postgres"))).contains("${DATABASE_URL}");
    // Its templates use the old single-brace syntax, which today's renderer passes through, and a
    // disabled string that renders to itself: enabled.
    ConfiguredDefinition conditional = def(c, "conditional-server");
    assertThat(conditional.definition().disabled()).isFalse();
    assertThat(conditional.identity()).isNotNull();
  }

  @Test
  void aListFormEnvIsReadAndItsBareNamesComeFromTheEnvironment() {
    HostConfig c =
        named(
            "mcp.json",
            resource("1mcp/docs-reference__mcp-servers__04.json"),
            "SECRET_KEY",
            "sk-value");
    ConfigFile f = c.files().get(0);
    assertThat(f.status()).isEqualTo(ConfigFile.Status.READ);
    ConfiguredDefinition d = def(c, "array-env-server");
    assertThat(d.definition().env())
        .containsEntry("NODE_ENV", "production")
        .containsEntry("API_KEY", "sk-value")
        .containsKey("PATH");
    assertThat(d.definition().env().get("PATH")).isNotEmpty();
    assertThat(d.envOrigin("PATH")).isEqualTo("env (a bare name: kcshare's environment)");
    // No inheritParentEnv: only the SDK's defaults are inherited.
    assertThat(d.definition().inheritedEnv())
        .containsExactly("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER");
    assertThat(d.identity()).isNotNull();
  }

  @Test
  void inheritParentEnvWithAFilterPassesWhatTheFilterAllows() {
    HostConfig c =
        named(
            "mcp.json",
            resource("1mcp/docs-reference__mcp-servers__03.json"),
            "NODE_OPTIONS",
            "--x",
            "SECRET_TOKEN",
            "s",
            "OTHER",
            "o",
            "MCP_API_KEY",
            "k");
    ConfiguredDefinition d = def(c, "enhanced-server");
    assertThat(d.definition().inheritedEnv())
        .contains("HOME", "PATH", "NODE_OPTIONS", "USER")
        .doesNotContain("SECRET_TOKEN", "OTHER", "MCP_API_KEY");
    // An explicit env entry may reference a variable the filter leaves out.
    assertThat(d.definition().env()).containsEntry("API_KEY", "k");
  }

  @Test
  void serverDefaultsEnvCountsForEveryServer() {
    HostConfig c =
        named(
            "mcp.json",
            resource("1mcp/docs-reference__mcp-servers__02.json"),
            "GLOBAL_API_KEY",
            "g");
    ConfiguredDefinition fs = def(c, "filesystem");
    assertThat(fs.definition().env()).containsEntry("API_KEY", "g");
    assertThat(c.serverNamed("filesystem").declaredEnvNames()).contains("API_KEY", "HTTP_PROXY");
    assertThat(def(c, "remote-api").isStdio()).isFalse();
  }

  @Test
  void referencesInTheCommandAndArgumentsAreSubstitutedAndUnsetOnesStay() {
    HostConfig c =
        named(
            "1mcp/mcp.json",
            resource("1mcp/docs-reference__mcp-servers__06.json"),
            "SERVER_COMMAND",
            "node",
            "SECRET_API_KEY",
            "a");
    ConfiguredDefinition d = def(c, "dynamic-server");
    assertThat(d.definition().command()).isEqualTo("node");
    assertThat(d.definition().args()).containsExactly("--port", "${SERVER_PORT}");
    assertThat(references(d))
        .containsExactlyInAnyOrder("${SERVER_PORT}", "${DB_CONNECTION_STRING}");
  }

  @Test
  void aTemplateWhoseDisabledIsRenderedPerClientIsEnabledWhenItsLaunchIsFixed() {
    String text =
        """
        {"mcpTemplates": {
          "fixed": {"command": "node", "args": ["s.js"],
                    "disabled": "{{#if (eq project.environment 'production')}}true{{else}}false{{/if}}"}
        }}
        """;
    HostConfig c = named("mcp.json", text);
    ConfiguredDefinition d = def(c, "fixed");
    assertThat(d.definition().disabled()).isFalse();
    assertThat(d.identity()).isNotNull();
    assertThat(c.files().get(0).warnings())
        .anyMatch(w -> w.startsWith("/mcpTemplates/fixed/disabled: rendered for each client"));
    // The docs' own example also renders its arguments per client: never spawned.
    HostConfig docs =
        named("mcp.json", resource("1mcp/docs-reference__mcp-templates__syntax__02.json"));
    assertThat(def(docs, "client-specific").identity()).isNull();
  }

  static Stream<Arguments> disabledValues() {
    // handlebarsTemplateRenderer.ts stringToBoolean for templates; `if (config.disabled)` for
    // static servers.
    return Stream.of(
        Arguments.of("\"false\"", true, false),
        Arguments.of("\"0\"", true, false),
        Arguments.of("\"no\"", true, false),
        Arguments.of("\"\"", false, false),
        Arguments.of("\"true\"", true, true),
        Arguments.of("\" YES \"", true, true),
        Arguments.of("\"1\"", true, true),
        Arguments.of("true", true, true),
        Arguments.of("false", false, false));
  }

  @ParameterizedTest
  @MethodSource("disabledValues")
  void disabledIsReadAsOneMcpReadsIt(String value, boolean staticOff, boolean templateOff) {
    String text =
        """
        {"mcpServers": {"s": {"command": "node", "disabled": %s}},
         "mcpTemplates": {"t": {"command": "node", "disabled": %s}}}
        """
            .formatted(value, value);
    HostConfig c = named("mcp.json", text);
    assertThat(def(c, "s").definition().disabled()).isEqualTo(staticOff);
    assertThat(def(c, "t").definition().disabled()).isEqualTo(templateOff);
  }

  static Stream<Arguments> envFilters() {
    // envProcessor.ts matchesEnvPattern: exact or trailing *, a matching ! always wins, allow-list
    // when any pattern allows.
    return Stream.of(
        Arguments.of(List.of("NODE_*"), "NODE_ENV", true),
        Arguments.of(List.of("NODE_*"), "PATH_X", false),
        Arguments.of(List.of("!SECRET_*"), "ANY", true),
        Arguments.of(List.of("!SECRET_*"), "SECRET_A", false),
        Arguments.of(List.of("!SECRET_*", "SECRET_*"), "SECRET_A", false),
        Arguments.of(List.of("*_KEY"), "API_KEY", false),
        Arguments.of(List.of("API_KEY"), "API_KEY", true),
        Arguments.of(List.of(), "ANY", true));
  }

  @ParameterizedTest
  @MethodSource("envFilters")
  void envFilterPatternsMatchAsOneMcpMatchesThem(List<String> filter, String key, boolean kept) {
    assertThat(OneMcpClient.Launch.matches(key, filter)).isEqualTo(kept);
  }

  @Test
  void envValuesSeeTheirOwnNameAsTheInheritedValueAndEarlierNamesSubstituted() {
    String text =
        """
        {"mcpServers": {"s": {"command": "node",
          "env": {"A": "${PATH}:/x", "PATH": "/y:${PATH}", "B": "$A-b", "C": "${ LATER }", "LATER": "l"}}}}
        """;
    HostConfig c = named("1mcp/mcp.json", text);
    Map<String, String> env = def(c, "s").definition().env();
    // A later name is seen as written, so A takes PATH's text before it is substituted; PATH's own
    // reference is the inherited value.
    assertThat(env.get("A")).isEqualTo("/y:${PATH}:/x");
    assertThat(env.get("PATH")).startsWith("/y:").doesNotContain("${");
    String path = env.get("PATH").substring("/y:".length());
    assertThat(env.get("B")).isEqualTo(env.get("A") + "-b");
    assertThat(env.get("C")).isEqualTo("l");
    assertThat(path).isNotEmpty();
  }

  @Test
  void oneBadEntryLeavesTheOthersAndAListEnvIsNeverAWrongType() {
    String text =
        """
        {"mcpServers": {
          "good": {"command": "node", "env": ["A=1"]},
          "bad": {"command": "node", "env": ["A=1", 2]}
        }}
        """;
    HostConfig c = named("mcp.json", text);
    assertThat(def(c, "good").definition().env()).containsEntry("A", "1");
    assertThat(c.files().get(0).problems())
        .containsExactly("/mcpServers/bad/env/1: expected a string, got a number");
  }

  @Test
  void mcphubsOwnExampleIsDetectedAndRead() {
    HostConfig c = named("mcp_settings.json", resource("mcphub/mcp_settings.json"));
    ConfigFile f = c.files().get(0);
    assertThat(f.formats()).containsExactly("mcphub");
    assertThat(f.servers()).isEqualTo(4);
    assertThat(def(c, "slack").definition().env()).containsEntry("SLACK_TEAM_ID", "your-team-id");
    assertThat(def(c, "fetch").definition().inheritedEnv()).isNull();
  }

  @Test
  void mcphubExpandsReferencesToEmptyTrimsAndKeepsItsOwnPath() {
    String text =
        """
        {"mcpServers": {
          "s": {"command": "node", "args": [" ${DIR}/s.js ", "$lower", "$UNSET_X"],
                "env": {"PATH": "/mine", "T": "${TOKEN}", "U": "${NOPE}"},
                "enabled": "false"},
          "owned": {"command": "node", "args": ["${DIR}"], "owner": "bob"}
        },
         "users": [{"username": "bob", "isAdmin": false}]}
        """;
    HostConfig c = named("mcp_settings.json", text, "DIR", "/srv", "TOKEN", "t0k");
    ConfiguredDefinition s = def(c, "s");
    assertThat(s.definition().args()).containsExactly("/srv/s.js", "$lower", "");
    assertThat(s.definition().env()).containsEntry("T", "t0k").containsEntry("U", "");
    assertThat(s.definition().env()).doesNotContainKey("PATH");
    assertThat(s.definition().disabled()).isFalse();
    assertThat(references(s)).contains("$UNSET_X", "${NOPE}");
    // A server owned by a user who is not an administrator sees none of mcphub's environment.
    ConfiguredDefinition owned = def(c, "owned");
    assertThat(owned.definition().args()).containsExactly("");
    assertThat(owned.definition().inheritedEnv())
        .containsExactly("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER");
  }
}
