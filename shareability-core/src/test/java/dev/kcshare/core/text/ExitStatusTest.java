package dev.kcshare.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class ExitStatusTest {
  @Test
  void ordinaryStatuses() {
    assertThat(ExitStatus.describe(0)).isEqualTo("exit 0");
    assertThat(ExitStatus.describe(1)).isEqualTo("exit 1");
    assertThat(ExitStatus.describe(127)).isEqualTo("exit 127");
    assertThat(ExitStatus.describe(128)).isEqualTo("exit 128");
    assertThat(ExitStatus.phrase(1)).isEqualTo("exited with status 1");
  }

  @Test
  void statusesAbove128AreSignalsAsTheJvmReportsThem() {
    assertThat(ExitStatus.describe(137)).isEqualTo("signal 9 (SIGKILL)");
    assertThat(ExitStatus.describe(143)).isEqualTo("signal 15 (SIGTERM)");
    assertThat(ExitStatus.describe(128 + 40)).isEqualTo("signal 40");
    assertThat(ExitStatus.phrase(139)).isEqualTo("killed by signal 11 (SIGSEGV)");
    assertThat(ExitStatus.describe(255)).isEqualTo("exit 255");
  }
}
