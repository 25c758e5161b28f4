package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a pre-flight's teardown reads of the host (docs/performance.md#the-group-sweep-2026-12-04):
 * the sweep of a server's process group reads the {@code stat} of no process older than the server
 * while the kernel's pid counter cannot have wrapped, so a host's other processes are read once per
 * pass (by the look for the pass's token), not once per sweep.
 */
final class GroupSweepIT {
  @TempDir Path dir;

  @Test
  void processesOlderThanTheServerAreReadOncePerPass() throws Exception {
    Path strace = Kcshare.strace();
    Assumptions.assumeTrue(ItProcesses.onPath("node").isPresent(), "node is not on PATH");
    Path config = Kcshare.fixtureConfig(dir);
    List<Process> older = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        older.add(new ProcessBuilder("sleep", "120").start());
      }
      Path trace = dir.resolve("trace");
      Kcshare.Result r =
          Kcshare.run(
              dir,
              Map.of(),
              "",
              List.of(strace.toString(), "-f", "-qq", "-e", "trace=openat", "-o", trace.toString()),
              "measure",
              "f",
              "--config",
              config.toString(),
              "--records-dir",
              dir.resolve("r").toString());
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      List<String> lines;
      try (Stream<String> s = Files.lines(trace)) {
        lines = s.toList();
      }
      for (Process p : older) {
        String stat = "\"/proc/" + p.pid() + "/stat\"";
        assertThat(lines.stream().filter(l -> l.contains(stat)).count())
            .as("opens of %s", stat)
            .isLessThanOrEqualTo(1);
      }
    } finally {
      older.forEach(Process::destroyForcibly);
    }
  }
}
