package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class CompletionCommandTest {
  @TempDir Path dir;

  @Test
  void bashScriptCompletesEverySubcommandAndItsOptions() {
    CliRun r = CliRun.run(dir, "completion", "bash");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.stdout())
        .startsWith("#!/usr/bin/env bash")
        .contains("complete -F _complete_kcshare")
        .contains("_picocli_kcshare_seed")
        .contains("_picocli_kcshare_stub")
        .contains("_picocli_kcshare_unstub")
        .contains("_picocli_kcshare_config")
        .contains("--resolve-eligibility")
        .contains("--apply");
    for (String sub : new String[] {"seed", "stub", "unstub", "config", "records", "completion"}) {
      assertThat(r.stdout()).as(sub).containsPattern("commands=.*\\b" + sub + "\\b");
    }
  }

  @Test
  void zshGetsTheSameFunctionBehindAUsageNote() {
    String bash = CliRun.run(dir, "completion", "bash").stdout();
    CliRun r = CliRun.run(dir, "completion", "ZSH");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).startsWith("# kcshare completion for zsh.").endsWith(bash);
  }

  @Test
  void anotherShellIsAUsageError() {
    CliRun r = CliRun.run(dir, "completion", "fish");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).contains("expected bash or zsh");
  }
}
