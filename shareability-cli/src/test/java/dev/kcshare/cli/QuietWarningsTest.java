package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A discovered file that cannot be read: a quiet run (cron) warns about it once per state of the
 * file, a run that is not quiet every time.
 */
final class QuietWarningsTest {
  @TempDir Path root;

  private static final String WARNING =
      "kcshare: warning: ~/.cursor/mcp.json: /mcpServers/x/command: expected a string, got a"
          + " number (file skipped; its servers are left out)\n";

  @Test
  void aQuietRunWarnsOncePerChangeOfTheFileAndALoudOneEveryTime() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": {\"x\": {\"command\": 1}}}");

    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(WARNING);
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();
    assertThat(f.run("-q", "cost").stderr()).as("any command shares the memory").isEmpty();
    assertThat(f.run("assess", "--all").stderr()).as("not quiet").isEqualTo(WARNING);

    // The file changes and is still broken: warned again, once.
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": {\"x\": {\"command\": 1}}}\n");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(WARNING);
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();

    // Fixed, then broken again exactly as before: warned again.
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": {}}");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEmpty();
    f.homeFile(".cursor/mcp.json", "{\"mcpServers\": {\"x\": {\"command\": 1}}}\n");
    assertThat(f.run("-q", "assess", "--all").stderr()).isEqualTo(WARNING);

    Path memory = f.layout.home().resolve(".local/state/kcshare/skipped-files.json");
    assertThat(Files.readString(memory)).contains("\"schema\": 1").contains(".cursor/mcp.json");
  }
}
