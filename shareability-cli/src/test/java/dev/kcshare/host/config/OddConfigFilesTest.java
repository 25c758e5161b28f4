package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.api.ConfigRequest;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileReads;
import dev.kcshare.host.config.ConfigSamples.Layout;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration files obey the record files' rule (docs/config.md#errors-and-skipped-files): only a
 * regular file up to 256 MiB is read, and that is decided before anything is opened. A named pipe
 * nobody writes would block any reader that opened it, so each test here has its own timeout: a
 * regression fails instead of hanging the build (on a separate thread: an open of a pipe cannot be
 * interrupted).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class OddConfigFilesTest {
  private static final long TWO_GIB = 2L * 1024 * 1024 * 1024;

  @TempDir Path root;

  private static void mkfifo(Path path) throws Exception {
    Files.createDirectories(path.getParent());
    Process p;
    try {
      p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("mkfifo is not available");
      return;
    }
    Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo failed");
  }

  private static void sparse(Path path, long size) throws IOException {
    Files.createDirectories(path.getParent());
    try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
      f.setLength(size);
    }
  }

  private static void linkTo(Path link, String target) throws IOException {
    Assumptions.assumeTrue(Files.exists(Path.of(target)), target);
    Files.createDirectories(link.getParent());
    Files.createSymbolicLink(link, Path.of(target));
  }

  private static HostConfig discover(Layout l) {
    return HostConfigLoader.load(
        l.context(l.env()).host(), ConfigRequest.discovery(), Platform.LINUX);
  }

  private static HostConfig named(Layout l, String file) {
    return HostConfigLoader.load(
        l.context(l.env()).host(), ConfigRequest.files(List.of(file)), Platform.LINUX);
  }

  @Test
  void aDiscoveredNamedPipeIsSkippedWithoutBeingOpened() throws Exception {
    Layout l = ConfigSamples.empty(root);
    mkfifo(l.home().resolve(".cursor/mcp.json"));
    assertThat(discover(l).skipped())
        .containsExactly("~/.cursor/mcp.json: not a regular file (a named pipe)");
  }

  @Test
  void aNamedPipeNamedWithConfigIsAnError() throws Exception {
    Layout l = ConfigSamples.empty(root);
    mkfifo(l.workspace().resolve("fifo.json"));
    assertThat(named(l, "fifo.json").errors())
        .containsExactly("fifo.json: not a regular file (a named pipe)");
  }

  @Test
  void aDeviceInPlaceOfAConfigIsSkippedWithoutBeingRead() throws Exception {
    Layout l = ConfigSamples.empty(root);
    linkTo(l.home().resolve(".cursor/mcp.json"), "/dev/zero");
    linkTo(l.workspace().resolve(".mcp.json"), "/dev/urandom");
    assertThat(discover(l).skipped())
        .containsExactlyInAnyOrder(
            "~/.cursor/mcp.json: not a regular file (a character device)",
            ".mcp.json: not a regular file (a character device)");
  }

  @Test
  void aSparseFileOverTheBoundIsRefusedByItsStatSize() throws Exception {
    Layout l = ConfigSamples.empty(root);
    sparse(l.home().resolve(".cursor/mcp.json"), TWO_GIB);
    sparse(l.workspace().resolve("big.json"), TWO_GIB);
    // The size in the message is the one stat reported: nothing was read to learn it.
    assertThat(discover(l).skipped())
        .containsExactly("~/.cursor/mcp.json: larger than 256 MiB (2147483648 bytes)");
    assertThat(named(l, "big.json").errors())
        .containsExactly("big.json: larger than 256 MiB (2147483648 bytes)");
  }

  @Test
  void aNamedPipeAsEnvFileIsANoteWithoutBeingOpened() throws Exception {
    Layout l = ConfigSamples.empty(root);
    mkfifo(l.workspace().resolve("vars.env"));
    l.write(
        l.workspace().resolve(".vscode/mcp.json"),
        "{\"servers\": {\"s\": {\"command\": \"npx\", \"envFile\": \"vars.env\"}}}");
    HostConfig c = discover(l);
    assertThat(c.skipped()).isEmpty();
    assertThat(String.join("\n", c.files().stream().flatMap(f -> f.warnings().stream()).toList()))
        .contains("/vars.env: not a regular file (a named pipe); VS Code would not start");
  }

  @Test
  void envFilesAndTheKiroCrewConfigFollowTheSameRule() throws Exception {
    Path fifo = root.resolve("fifo");
    mkfifo(fifo);
    assertThatThrownBy(() -> EnvFiles.read(fifo))
        .isInstanceOf(IOException.class)
        .hasMessage("not a regular file (a named pipe)");
    Path big = root.resolve("big.env");
    sparse(big, EnvFiles.MAX_BYTES + 1L);
    assertThatThrownBy(() -> EnvFiles.read(big))
        .isInstanceOf(IOException.class)
        .hasMessage("larger than 4 MiB (4194305 bytes)");

    Path crew = root.resolve("home/.kiro/crew/config.json");
    mkfifo(crew);
    assertThatThrownBy(() -> KiroCrewConfig.gatewaySettings(new FileReads(), crew))
        .isInstanceOf(BadInputException.class)
        .hasMessage(crew + ": not a regular file (a named pipe)");
    assertThatThrownBy(() -> ConfigEditor.open(crew))
        .isInstanceOf(BadInputException.class)
        .hasMessage(crew + ": not a regular file (a named pipe)");
  }
}
