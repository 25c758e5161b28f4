package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An entry kcshare cannot use, through the commands (issue #30): in a discovered file it is left
 * out with one warning and the file's other servers are assessed; a name only it has is said to be
 * unusable (exit 2); in a file named with {@code --config} it is an error (exit 2, naming the file
 * and the pointer).
 */
final class ConfigCommandUnusableEntriesTest {
  @TempDir Path root;

  private static final String CURSOR =
      "{\"mcpServers\": {"
          + "\"cursor-good\": {\"command\": \"npx\", \"args\": [\"-y\", \"cursor-good-mcp\"]},"
          + "\"cursor-bad\": {\"command\": \"npx\", \"env\": {\"TOKEN\": \"entry-env-value\","
          + " \"N\": [1]}}}}";

  private static final String ENTRY_WARNING =
      "kcshare: warning: ~/.cursor/mcp.json: /mcpServers/cursor-bad/env/N: expected a string, got"
          + " an array (entry skipped; the file's other servers are read)\n";

  @Test
  void assessOfTheFilesOtherServersWarnsOnceAboutTheBadEntry() {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.homeFile(".cursor/mcp.json", CURSOR);
    CliRun r = f.run("assess", "cursor-good");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("cursor-good").doesNotContain("entry-env-value");
    assertThat(r.stderr()).isEqualTo(ENTRY_WARNING);
  }

  @Test
  void assessOfANameOnlyAnUnusableEntryHasExitsTwoSayingWhy() {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.homeFile(".cursor/mcp.json", CURSOR);
    for (List<String> args :
        List.of(
            List.of("assess", "cursor-bad"),
            List.of("assess", "cursor-bad", "--json"),
            List.of("measure", "cursor-bad"))) {
      CliRun r = f.run(args.toArray(String[]::new));
      assertThat(r.exitCode()).as("%s: %s", args, r.stderr()).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.stdout()).as("%s", args).isEmpty();
      assertThat(r.stderr())
          .as("%s", args)
          .isEqualTo(
              ENTRY_WARNING
                  + "kcshare: \"cursor-bad\": the entry at ~/.cursor/mcp.json"
                  + " /mcpServers/cursor-bad/env/N cannot be used: expected a string, got an array\n")
          .doesNotContain("entry-env-value");
    }
  }

  @Test
  void configShowsTheBadEntryUnderItsFile() {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.homeFile(".cursor/mcp.json", CURSOR);
    CliRun r = f.runPlain("config");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .contains("  read      ~/.cursor/mcp.json [cursor] 1 server (cursor-user)\n")
        .contains(
            "              entry \"cursor-bad\" left out: /mcpServers/cursor-bad/env/N: expected a"
                + " string, got an array\n")
        .contains("  cursor-good  stdio\n")
        .doesNotContain("entry-env-value");
    assertThat(r.stderr()).isEqualTo(ENTRY_WARNING);
  }

  @Test
  void aNamedFileWithOneBadEntryStopsTheCommandsNamingFileAndPointer() {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.layout.write(
        f.layout.workspace().resolve("team.json"),
        "{\"mcpServers\": {\"team-a\": {\"command\": \"npx\"}, \"team-b\": {\"command\":"
            + " \"\"}}}");
    String error =
        "kcshare: team.json: /mcpServers/team-b/command: expected a command, got a blank string\n";
    for (List<String> args :
        List.of(
            List.of("config", "--config", "team.json"),
            List.of("config", "--config", "team.json", "--json"),
            List.of("assess", "--all", "--config", "team.json"),
            List.of("assess", "team-a", "--config", "team.json"),
            List.of("measure", "team-a", "--config", "team.json"))) {
      String[] line = args.toArray(String[]::new);
      CliRun r = args.get(0).equals("config") ? f.runPlain(line) : f.run(line);
      assertThat(r.exitCode()).as("%s: %s", args, r.stderr()).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.stdout()).as("%s", args).isEmpty();
      assertThat(r.stderr()).as("%s", args).isEqualTo(error);
    }
  }
}
