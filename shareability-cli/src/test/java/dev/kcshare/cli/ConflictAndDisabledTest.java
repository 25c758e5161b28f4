package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name defined differently in two files, and a disabled server: assess, measure and seed say the
 * same true thing about each, with where to fix it (on {@link OperatorFixture#mixed}).
 */
final class ConflictAndDisabledTest {
  @TempDir Path root;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  @Test
  void assessSaysTheDefinitionsConflictAndHowToResolveIt() {
    OperatorFixture f = OperatorFixture.mixed(root);
    CliRun r = f.run("assess", "dup");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains(
            "      what would change it: make its definitions agree (see below), then run"
                + " `kcshare measure dup`\n")
        .doesNotContain("what would change it: run `kcshare measure dup`")
        .contains(
            "  definitions conflict: definitions resolve to different execution identities:\n"
                + "    ~/.kiro/settings/mcp.json /mcpServers/dup: npx -y dup-mcp@1\n"
                + "    ~/.cursor/mcp.json /mcpServers/dup: npx -y dup-mcp@2  env: DUP_TOKEN\n"
                + "    they differ in: command or arguments; declared env (names or values)\n"
                + "  pre-flight evidence is not used and kcshare measure refuses this server until"
                + " they agree.\n"
                + "  to resolve it: make the definitions identical (or remove all but one), or pass"
                + " --config FILE to read only the file whose definition you mean; then run kcshare"
                + " measure dup\n")
        .doesNotContain("s3cret-value");
    assertThat(f.run("assess", "--all").stdout())
        .containsPattern("\ndup +unknown +no +no +- +- +not_probed: conflicting definitions\n");
  }

  @Test
  void measureOfAConflictingNameRefusesNamingTheDefinitions() {
    OperatorFixture f = OperatorFixture.mixed(root);
    CliRun r = f.run("measure", "dup");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .startsWith(
            "kcshare: cannot measure \"dup\": its definitions conflict (definitions resolve to"
                + " different execution identities)\n"
                + "  ~/.kiro/settings/mcp.json /mcpServers/dup: npx -y dup-mcp@1\n"
                + "  ~/.cursor/mcp.json /mcpServers/dup: npx -y dup-mcp@2  env: DUP_TOKEN\n")
        .contains("pass --config FILE to read only the file whose definition you mean");
    // Refused before anything ran: no cache was written, so nothing can be "stored" for it.
    assertThat(f.records.resolve("shareability-verdicts.json")).doesNotExist();
    // Named with another server, still refused: nothing is measured.
    assertThat(f.run("measure", "good", "dup").exitCode()).isEqualTo(2);
    assertThat(f.records.resolve("shareability-verdicts.json")).doesNotExist();
  }

  @Test
  void measureOfANameItWillNotSpawnRefusesWithTheReason() {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.homeFile(
        ".config/1mcp/mcp.json",
        "{\"mcpTemplates\": {\"tpl\": {\"command\": \"node\", \"args\":"
            + " [\"{{project.path}}/server.js\"]}}}");

    CliRun off = f.run("measure", "off");
    assertThat(off.exitCode()).as(off.stderr()).isEqualTo(2);
    assertThat(off.stdout()).isEmpty();
    assertThat(off.stderr())
        .isEqualTo(
            "kcshare: cannot measure \"off\": it is disabled (the operator withheld consent);"
                + " to measure it, set \"disabled\" to false (or remove it) at"
                + " ~/.kiro/settings/mcp.json /mcpServers/off/disabled\n");

    CliRun remote = f.run("measure", "r");
    assertThat(remote.exitCode()).as(remote.stderr()).isEqualTo(2);
    assertThat(remote.stderr())
        .isEqualTo(
            "kcshare: cannot measure \"r\": it is not a stdio server (kcshare measures only the"
                + " servers it starts itself)\n");

    CliRun template = f.run("measure", "tpl");
    assertThat(template.exitCode()).as(template.stderr()).isEqualTo(2);
    assertThat(template.stderr())
        .isEqualTo(
            "kcshare: cannot measure \"tpl\": a 1MCP template with variables, rendered for each"
                + " client: it cannot be measured as written\n");

    // Refused before anything ran, also beside a name that could run.
    assertThat(f.run("measure", "good", "off").exitCode()).isEqualTo(2);
    assertThat(f.records.resolve("shareability-verdicts.json")).doesNotExist();
  }

  @Test
  void measureAllSkipsAConflictingNameAndSaysWhy() {
    OperatorFixture f = OperatorFixture.mixed(root);
    // Only two conflicting definitions are read, so the pass has nothing else to spawn.
    Path dupOnly =
        f.homeFile("dup-only.json", "{\"mcpServers\": {\"dup\": {\"command\": \"npx\"}}}");
    Path dupOther =
        f.homeFile(
            "dup-other.json",
            "{\"mcpServers\": {\"dup\": {\"command\": \"npx\", \"args\": [\"other\"]}}}");
    Map<String, String> terminal = new HashMap<>(f.env);
    terminal.put("KCSHARE_STDERR_TTY", "1");
    String[] args = {
      "measure",
      "--all",
      "--config",
      dupOnly.toString(),
      "--config",
      dupOther.toString(),
      "--records-dir",
      f.records.toString()
    };
    CliRun r = CliRun.run(f.layout.workspace(), "", terminal, args);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr())
        .contains("skipped dup: its definitions conflict (see kcshare assess dup)\n");
    assertThat(f.readCache().rows()).doesNotContainKey("dup");
    // From cron (no terminal, no -v) it stays quiet.
    CliRun quiet = CliRun.run(f.layout.workspace(), "", f.env, args);
    assertThat(quiet.exitCode()).isZero();
    assertThat(quiet.stderr()).doesNotContain("skipped");
  }

  @Test
  void seedPlanListsAConflictingNameAsConflictingNotAsNotMeasured() {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.measuredRows("good");
    CliRun r = f.run("seed", "--plan", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Object> out = object(OperatorFixture.parse(r.stdout()));
    assertThat(out.get("conflicting")).isEqualTo(List.of("dup"));
    assertThat(list(out.get("notMeasured"))).doesNotContain("dup").contains("x");
    assertThat(f.run("seed", "--plan").stdout())
        .contains(
            "  conflicting definitions (left until they agree; see kcshare assess NAME): dup\n")
        .doesNotContainPattern("not measured yet[^\n]*dup");
  }

  @Test
  void assessSaysADisabledServerIsNeverSpawnedAndWhereToEnableIt() {
    OperatorFixture f = OperatorFixture.mixed(root);
    CliRun r = f.run("assess", "off");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains(
            "      what would change it: enable it (see below), then run `kcshare measure off`\n")
        .doesNotContain("what would change it: run `kcshare measure off`")
        .contains(
            "  disabled: kcshare never spawns a disabled server, so it stays not measured. To"
                + " enable it:\n"
                + "    set \"disabled\" to false (or remove it) at ~/.kiro/settings/mcp.json"
                + " /mcpServers/off/disabled\n")
        .contains("  defined in: ~/.kiro/settings/mcp.json /mcpServers/off\n");
    assertThat(f.run("assess", "--all").stdout())
        .containsPattern("\noff +unknown +no +no +- +- +not_probed: disabled\n");
    Map<String, Object> plan =
        object(OperatorFixture.parse(f.run("seed", "--plan", "--json").stdout()));
    assertThat(plan.get("disabled")).isEqualTo(List.of("off"));
    assertThat(list(plan.get("notMeasured"))).doesNotContain("off");
  }
}
