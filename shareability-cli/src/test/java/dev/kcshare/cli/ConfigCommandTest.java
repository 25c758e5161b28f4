package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.config.ConfigSamples;
import dev.kcshare.host.config.ConfigSamples.Layout;
import dev.kcshare.host.json.JsonReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ConfigCommandTest {
  @TempDir Path root;

  /** Variables the samples reference; their values land in declared env and must stay unseen. */
  private static final String[] SUBSTITUTED = {
    "PGPASSWORD", "pg-password-from-the-environment",
    "WORKSPACE_TOOL_TOKEN", "workspace-tool-token-from-env",
    "PW_DEBUG", "pw-debug-from-the-environment",
  };

  private static CliRun run(Layout l, Map<String, String> env, String... args) {
    return CliRun.run(l.workspace(), "", env, args);
  }

  private static Object parse(String json) throws Exception {
    return JsonReader.withDepthLimit(100).parse(json);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  @Test
  void humanReportListsFilesServersConflictsInputsGatewayAndProfile() {
    Layout l = ConfigSamples.full(root);
    CliRun r = run(l, l.env(), "config");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stderr()).isEmpty();
    String out = r.stdout();
    assertThat(out)
        .startsWith(
            "Profile: kirocrew (because ~/.kiro/crew exists)\n"
                + "  rule: --profile if given; else kirocrew when KIROCREW_HOME is set, or when"
                + " ~/.kiro/crew exists and holds more than the files kcshare writes there; else"
                + " default\n")
        .contains("  read      ~/.kiro/crew/config.json [kirocrew] (kirocrew)\n")
        .contains("  read      ~/.kiro/settings/mcp.json [kiro] 5 servers (kiro-user)\n")
        .contains("  read      .vscode/mcp.json [vscode] 3 servers (vscode-workspace)\n")
        .contains("  missing   .cursor/mcp.json (cursor-workspace)\n")
        .contains(
            "              note: /mcpServers/aws-docs/env/MCP_VERBOSE: boolean used as True/False,"
                + " as the Kiro Crew gateway converts it\n")
        .contains("  sharing:              off\n")
        .contains("  roster:               filesystem, fetch (from stub_servers)\n")
        .contains("  stub_overrides:       github=true, fetch=false\n")
        .contains("  effective stub set:   filesystem, github\n")
        .contains("  identity keys:        OAUTH_CLIENT_ID, OAUTH_TENANT\n")
        .contains("  filesystem  stdio\n")
        .contains("    ~/.kiro/settings/mcp.json /mcpServers/filesystem [kiro, stdio]\n")
        .contains("    .kiro/settings/mcp.json /mcpServers/filesystem [kiro, stdio]\n")
        .contains(
            "      command: npx -y @modelcontextprotocol/server-filesystem /home/op/projects\n")
        .contains("    ~/.kiro/settings/mcp.json /mcpServers/aws-docs [kiro, stdio, disabled]\n")
        .contains(
            "      env: AWS_DOCUMENTATION_PARTITION, FASTMCP_LOG_LEVEL, MCP_TIMEOUT_SECONDS,"
                + " MCP_VERBOSE\n")
        .contains("    ~/.kiro/settings/mcp.json /mcpServers/context7 [kiro, not stdio]\n")
        .contains("      url: https://mcp.context7.com/mcp\n")
        .contains("    .vscode/mcp.json /servers/github [vscode, not stdio, type http]\n")
        .contains(
            "  fetch: definitions resolve to different execution identities\n    they differ in: args\n")
        .contains(
            "  github: some definitions are stdio and some are not\n    they differ in: transport,"
                + " command, args, env names, url\n")
        .contains(
            "  perplexity  .vscode/mcp.json /servers/perplexity/env/PERPLEXITY_API_KEY "
                + " ${input:perplexity-key} (input: VS Code prompts for this value; kcshare"
                + " cannot, so it stays as written)\n");
    assertThat(out.indexOf("\nConflicts:")).isGreaterThan(out.indexOf("\nServers:"));
  }

  @Test
  void jsonIsTheDocumentedObject() throws Exception {
    Layout l = ConfigSamples.full(root);
    CliRun r = run(l, l.env(), "config", "--json");
    assertThat(r.exitCode()).isZero();
    Map<String, Object> doc = object(parse(r.stdout()));
    assertThat(doc)
        .containsOnlyKeys(
            "profile",
            "files",
            "gateway",
            "identityKeys",
            "servers",
            "clientParts",
            "conflicts",
            "unresolved",
            "errors",
            "skipped");
    assertThat(List.copyOf(doc.keySet()))
        .containsExactly(
            "profile",
            "files",
            "gateway",
            "identityKeys",
            "servers",
            "clientParts",
            "conflicts",
            "unresolved",
            "errors",
            "skipped");
    assertThat(object(doc.get("profile")))
        .containsEntry("name", "kirocrew")
        .containsEntry("reason", "~/.kiro/crew exists");
    Map<String, Object> firstFile = object(list(doc.get("files")).get(0));
    assertThat(List.copyOf(firstFile.keySet()))
        .containsExactly(
            "file",
            "path",
            "origin",
            "formats",
            "status",
            "servers",
            "problems",
            "warnings",
            "unusableEntries");
    assertThat(doc.get("identityKeys")).isEqualTo(List.of("OAUTH_CLIENT_ID", "OAUTH_TENANT"));
    assertThat(object(doc.get("gateway")))
        .containsEntry("effectiveStubSet", List.of("filesystem", "github"))
        .containsEntry("forwardDeclaredEnv", true);

    Map<String, Object> awsDocs =
        list(doc.get("servers")).stream()
            .map(ConfigCommandTest::object)
            .filter(s -> s.get("name").equals("aws-docs"))
            .findFirst()
            .orElseThrow();
    assertThat(List.copyOf(awsDocs.keySet()))
        .containsExactly(
            "name",
            "stdio",
            "declaredEnvNames",
            "identity",
            "conflict",
            "definitions",
            "clients",
            "differences");
    Map<String, Object> def = object(list(awsDocs.get("definitions")).get(0));
    assertThat(List.copyOf(def.keySet()))
        .containsExactly(
            "source",
            "path",
            "pointer",
            "format",
            "command",
            "args",
            "envNames",
            "cwd",
            "disabled",
            "url",
            "type",
            "stdio",
            "identity",
            "unresolved",
            "client",
            "unsetEnvNames",
            "envOrigins",
            "inheritedEnvNames");
    assertThat(def)
        .containsEntry("source", "~/.kiro/settings/mcp.json")
        .containsEntry("pointer", "/mcpServers/aws-docs")
        .containsEntry("format", "kiro")
        .containsEntry("command", "uvx")
        .containsEntry("disabled", true)
        .containsEntry("stdio", true)
        .containsEntry(
            "envNames",
            List.of(
                "AWS_DOCUMENTATION_PARTITION",
                "FASTMCP_LOG_LEVEL",
                "MCP_TIMEOUT_SECONDS",
                "MCP_VERBOSE"));
    assertThat((String) def.get("identity")).endsWith("\u00002");
    assertThat(list(doc.get("conflicts")))
        .extracting(c -> object(c).get("name"))
        .containsExactly("fetch", "github");
    assertThat(list(doc.get("unresolved"))).hasSize(5);
    assertThat(doc.get("errors")).isEqualTo(List.of());
  }

  @Test
  void envValuesNeverAppearInAnyOutput() {
    Layout l = ConfigSamples.full(root);
    Map<String, String> env = l.env(SUBSTITUTED);
    List<String> secrets = new java.util.ArrayList<>();
    for (String v : ConfigSamples.secretValues()) {
      if (v.length() >= 8) {
        secrets.add(v);
      }
    }
    for (int i = 1; i < SUBSTITUTED.length; i += 2) {
      secrets.add(SUBSTITUTED[i]);
    }
    assertThat(secrets)
        .contains(
            "ghp_kiroSampleToken00000000000000000000",
            "vscode-literal-sample-value /* not a comment */");
    for (String[] args : List.of(new String[] {"config"}, new String[] {"config", "--json"})) {
      CliRun r = run(l, env, args);
      assertThat(r.exitCode()).isZero();
      for (String secret : secrets) {
        assertThat(r.stdout()).as("%s: %s", String.join(" ", args), secret).doesNotContain(secret);
        assertThat(r.stderr()).doesNotContain(secret);
      }
    }
  }

  @Test
  void aBadDiscoveredFileIsSkippedWithOneWarningAndTheRestIsReported() throws Exception {
    Layout l = ConfigSamples.full(root);
    l.write(
        l.home().resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"args\": [1],"
            + " \"env\": {\"K\": bad-file-env-value}}}}");
    CliRun r = run(l, l.env(), "config");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .contains("  skipped   ~/.cursor/mcp.json (cursor-user)\n")
        .contains("              1:67: not valid JSON: expected a value")
        .contains("  filesystem  stdio")
        .doesNotContain("bad-file-env-value");
    assertThat(r.stderr())
        .startsWith("kcshare: warning: ~/.cursor/mcp.json:1:67: not valid JSON: expected a value")
        .endsWith(" (file skipped; its servers are left out)" + System.lineSeparator())
        .doesNotContain("bad-file-env-value");
    CliRun json = run(l, l.env(), "config", "--json");
    assertThat(json.exitCode()).isZero();
    Map<String, Object> doc = object(parse(json.stdout()));
    assertThat(list(doc.get("skipped")))
        .singleElement()
        .asString()
        .startsWith("~/.cursor/mcp.json:1:67: not valid JSON: expected a value");
    assertThat(doc.get("errors")).isEqualTo(List.of());
    assertThat(list(doc.get("files")))
        .map(ConfigCommandTest::object)
        .filteredOn(f -> f.get("origin").equals("cursor-user"))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f)
                    .containsEntry("status", "skipped")
                    .containsEntry("unusableEntries", List.of()));
    assertThat(json.stdout()).doesNotContain("bad-file-env-value");
  }

  @Test
  void aBadEntryIsLeftOutWithOneWarningAndTheRestOfItsFileIsReported() throws Exception {
    // Before issue #30 the whole file was skipped ("file skipped; its servers are left out").
    Layout l = ConfigSamples.full(root);
    l.write(
        l.home().resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"args\": [1],"
            + " \"env\": {\"K\": \"bad-entry-env-value\"}},"
            + " \"cursor-good\": {\"command\": \"uvx\", \"args\": [\"good-mcp\"]}}}");
    CliRun r = run(l, l.env(), "config");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .contains("  read      ~/.cursor/mcp.json [cursor] 1 server (cursor-user)\n")
        .contains(
            "              entry \"x\" left out: /mcpServers/x/args/0: expected a string, got a"
                + " number\n")
        .contains("  cursor-good  stdio")
        .contains("    ~/.cursor/mcp.json /mcpServers/cursor-good [cursor, stdio]\n")
        .contains("  filesystem  stdio")
        .doesNotContain("bad-entry-env-value");
    assertThat(r.stderr())
        .isEqualTo(
            "kcshare: warning: ~/.cursor/mcp.json: /mcpServers/x/args/0: expected a string, got"
                + " a number (entry skipped; the file's other servers are read)"
                + System.lineSeparator());
    CliRun json = run(l, l.env(), "config", "--json");
    assertThat(json.exitCode()).isZero();
    Map<String, Object> doc = object(parse(json.stdout()));
    assertThat(doc.get("skipped"))
        .isEqualTo(
            List.of("~/.cursor/mcp.json: /mcpServers/x/args/0: expected a string, got a number"));
    assertThat(doc.get("errors")).isEqualTo(List.of());
    assertThat(list(doc.get("files")))
        .map(ConfigCommandTest::object)
        .filteredOn(f -> f.get("origin").equals("cursor-user"))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f)
                    .containsEntry("status", "read")
                    .containsEntry("problems", List.of())
                    .containsEntry(
                        "unusableEntries",
                        List.of(
                            Map.of(
                                "server",
                                "x",
                                "pointer",
                                "/mcpServers/x/args/0",
                                "problem",
                                "expected a string, got a number"))));
    assertThat(list(doc.get("files")))
        .map(ConfigCommandTest::object)
        .filteredOn(f -> f.get("origin").equals("cursor-user"))
        .map(f -> ((Number) f.get("servers")).intValue())
        .containsExactly(1);
    assertThat(list(doc.get("servers")))
        .map(s -> object(s).get("name"))
        .contains("cursor-good")
        .doesNotContain("x");
    assertThat(json.stdout()).doesNotContain("bad-entry-env-value");
  }

  @Test
  void aBadNamedFileIsAnErrorAndExitsTwo() {
    Layout l = ConfigSamples.full(root);
    l.write(l.workspace().resolve("team.json"), "{\"mcpServers\": {\"x\": {\"command\": 1,}}");
    CliRun r = run(l, l.env(), "config", "--config", "team.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .isEqualTo(
            "kcshare: team.json:1:38: not valid JSON: the file ends inside an object opened at"
                + " line 1; expected '}'"
                + System.lineSeparator());
    CliRun missing = run(l, l.env(), "config", "--config", "missing.json");
    assertThat(missing.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(missing.stderr())
        .isEqualTo("kcshare: missing.json: no such file" + System.lineSeparator());
    l.write(l.workspace().resolve("other.json"), "{\"name\": \"x\"}");
    CliRun other = run(l, l.env(), "config", "--config", "other.json");
    assertThat(other.stdout() + other.stderr()).doesNotContain("\\").contains("mcpServers");
  }

  @Test
  void configNamesTheOnlyFilesReadAndDiscoverAddsTheRest() {
    Layout l = ConfigSamples.full(root);
    l.write(l.workspace().resolve("team.json"), ConfigSamples.text("cursor-mcp.json"));
    CliRun only = run(l, l.env(), "config", "--config", "team.json");
    assertThat(only.exitCode()).isZero();
    assertThat(only.stdout())
        .contains("  read      team.json [mcp-servers] 3 servers (config)\n")
        .doesNotContain("~/.kiro/settings/mcp.json")
        .doesNotContain("Gateway");
    CliRun both = run(l, l.env(), "config", "--config", "team.json", "--discover");
    assertThat(both.stdout())
        .contains("  read      team.json [mcp-servers] 3 servers (config)\n")
        .contains("  read      ~/.kiro/settings/mcp.json [kiro] 5 servers (kiro-user)\n");
    assertThat(both.stdout().indexOf("team.json"))
        .isLessThan(both.stdout().indexOf("~/.kiro/settings/mcp.json"));
  }

  @Test
  void profileOption() {
    Layout l = ConfigSamples.full(root);
    assertThat(run(l, l.env(), "config", "--profile", "default").stdout())
        .startsWith("Profile: default (because --profile default was given)\n");
    CliRun bad = run(l, l.env(), "config", "--profile", "crew");
    assertThat(bad.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(bad.stdout()).isEmpty();
    assertThat(bad.stderr()).contains("--profile crew: expected default or kirocrew");
  }

  @Test
  void configTextIsEscapedInHumanOutput(@TempDir Path other) {
    Layout l = ConfigSamples.empty(other);
    l.write(
        l.workspace().resolve(".mcp.json"),
        "{\"mcpServers\": {\"evil\\u001b[31m\\nname\": {\"command\": \"my server\","
            + " \"args\": [\"a b\", \"tab\\there\", \"plain-arg\"], \"env\": {\"E\\u2028V\": \"x\"}}}}");
    CliRun r = run(l, l.env(), "config");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .doesNotContain("\u001b")
        .doesNotContain("\u2028")
        .contains("  evil\\x1b[31m\\nname  stdio  env: E\\u2028V\n")
        .contains("      command: \"my server\" \"a b\" \"tab\\there\" plain-arg\n");
  }

  @Test
  void rootHelpListsTheCommand() {
    Layout l = ConfigSamples.empty(root);
    CliRun r = run(l, l.env(), "--help");
    assertThat(r.stdout()).contains("config");
    CliRun help = run(l, l.env(), "config", "--help");
    assertThat(help.stdout()).contains("--config=FILE", "--discover", "--profile=P", "--json");
  }
}
