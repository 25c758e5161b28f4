package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.host.config.ConfigSamples.Layout;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * mcphub's {@code mcp_settings.json} and 1MCP's {@code mcp.json} as discovery sources: where each
 * is found, how its entries are read, how each disables a server, and a 1MCP template whose launch
 * holds variables, which is never given an identity and never spawned.
 */
final class GatewayConfigsTest {
  @TempDir Path root;

  private static final String MCPHUB =
      """
      {
        "mcpServers": {
          "playwright": {"command": "npx", "args": ["@playwright/mcp@latest", "--headless"]},
          "amap": {
            "type": "stdio",
            "command": "npx",
            "args": ["-y", "@amap/amap-maps-mcp-server"],
            "env": {"AMAP_MAPS_API_KEY": "hub-sample-value"}
          },
          "off": {"command": "npx", "args": ["-y", "off"], "enabled": false},
          "remote": {"type": "streamable-http", "url": "https://example.invalid/mcp"}
        },
        "users": [{"username": "admin", "isAdmin": true}]
      }
      """;

  private static final String ONE_MCP =
      """
      {
        "mcpServers": {
          "filesystem": {"command": "npx", "args": ["-y", "fs", "/tmp"], "tags": ["files"]},
          "off": {"command": "npx", "args": ["-y", "off"], "disabled": true},
          "maybe": {"command": "npx", "args": ["-y", "maybe"], "disabled": "{{flag}}"}
        },
        "mcpTemplates": {
          "project": {
            "command": "npx",
            "args": ["-y", "serena", "--root", "{{project.path}}"],
            "env": {"PROJECT": "name-{{project.name}}"},
            "template": {"shareable": true}
          },
          "plain": {"command": "npx", "args": ["-y", "plain"], "template": {"perClient": true}}
        }
      }
      """;

  private HostConfig load(Layout l, Map<String, String> env) {
    return HostConfigLoader.load(l.context(env).host(), ConfigRequest.discovery(), Platform.LINUX);
  }

  private static ConfigFile file(HostConfig c, String origin) {
    return c.files().stream().filter(f -> f.origin().equals(origin)).findFirst().orElseThrow();
  }

  @Test
  void mcphubSettingsInTheWorkingDirectoryAreReadWithEnabledFalseDisabling() {
    Layout l = ConfigSamples.empty(root);
    l.write(l.workspace().resolve("mcp_settings.json"), MCPHUB);
    HostConfig c = load(l, l.env());
    ConfigFile f = file(c, "mcphub");
    assertThat(f.status()).isEqualTo(ConfigFile.Status.READ);
    assertThat(f.formats()).containsExactly(ConfigFormat.MCPHUB.id());
    assertThat(f.servers()).isEqualTo(4);
    ConfiguredDefinition pw = c.serverNamed("playwright").first();
    assertThat(pw.definition().command()).isEqualTo("npx");
    assertThat(pw.definition().args()).containsExactly("@playwright/mcp@latest", "--headless");
    assertThat(pw.isStdio()).isTrue();
    assertThat(pw.identity()).isNotNull();
    assertThat(pw.client()).isEqualTo("mcphub");
    assertThat(c.serverNamed("amap").first().definition().env())
        .containsEntry("AMAP_MAPS_API_KEY", "hub-sample-value");
    ConfiguredDefinition off = c.serverNamed("off").first();
    assertThat(off.definition().disabled()).isTrue();
    assertThat(off.definition().refusal()).isEqualTo(DefinitionFacts.DISABLED);
    assertThat(c.serverNamed("remote").first().isStdio()).isFalse();
    assertThat(c.serverNamed("remote").first().definition().url())
        .isEqualTo("https://example.invalid/mcp");
    assertThat(c.toJson().toString()).doesNotContain("hub-sample-value");
  }

  static Stream<Arguments> mcphubLocations() {
    // MCPHUB_SETTING_PATH as a file, as a directory, relative; the parent of the working
    // directory when the working directory has none.
    return Stream.of(
        Arguments.of("elsewhere/mcp_settings.json", "elsewhere/mcp_settings.json"),
        Arguments.of("elsewhere", "elsewhere/mcp_settings.json"),
        Arguments.of("", "work/mcp_settings.json"));
  }

  @ParameterizedTest
  @MethodSource("mcphubLocations")
  void mcphubIsFoundWhereMcphubLooks(String setting, String where) {
    Layout l = ConfigSamples.empty(root);
    Path file = root.resolve(where);
    l.write(file, MCPHUB);
    String value = setting.isEmpty() ? "" : root.resolve(setting).toString();
    HostConfig c = load(l, l.env("MCPHUB_SETTING_PATH", value));
    ConfigFile f = file(c, "mcphub");
    assertThat(f.path()).isEqualTo(file);
    assertThat(f.status()).isEqualTo(ConfigFile.Status.READ);
  }

