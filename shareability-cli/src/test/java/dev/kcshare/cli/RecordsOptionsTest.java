package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.records.RecordsDirectory;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordsOptionsTest {
  @TempDir Path home;

  private CliContext context() {
    return new CliContext(
        new ByteArrayInputStream(new byte[0]),
        new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()),
        Map.of("HOME", home.toString()),
        home);
  }

  private void socketAt(String socket) throws Exception {
    Path config = home.resolve(".kiro/crew/config.json");
    Files.createDirectories(config.getParent());
    Files.writeString(config, "{\"mcp_gateway\": {\"socket_path\": \"" + socket + "\"}}");
  }

  @Test
  void aCommandResolvesItsRecordsDirectoryOnceAndKeepsUsingIt() throws Exception {
    socketAt(home.resolve("first/gateway.sock").toString());
    RecordsOptions records = new RecordsOptions();
    CliContext ctx = context();

    RecordsDirectory first = records.resolve(ctx);
    // The configuration changes while the command runs: every later step still uses the
    // directory the command started with, and does not read the configuration again.
    socketAt(home.resolve("second/gateway.sock").toString());

    assertThat(first.path()).isEqualTo(home.resolve("first"));
    assertThat(first.rule()).isEqualTo(RecordsDirectory.Rule.SOCKET_PARENT);
    assertThat(records.resolve(ctx)).isSameAs(first);
    assertThat(records.resolveForReading(ctx)).isSameAs(first);
    assertThat(new RecordsOptions().resolve(ctx).path())
        .as("the command read the configuration once")
        .isEqualTo(home.resolve("first"));
    assertThat(new RecordsOptions().resolve(context()).path())
        .as("the next command reads it again")
        .isEqualTo(home.resolve("second"));
  }
}
