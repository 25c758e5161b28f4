package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class MainTest {
  @TempDir Path dir;

  @Test
  void helpListsCommandsAndExitCodes() {
    CliRun r = CliRun.run(dir, "--help");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).contains("assess", "preflight", "Exit codes:", "bad usage or bad input");
    assertThat(r.stderr()).isEmpty();
  }

  @Test
  void versionNamesTheProgram() {
    CliRun r = CliRun.run(dir, "--version");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).startsWith("kcshare ");
  }

  @Test
  void unknownOptionIsAUsageError() {
    CliRun r = CliRun.run(dir, "assess", "--evidence", "e.json", "--no-such-option");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("--no-such-option").contains("kcshare assess --help");
  }

  @Test
  void noCommandIsAUsageError() {
    CliRun r = CliRun.run(dir);
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("missing command");
  }

  @Test
  void unknownCommandIsAUsageError() {
    CliRun r = CliRun.run(dir, "frobnicate");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
  }
}
