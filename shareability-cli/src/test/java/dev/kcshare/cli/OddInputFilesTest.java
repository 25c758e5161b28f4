package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A document named on the command line ({@code assess --evidence FILE}) is read only when it is a
 * regular file up to 256 MiB, decided before it is opened: anything else is bad input, one line,
 * exit 2. Each test has its own timeout, so a reader that opened the pipe fails instead of hanging.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class OddInputFilesTest {
  @TempDir Path dir;

  private CliRun assess(String file) {
    return CliRun.run(dir, "assess", "--evidence", file);
  }

  private static void assertRefused(CliRun r, String line) {
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).isEqualTo("kcshare: " + line + "\n");
  }

  @Test
  void aNamedPipeIsRefusedWithoutBeingOpened() throws Exception {
    Process p;
    try {
      p = new ProcessBuilder("mkfifo", dir.resolve("e.json").toString()).start();
    } catch (IOException e) {
      Assumptions.abort("mkfifo is not available");
      return;
    }
    Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo failed");
    assertRefused(assess("e.json"), "e.json: not a regular file (a named pipe)");
  }

  @Test
  void aDeviceIsRefusedWithoutBeingRead() {
    Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")), "/dev/zero");
    assertRefused(assess("/dev/zero"), "/dev/zero: not a regular file (a character device)");
  }

  @Test
  void aSparseFileOverTheBoundIsRefusedByItsStatSize() throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve("e.json").toFile(), "rw")) {
      f.setLength(2L * 1024 * 1024 * 1024);
    }
    assertRefused(assess("e.json"), "e.json: larger than 256 MiB (2147483648 bytes)");
  }
}
