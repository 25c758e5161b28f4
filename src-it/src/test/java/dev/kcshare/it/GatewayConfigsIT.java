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

  /** The two environment dumps the pre-flight's two spawns left in {@code dir}. */
  private static List<Path> dumps(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> out = files.toList();
      assertThat(out).as("one dump per pre-flight spawn in " + dir).hasSize(2);
      return out;
    }
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

  @Test
  void aOneMcpServerIsMeasuredWithTheLaunchOneMcpMakes() throws Exception {
    Optional<Path> node = ItProcesses.onPath("node");
    Assumptions.assumeTrue(node.isPresent(), "node is not installed");
    Map<String, String> env = install(node.get());
    Path envs = Files.createDirectories(dir.resolve("envs"));
    Path listedEnvs = Files.createDirectories(envs.resolve("listed"));
    Path objectEnvs = Files.createDirectories(envs.resolve("object"));
    // What 1MCP's own docs show: a list-form env, ${VAR} in the arguments, serverDefaults.env
    // (merged into an object env; replaced by a list, mcpConfigMerge.ts).
    String file =
        """
        {"serverDefaults": {"env": {"AWS_SESSION_TOKEN": "rotating-session-value"}},
         "mcpServers": {
           "listed": {"command": "node",
                      "args": ["${KCT}/mcp-fixture.mjs", "stable", "--env-dir", "@LISTED@"],
                      "env": ["STATIC=on", "TOKEN=abcd1234"]},
           "objecty": {"command": "node",
                       "args": ["${KCT}/mcp-fixture.mjs", "stable", "--env-dir", "@OBJECT@"],
                       "env": {"REGION": "eu-north-1"}}
         },
         "mcpTemplates": {
           "tpl": {"command": "node", "args": ["${KCT}/mcp-fixture.mjs", "stable"], "disabled": "no"}
         }}
        """
            .replace("@LISTED@", listedEnvs.toString())
            .replace("@OBJECT@", objectEnvs.toString());
    Path oneMcp = home().resolve(".config/1mcp/mcp.json");
    Files.writeString(oneMcp, file, StandardCharsets.UTF_8);
    env.put("KCT", FIXTURES.toString());
    env.put("KCSHARE_IT_NOT_PASSED", "kcshare-only");

    Kcshare.Result config = Kcshare.run(workspace(), env, "", "config", "--json");
    assertThat(config.exitCode()).as(config.stderr()).isZero();
    Map<String, Map<String, Object>> defs = new HashMap<>();
    for (Object s : list(object(Json.parse(config.stdout())).get("servers"))) {
      defs.put((String) object(s).get("name"), object(list(object(s).get("definitions")).get(0)));
    }
    Map<String, Object> listed = defs.get("listed");
    assertThat(list(listed.get("args")).get(0)).isEqualTo(FIXTURES + "/mcp-fixture.mjs");
    assertThat(object(listed.get("envOrigins")))
        .containsEntry("STATIC", "env")
        .doesNotContainKey("AWS_SESSION_TOKEN");
    assertThat(list(listed.get("inheritedEnvNames")))
        .containsExactly("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER");
    assertThat(object(defs.get("objecty").get("envOrigins")))
        .containsEntry("AWS_SESSION_TOKEN", "serverDefaults.env")
        .containsEntry("REGION", "env");
    assertThat(config.stdout()).doesNotContain("abcd1234").doesNotContain("rotating-session-value");
    Kcshare.Result verbose = Kcshare.run(workspace(), env, "", "config", "-v");
    assertThat(verbose.stdout())
        .contains("AWS_SESSION_TOKEN  serverDefaults.env")
        .contains("inherits only: HOME, LOGNAME, PATH, SHELL, TERM, USER");

    String records = dir.resolve("records").toString();
    for (String name : List.of("listed", "objecty")) {
      Kcshare.Result measure =
          Kcshare.run(workspace(), env, "", "measure", name, "--records-dir", records);
      assertThat(measure.exitCode()).as(measure.stderr()).isZero();
    }
    for (Path dump : dumps(listedEnvs)) {
      assertThat(object(Json.parse(Files.readString(dump))))
          .containsEntry("STATIC", "on")
          .containsEntry("TOKEN", "abcd1234")
          .containsKey("PATH")
          .containsKey("HOME")
          .doesNotContainKey("AWS_SESSION_TOKEN")
          .doesNotContainKey("KCT")
          .doesNotContainKey("KCSHARE_IT_NOT_PASSED");
    }
    for (Path dump : dumps(objectEnvs)) {
      assertThat(object(Json.parse(Files.readString(dump))))
          .containsEntry("REGION", "eu-north-1")
          .containsEntry("AWS_SESSION_TOKEN", "rotating-session-value")
          .doesNotContainKey("KCSHARE_IT_NOT_PASSED");
    }
    Kcshare.Result assess =
        Kcshare.run(workspace(), env, "", "assess", "--all", "--json", "--records-dir", records);
    assertThat(assess.exitCode()).as(assess.stderr()).isZero();
    Map<String, Map<String, Object>> verdicts = Json.byName(Json.parse(assess.stdout()));
    assertThat(verdicts.get("listed").get("strength")).isEqualTo("measured");
    assertThat(verdicts.get("objecty").get("strength")).isEqualTo("measured");
    assertThat(verdicts.get("objecty").get("recommendShare"))
        .as("a rotating secret from serverDefaults.env withholds a share")
        .isEqualTo(false);

    Kcshare.Result tpl =
        Kcshare.run(workspace(), env, "", "measure", "tpl", "--records-dir", records);
    assertThat(tpl.exitCode()).as("disabled: \"no\" is enabled for 1MCP: " + tpl.stderr()).isZero();

    Kcshare.Result plan =
        Kcshare.run(
            workspace(), env, "", "seed", "--gateway", "1mcp", "--plan", "--records-dir", records);
    assertThat(plan.exitCode()).as(plan.stderr()).isZero();
    assertThat(plan.stdout()).contains("\"TOKEN=***\"").doesNotContain("abcd1234");
    // Seeding reads the file as discovery does: the measured launch is the one seeding compares.
    assertThat(plan.stdout().lines().filter(l -> l.strip().startsWith("no verdict")))
        .noneMatch(l -> l.contains("listed"));
  }

  @Test
  void anMcphubServerIsMeasuredWithTheLaunchMcphubMakes() throws Exception {
    Optional<Path> node = ItProcesses.onPath("node");
    Assumptions.assumeTrue(node.isPresent(), "node is not installed");
    Map<String, String> env = install(node.get());
    Path envs = Files.createDirectories(dir.resolve("envs"));
    String file =
        """
        {"mcpServers": {
           "hub": {"command": "node",
                   "args": [" ${KCT}/mcp-fixture.mjs ", "stable", "--env-dir", "@ENVS@", "--tag", "$KCSHARE_IT_UNSET"],
                   "env": {"PATH": "/not/mcphubs/path", "REGION": "${KCSHARE_IT_REGION}"}}
         }}
        """
            .replace("@ENVS@", envs.toString());
    Files.writeString(workspace().resolve("mcp_settings.json"), file, StandardCharsets.UTF_8);
    env.put("KCT", FIXTURES.toString());
    env.put("KCSHARE_IT_REGION", "eu-west-1");
    env.put("KCSHARE_IT_PASSED", "inherited");

    String records = dir.resolve("records").toString();
    Kcshare.Result measure =
        Kcshare.run(workspace(), env, "", "measure", "hub", "--records-dir", records);
    assertThat(measure.exitCode()).as(measure.stderr()).isZero();
    List<Path> dumps;
    try (Stream<Path> files = Files.list(envs)) {
      dumps = files.toList();
    }
    assertThat(dumps).hasSize(2);
    for (Path dump : dumps) {
      Map<String, Object> got = object(Json.parse(Files.readString(dump)));
      // mcphub passes its whole environment, its own PATH, and the expanded env.
      assertThat(got)
          .containsEntry("PATH", env.get("PATH"))
          .containsEntry("REGION", "eu-west-1")
          .containsEntry("KCSHARE_IT_PASSED", "inherited");
    }
    Kcshare.Result config = Kcshare.run(workspace(), env, "", "config");
    assertThat(config.stdout())
        .contains("command: node " + FIXTURES + "/mcp-fixture.mjs stable --env-dir")
        .contains("/mcpServers/hub/env/PATH: mcphub starts a stdio server with its own PATH")
        .contains("$KCSHARE_IT_UNSET (unset");
  }
}
