package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A discovered file that cannot be read, or one with an entry that cannot be used: a quiet run
 * (cron) warns about it once per state of the file, a run that is not quiet every time.
 */
final class QuietWarningsTest {
  @TempDir Path root;

  private static final String WARNING =
      "kcshare: warning: ~/.cursor/mcp.json: /mcpServers: expected an object, got an array (file"
          + " skipped; its servers are left out)\n";

  private static final String ENTRY_WARNING =
      "kcshare: warning: ~/.cursor/mcp.json: /mcpServers/x/command: expected a string, got a"
          + " number (entry skipped; the file's other servers are read)\n";

  @Test
  void aQuietRunWarnsOncePerChangeOfTheFileAndALoudOneEveryTime() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": []}");

    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(WARNING);
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();
    assertThat(f.run("-q", "cost").stderr()).as("any command shares the memory").isEmpty();
    assertThat(f.run("assess", "--all").stderr()).as("not quiet").isEqualTo(WARNING);

    // The file changes and is still broken: warned again, once.
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": []}\n");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(WARNING);
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();

    // Fixed, then broken again exactly as before: warned again.
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": {}}");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": []}\n");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(WARNING);

    Path memory = f.layout.home().resolve(".local/state/kcshare/skipped-files.json");
    assertThat(Files.readString(memory)).contains("\"schema\": 1").contains(".cursor/mcp.json");
  }

  @Test
  void aQuietRunWarnsOncePerChangeOfAFileWithAnUnusableEntry() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    f.homeFile(
        ".cursor/mcp.json",
        "{\"mcpServers\": {\"x\": {\"command\": 1}, \"y\": {\"command\": \"npx\"}}}");

    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(ENTRY_WARNING);
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();
    assertThat(f.run("-q", "cost").stderr()).as("any command shares the memory").isEmpty();
    assertThat(f.run("assess", "--all").stderr()).as("not quiet").isEqualTo(ENTRY_WARNING);

    // The file changes and is still broken: warned again, once.
    f.homeFile(
        ".cursor/mcp.json",
        "{\"mcpServers\": {\"x\": {\"command\": 1}, \"y\": {\"command\": \"npx\"}}}\n");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(ENTRY_WARNING);
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();

    // Fixed, then broken again exactly as before: warned again.
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": {}}");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();
    f.homeFile(
        ".cursor/mcp.json",
        "{\"mcpServers\": {\"x\": {\"command\": 1}, \"y\": {\"command\": \"npx\"}}}\n");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(ENTRY_WARNING);

    Path memory = f.layout.home().resolve(".local/state/kcshare/skipped-files.json");
    assertThat(Files.readString(memory)).contains("\"schema\": 1").contains(".cursor/mcp.json");
  }
}
