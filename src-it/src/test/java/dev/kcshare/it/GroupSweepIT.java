package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
    long pidMax = Long.parseLong(proc("sys/kernel/pid_max").strip());
    // The rule holds only while the pid counter cannot wrap; on a host whose counter is near
    // pid_max (32768 on many), an attempt may straddle a wrap, or come too near it for kcshare to
    // rule one out. Such an attempt proves nothing: the counter is then made to wrap, by starting
    // short processes, and the attempt is made again far from pid_max.
    for (int attempt = 1; ; attempt++) {
      Counts before = Counts.now();
      List<Process> older = new ArrayList<>();
      try {
        for (int i = 0; i < 20; i++) {
          older.add(new ProcessBuilder("sleep", "120").start());
        }
        Path trace = dir.resolve("trace-" + attempt);
        Kcshare.Result r =
            Kcshare.run(
                dir,
                Map.of(),
                "",
                List.of(
                    strace.toString(), "-f", "-qq", "-e", "trace=openat", "-o", trace.toString()),
                "measure",
                "f",
                "--config",
                config.toString(),
                "--records-dir",
                dir.resolve("r").toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        if (!before.noWrapUntil(Counts.now(), pidMax)) {
          assertThat(attempt).as("attempts that straddled a pid counter wrap").isLessThan(3);
          wrapThePidCounter(pidMax);
          continue;
        }
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
        return;
      } finally {
        older.forEach(Process::destroyForcibly);
      }
    }
  }

  /** Starts short processes until the kernel's pid counter has wrapped past pid_max. */
  private static void wrapThePidCounter(long pidMax) throws Exception {
    long from = Counts.now().lastPid();
    for (long i = 0; i < pidMax && Counts.now().lastPid() >= from; i++) {
      new ProcessBuilder("true").start().waitFor();
    }
  }

  /**
   * The kernel's last pid handed out ({@code /proc/loadavg}), tasks created since boot ({@code
   * /proc/stat}) and tasks that exist ({@code /proc/loadavg}).
   */
  private record Counts(long lastPid, long forks, long tasks) {
    static Counts now() throws IOException {
      String[] load = proc("loadavg").strip().split(" ");
      long forks = -1;
      for (String line : proc("stat").split("\n")) {
        if (line.startsWith("processes ")) {
          forks = Long.parseLong(line.substring("processes ".length()).strip());
        }
      }
      long tasks = Long.parseLong(load[3].substring(load[3].indexOf('/') + 1));
      return new Counts(Long.parseLong(load[4]), forks, tasks);
    }

    /**
     * Whether the counter cannot have wrapped between this read and {@code after}, with room to
     * spare for what kcshare's own rule asks (docs/design.md#teardown): so the idle processes,
     * started after this read, have pids below the server's, and kcshare read only pids above it.
     */
    boolean noWrapUntil(Counts after, long pidMax) {
      long created = after.forks - forks;
      return after.lastPid > lastPid && after.lastPid + 3 * created + tasks < pidMax;
    }
  }

  /** A {@code /proc} file's text, in one read (a {@code /proc/sys} file answers only one). */
  private static String proc(String name) throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("/proc", name))) {
      return new String(in.readNBytes(1 << 20), StandardCharsets.ISO_8859_1);
    }
  }
}
