package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group sweep's reads (docs/performance.md#the-group-sweep-2026-12-04): the members of a
 * process group at or above a pid, and the counts that decide that pid.
 */
final class ProcFsGroupTest {
  @TempDir Path root;

  @Test
  void aSweepFromAPidReadsNoLowerPid() {
    FakeProc proc = new FakeProc(root);
    proc.process(5).group(10).write(); // below the leader: only a wrapped pid counter puts it there
    proc.process(10).group(10).write();
    proc.process(12).group(10).write();
    proc.process(14).group(99).write();

    assertThat(proc.procFs().group(10)).extracting(ProcFs.Stat::pid).containsOnly(5L, 10L, 12L);
    assertThat(proc.procFs().group(10, 0)).extracting(ProcFs.Stat::pid).containsOnly(5L, 10L, 12L);
    assertThat(proc.procFs().group(10, 10)).extracting(ProcFs.Stat::pid).containsOnly(10L, 12L);
  }

  @Test
  void theCountsComeFromStatLoadavgAndPidMax() throws Exception {
    ProcFs proc = ProcFs.at(root);
    assertThat(proc.forks()).isEqualTo(-1);
    assertThat(proc.tasks()).isEqualTo(-1);
    assertThat(proc.pidMax()).isEqualTo(-1);

    Files.writeString(root.resolve("stat"), "cpu  1 2 3\nprocesses 4821\nprocs_running 1\n");
    Files.writeString(root.resolve("loadavg"), "0.00 0.01 0.05 1/97 4820\n");
    Files.createDirectories(root.resolve("sys/kernel"));
    Files.writeString(root.resolve("sys/kernel/pid_max"), "32768\n");
    ProcFs fresh = ProcFs.at(root);
    assertThat(fresh.forks()).isEqualTo(4821);
    assertThat(fresh.tasks()).isEqualTo(97);
    assertThat(fresh.pidMax()).isEqualTo(32768);
  }

  @Test
  void thisHostSaysAllThree() {
    ProcFs proc = ProcFs.system();
    org.junit.jupiter.api.Assumptions.assumeTrue(proc.available(), "no /proc");
    assertThat(proc.forks()).isPositive();
    assertThat(proc.tasks()).isPositive();
    assertThat(proc.pidMax()).isGreaterThan(ProcessHandle.current().pid());
  }
}