  static Stream<Arguments> oneMcpLocations() {
    return Stream.of(
        Arguments.of("", "", "home/.config/1mcp/mcp.json"),
        Arguments.of("", "cfgdir", "cfgdir/mcp.json"),
        Arguments.of("named/one.json", "cfgdir", "named/one.json"));
  }

  @ParameterizedTest
  @MethodSource("oneMcpLocations")
  void oneMcpIsFoundWhere1mcpLooks(String config, String dir, String where) {
    Layout l = ConfigSamples.empty(root);
    Path file = root.resolve(where);
    l.write(file, ONE_MCP);
    HostConfig c =
        load(
            l,
            l.env(
                "ONE_MCP_CONFIG",
                config.isEmpty() ? "" : root.resolve(config).toString(),
                "ONE_MCP_CONFIG_DIR",
                dir.isEmpty() ? "" : root.resolve(dir).toString()));
    ConfigFile f = file(c, "1mcp");
    assertThat(f.path()).isEqualTo(file);
    assertThat(f.status()).isEqualTo(ConfigFile.Status.READ);
    assertThat(f.formats()).containsExactly(ConfigFormat.ONE_MCP.id());
  }

  @Test
  void oneMcpStaticServersAndTemplatesAreReadAndDisabledIsHonoured() {
    Layout l = ConfigSamples.empty(root);
    l.write(l.home().resolve(".config/1mcp/mcp.json"), ONE_MCP);
    HostConfig c = load(l, l.env());
    assertThat(file(c, "1mcp").servers()).isEqualTo(5);
    ConfiguredDefinition fs = c.serverNamed("filesystem").first();
    assertThat(fs.pointer()).isEqualTo("/mcpServers/filesystem");
    assertThat(fs.definition().args()).containsExactly("-y", "fs", "/tmp");
    assertThat(fs.identity()).isNotNull();
    assertThat(fs.client()).isEqualTo("1MCP");
    assertThat(c.serverNamed("off").first().definition().disabled()).isTrue();
    ConfiguredDefinition maybe = c.serverNamed("maybe").first();
    assertThat(maybe.definition().disabled()).isTrue();
    assertThat(file(c, "1mcp").warnings())
        .contains(
            "/mcpServers/maybe/disabled: a string in a static server, which 1MCP reads as true"
                + " (not empty): the server is off");
    ConfiguredDefinition plain = c.serverNamed("plain").first();
    assertThat(plain.pointer()).isEqualTo("/mcpTemplates/plain");
    assertThat(plain.definition().disabled()).isFalse();
    assertThat(plain.definition().refusal()).isNull();
    assertThat(plain.identity()).isNotNull();
    assertThat(plain.unresolved()).isEmpty();
  }

  @Test
  void aTemplateWithVariablesIsListedAsSuchNeverGivenAnIdentityAndNeverSpawnable() {
    Layout l = ConfigSamples.empty(root);
    l.write(l.home().resolve(".config/1mcp/mcp.json"), ONE_MCP);
    HostConfig c = load(l, l.env());
    ConfiguredServer s = c.serverNamed("project");
    ConfiguredDefinition d = s.first();
    assertThat(d.pointer()).isEqualTo("/mcpTemplates/project");
    assertThat(d.isStdio()).isTrue();
    assertThat(d.identity()).isNull();
    assertThat(s.commonIdentity()).isNull();
    assertThat(d.definition().refusal()).isNotNull();
    assertThat(s.facts().definitions().get(0).spawnable()).isFalse();
    assertThat(d.unresolved())
        .extracting(u -> u.pointer() + " " + u.reference() + " " + u.reason().id())
        .containsExactly(
            "/mcpTemplates/project/args/3 {{project.path}} template",
            "/mcpTemplates/project/env/PROJECT {{project.name}} template");
    assertThat(file(c, "1mcp").warnings())
        .contains(
            "/mcpTemplates/project: a template with variables ({{project.path}}), rendered for"
                + " each client: it cannot be measured as written and is never spawned");
    assertThat(c.unresolved())
        .extracting(u -> u.server() + " " + u.file())
        .containsOnly("project ~/.config/1mcp/mcp.json");
  }

  @Test
  void variablesInAStaticServerAreUsedAsWritten() {
    // 1MCP renders only templates: "{{x}}" in a static server is a literal argument.
    Layout l = ConfigSamples.empty(root);
    l.write(
        l.home().resolve(".config/1mcp/mcp.json"),
        "{\"mcpServers\": {\"lit\": {\"command\": \"npx\", \"args\": [\"{{x}}\"]}}}");
    HostConfig c = load(l, l.env());
    ConfiguredDefinition d = c.serverNamed("lit").first();
    assertThat(d.identity()).isNotNull();
    assertThat(d.definition().refusal()).isNull();
    assertThat(d.unresolved()).isEmpty();
  }
}
