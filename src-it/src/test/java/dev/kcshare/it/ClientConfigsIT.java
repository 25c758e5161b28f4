package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host configuration discovery through the packaged launcher, in a fake home holding one file per
 * location ({@code src-it/fixtures/client-configs}) and a fake workspace as the working directory;
 * and a broken discovered file, which is skipped while every command answers from the rest.
 */
final class ClientConfigsIT {
  private static final Path FIXTURES = Kcshare.repo().resolve("src-it/fixtures");
  private static final Path FIXTURE_SERVER = FIXTURES.resolve("mcp-fixture.mjs");

  /** The variables that move a client's files: empty means unset, to kcshare as to the clients. */
  private static final List<String> MOVERS =
      List.of(
          "KIROCREW_HOME",
          "KCSHARE_RECORDS_DIR",
          "CODEX_HOME",
          "GEMINI_CLI_HOME",
          "CONTINUE_GLOBAL_DIR",
          "CLINE_DIR",
          "CLINE_DATA_DIR",
          "CLINE_MCP_SETTINGS_PATH",
          "OPENCODE_CONFIG",
          "APPDATA");

  @TempDir Path dir;

  private Path home() {
    return dir.resolve("home");
  }

  private Path workspace() {
    return dir.resolve("workspace");
  }

  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    for (String v : MOVERS) {
      env.put(v, "");
    }
    env.put("HOME", home().toString());
    env.put("XDG_CONFIG_HOME", home().resolve(".config").toString());
    env.put("XDG_CACHE_HOME", home().resolve(".cache").toString());
    env.put("NO_COLOR", "1");
    return env;
  }

  private void installClients() throws IOException {
    Path fixture = FIXTURES.resolve("client-configs");
    for (String part : List.of("home", "workspace")) {
      Path from = fixture.resolve(part);
      try (Stream<Path> files = Files.walk(from)) {
        for (Path p : files.filter(Files::isRegularFile).toList()) {
          String text =
              Files.readString(p, StandardCharsets.UTF_8)
                  .replace("@FIXTURE@", FIXTURE_SERVER.toString())
                  .replace("@PIDS@", dir.resolve("pids").toString());
          Path target = dir.resolve(part).resolve(from.relativize(p).toString());
          Files.createDirectories(target.getParent());
          Files.writeString(target, text, StandardCharsets.UTF_8);
        }
      }
    }
  }

  private Kcshare.Result kcshare(Map<String, String> env, String... args) throws Exception {
    return Kcshare.run(workspace(), env, "", args);
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
  void everyClientsFileIsFoundInAFakeHome() throws Exception {
    installClients();
    Kcshare.Result r = kcshare(env(), "config", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).isEmpty();
    Map<String, Object> doc = object(Json.parse(r.stdout()));
    List<String> read = new ArrayList<>();
    for (Object f : list(doc.get("files"))) {
      if (object(f).get("status").equals("read")) {
        read.add((String) object(f).get("origin"));
      }
    }
    assertThat(read)
        .containsSubsequence(
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
            "opencode-project");
    Map<String, Map<String, Object>> servers = new HashMap<>();
    for (Object s : list(doc.get("servers"))) {
      servers.put((String) object(s).get("name"), object(s));
    }
    assertThat(servers)
        .containsKeys(
            "vscode-user-tool",
            "windsurf-tool",
            "cline-nested",
            "roo-tool",
            "gemini-tool",
            "codex-tool",
            "zed-nested",
            "continue-tool",
            "goosetool",
            "lmstudio-tool",
            "amazonq-agent-tool",
            "opencode-tool",
            "opencode-project-tool");
    assertThat(servers.get("memory").get("clients")).isEqualTo(List.of("Codex CLI", "Goose"));
    assertThat(servers.get("fetch").get("differences")).isEqualTo(List.of("args"));
    Map<String, Object> codexOff = object(list(servers.get("codex-off").get("definitions")).get(0));
    assertThat(codexOff.get("disabled")).isEqualTo(true);
    for (String secret :
        List.of(
            "vscode-user-env-value",
            "vscode-envfile-value",
            "codex-env-value",
            "zed-env-value",
            "continue-secret-value",
            "goose-env-value",
            "amazonq-env-value")) {
      assertThat(r.stdout()).doesNotContain(secret);
    }
    Kcshare.Result human = kcshare(env(), "config");
    assertThat(human.exitCode()).isZero();
    assertThat(human.stdout())
        .contains("  read      ~/.codex/config.toml [codex] 4 servers (codex-user)\n")
        .contains("    defined by: Codex CLI, Goose\n")
        .contains(
            "  fetch: definitions resolve to different execution identities\n"
                + "    they differ in: args\n");
  }

  /** A fake home: a broken Cursor file, a measurable server in Codex, disabled ones elsewhere. */
  private void brokenHost() throws IOException {
    Path pids = Files.createDirectories(dir.resolve("pids"));
    write(
        home().resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"cursor-only\": {\"command\": \"node\",, \"args\": []}}}");
    write(
        home().resolve(".codex/config.toml"),
        "[mcp_servers.alive]\ncommand = \"node\"\nargs = [\""
            + FIXTURE_SERVER
            + "\", \"stable\"]\n\n"
            + "[mcp_servers.sleeper]\ncommand = \"node\"\nargs = [\""
            + FIXTURE_SERVER
            + "\", \"stable\", \"--pid-dir\", \""
            + pids
            + "\"]\nenabled = false\n");
    write(
        home().resolve(".config/goose/config.yaml"),
        "extensions:\n  dozer:\n    enabled: false\n    type: stdio\n    name: dozer\n"
            + "    cmd: node\n    args: [\""
            + FIXTURE_SERVER
            + "\", stable, --pid-dir, \""
            + pids
            + "\"]\n");
    Files.createDirectories(workspace());
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private static final String WARNING =
      "kcshare: warning: ~/.cursor/mcp.json:1:51: not valid JSON: expected a member name in"
          + " double quotes, found ',' (file skipped; its servers are left out)";

  @Test
  void aBrokenDiscoveredFileIsSkippedAndEveryCommandAnswersFromTheRest() throws Exception {
    Assumptions.assumeTrue(onPath("node"), "node is not installed");
    brokenHost();
    String records = dir.resolve("records").toString();

    Kcshare.Result config = kcshare(env(), "config", "--json");
    assertThat(config.exitCode()).as(config.stderr()).isZero();
    assertThat(config.stderr().strip()).isEqualTo(WARNING);
    Map<String, Object> doc = object(Json.parse(config.stdout()));
    assertThat(doc.get("skipped"))
        .isEqualTo(
            List.of(
                "~/.cursor/mcp.json:1:51: not valid JSON: expected a member name in double quotes,"
                    + " found ','"));
    assertThat(list(doc.get("files")))
        .map(ClientConfigsIT::object)
        .filteredOn(f -> "cursor-user".equals(f.get("origin")))
        .singleElement()
        .satisfies(f -> assertThat(f.get("status")).isEqualTo("skipped"));

    Kcshare.Result measure = kcshare(env(), "measure", "--all", "--records-dir", records);
    assertThat(measure.exitCode()).as(measure.stderr()).isZero();
    assertThat(measure.stderr()).contains(WARNING);
    assertThat(Files.readString(Path.of(records, "shareability-verdicts.json")))
        .contains("\"alive\"");
    try (Stream<Path> spawned = Files.list(dir.resolve("pids"))) {
      assertThat(spawned.toList()).as("disabled servers are never spawned").isEmpty();
    }

    Path metrics = dir.resolve("kcshare.prom");
    Kcshare.Result assess =
        kcshare(
            env(), "assess", "--all", "--records-dir", records, "--metrics", metrics.toString());
    assertThat(assess.exitCode()).as(assess.stderr()).isZero();
    assertThat(assess.stderr()).contains(WARNING);
    assertThat(assess.stdout()).contains("alive").contains("sleeper").doesNotContain("cursor-only");
    assertThat(Files.readString(metrics)).contains("kcshare_servers 3\n");
  }

  /**
   * One bad entry never drops its file (docs/config.md#errors-and-skipped-files): a 1MCP file with
   * a blank command between two good servers is read, the bad entry is warned about alone, the
   * others are measured, and {@code assess} of the bad name says why it cannot be used.
   */
  @Test
  void aBadEntryIsLeftOutAloneAndTheRestOfItsFileIsMeasured() throws Exception {
    Assumptions.assumeTrue(onPath("node"), "node is not installed");
    Files.createDirectories(workspace());
    String server = "{\"command\": \"node\", \"args\": [\"" + FIXTURE_SERVER + "\", \"stable\"]}";
    write(
        home().resolve(".config/1mcp/mcp.json"),
        "{\"mcpServers\": {\"first\": "
            + server
            + ", \"blank\": {\"command\": \"\"}, \"second\": "
            + server
            + "}}");
    String warning =
        "kcshare: warning: ~/.config/1mcp/mcp.json: /mcpServers/blank/command: expected a command,"
            + " got a blank string (entry skipped; the file's other servers are read)";
    String records = dir.resolve("records").toString();

    Kcshare.Result config = kcshare(env(), "config", "--json");
    assertThat(config.exitCode()).as(config.stderr()).isZero();
    assertThat(config.stderr().strip()).isEqualTo(warning);
    Map<String, Object> doc = object(Json.parse(config.stdout()));
    assertThat(list(doc.get("servers")))
        .map(s -> object(s).get("name"))
        .containsExactly("first", "second");
    assertThat(list(doc.get("files")))
        .map(ClientConfigsIT::object)
        .filteredOn(f -> "1mcp".equals(f.get("origin")))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.get("status")).isEqualTo("read");
              assertThat(list(f.get("unusableEntries")))
                  .map(ClientConfigsIT::object)
                  .singleElement()
                  .satisfies(
                      u ->
                          assertThat(u)
                              .containsEntry("server", "blank")
                              .containsEntry("pointer", "/mcpServers/blank/command"));
            });

    Kcshare.Result measure = kcshare(env(), "measure", "--all", "--records-dir", records);
    assertThat(measure.exitCode()).as(measure.stderr()).isZero();
    assertThat(measure.stderr()).contains(warning);
    assertThat(Files.readString(Path.of(records, "shareability-verdicts.json")))
        .contains("\"first\"")
        .contains("\"second\"");

    Kcshare.Result assess = kcshare(env(), "assess", "blank", "--records-dir", records);
    assertThat(assess.exitCode()).isEqualTo(2);
    assertThat(assess.stdout()).isEmpty();
    assertThat(assess.stderr())
        .contains(
            "kcshare: \"blank\": the entry at ~/.config/1mcp/mcp.json /mcpServers/blank/command"
                + " cannot be used: expected a command, got a blank string");
  }

  @Test
  void aBrokenNamedFileOrKiroCrewConfigIsAnError() throws Exception {
    brokenHost();
    Kcshare.Result named =
        kcshare(
            env(), "assess", "--all", "--config", home().resolve(".cursor/mcp.json").toString());
    assertThat(named.exitCode()).isEqualTo(2);
    assertThat(named.stdout()).isEmpty();
    assertThat(named.stderr()).contains("mcp.json:1:51: not valid JSON: expected a member name");

    write(home().resolve(".kiro/crew/config.json"), "{\"mcp_gateway\": {\"enabled\": true,,}}");
    String records = dir.resolve("records").toString();
    for (String[] args :
        List.of(
            new String[] {"seed", "--plan", "--records-dir", records},
            new String[] {"stub", "alive"},
            new String[] {"unstub", "alive"},
            new String[] {"assess", "--all"},
            new String[] {"assess", "--all", "--records-dir", records},
            new String[] {"measure", "--all"},
            new String[] {"records"})) {
      Kcshare.Result r = kcshare(env(), args);
      assertThat(r.exitCode()).as(String.join(" ", args) + ": " + r.stderr()).isEqualTo(2);
      assertThat(r.stderr())
          .as(String.join(" ", args))
          .contains("config.json:1:")
          .contains("not valid JSON")
          .doesNotContain("Source")
          .doesNotContain("Exception");
    }
    Kcshare.Result config = kcshare(env(), "config");
    assertThat(config.exitCode()).isZero();
    assertThat(config.stdout()).contains("  skipped   ~/.kiro/crew/config.json");
  }

  @Test
  void theTomlAndYamlParsersLoadOnlyWhenSuchAFileExists() throws Exception {
    Files.createDirectories(workspace());
    write(home().resolve(".cursor/mcp.json"), "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}}}");
    String records = dir.resolve("records").toString();
    List<String> without = loaded("assess", "--all", "--records-dir", records);
    assertThat(without).anyMatch(l -> l.contains(" dev.kcshare.host.config.HostConfigLoader "));
    assertThat(without)
        .noneMatch(l -> l.contains(" com.fasterxml.jackson.dataformat."))
        .noneMatch(l -> l.contains(" com.fasterxml.jackson.databind."))
        .noneMatch(l -> l.contains(" org.snakeyaml."))
        .noneMatch(l -> l.contains(" dev.kcshare.host.config.TomlDocuments "))
        .noneMatch(l -> l.contains(" dev.kcshare.host.config.YamlDocuments "));
    write(home().resolve(".codex/config.toml"), "[mcp_servers.b]\ncommand = \"npx\"\n");
    write(home().resolve(".continue/config.yaml"), "mcpServers:\n  - name: c\n    command: npx\n");
    List<String> with = loaded("assess", "--all", "--records-dir", records);
    assertThat(with)
        .anyMatch(l -> l.contains(" com.fasterxml.jackson.dataformat.toml."))
        .anyMatch(l -> l.contains(" org.snakeyaml.engine."));
  }

  private List<String> loaded(String... args) throws Exception {
    Path log = Files.createTempFile(dir, "classes", ".log");
    Map<String, String> env = env();
    env.put(
        "KCSHARE_JAVA_OPTS",
        "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m -Xlog:class+load=info:file=" + log);
    Kcshare.Result r = kcshare(env, args);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    return Files.readAllLines(log);
  }

  private static boolean onPath(String program) {
    return ItProcesses.onPath(program).isPresent();
  }
}
