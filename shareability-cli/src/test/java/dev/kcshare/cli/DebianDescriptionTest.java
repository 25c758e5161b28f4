package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.config.ConfigFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Debian package's Description names every client and gateway whose files kcshare reads. */
final class DebianDescriptionTest {
  private static final Path CONTROL = Path.of("src/deb/control/control");

  @Test
  void theDescriptionNamesEveryClientKcshareReads() throws IOException {
    String control = Files.readString(CONTROL);
    String description = control.substring(control.indexOf("\nDescription:"));
    // Long-description lines are folded by Debian: compare with the line breaks taken out.
    String flat = description.replaceAll("\n ", " ");
    List<String> clients = new ArrayList<>(List.of("Kiro", "Claude Desktop"));
    for (ConfigFormat f : ConfigFormat.values()) {
      if (f != ConfigFormat.MCP_SERVERS && f != ConfigFormat.EMBEDDED) {
        clients.add(f.client());
      }
    }
    for (String client : clients) {
      assertThat(flat).as("the Description names %s", client).contains(client);
    }
  }
}
