package dev.kcshare.host.prober;

import dev.kcshare.core.cost.SessionCost;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One session-cost sample of a live server tree, as the pre-flight takes it before teardown: the
 * fixture server alone ({@code plain}, one node process) and behind a node launcher that forks it
 * ({@code wrapped}, two). Needs node and Linux.
 *
 * <p>Run: {@code ./mvnw -B -ntp -o -Pbench -pl shareability-cli verify -DskipTests
 * -Djmh.args="-f 1 -wi 2 -i 3 -w 2s -r 2s -t 1 FootprintBenchmark"}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FootprintBenchmark {
  @Param({"plain", "wrapped"})
  public String tree = "plain";

  private @Nullable Process server;
  private long pid;
  private final Footprint footprint = Footprint.system();

  /** Starts the fixture server (it waits on its stdin) and lets it settle. */
  @Setup(Level.Trial)
  public void setUp() throws IOException, InterruptedException {
    Path script =
        Path.of(System.getProperty("kcshare.fixtures", "../src-it/fixtures"))
            .resolve("mcp-fixture.mjs")
            .toAbsolutePath();
    ProcessBuilder pb =
        tree.equals("wrapped")
            ? new ProcessBuilder("node", script.toString(), "stable", "--fork", "1")
            : new ProcessBuilder("node", script.toString(), "stable");
    server = pb.redirectErrorStream(true).start();
    Thread.sleep(1500);
    pid = server.pid();
    SessionCost first = footprint.sample(pid, 0, 1);
    long expected = tree.equals("wrapped") ? 2 : 1;
    if (first.processes().orElse(-1) != expected) {
      throw new IllegalStateException("expected " + expected + " processes: " + first);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    if (server != null) {
      server.descendants().forEach(ProcessHandle::destroyForcibly);
      server.destroyForcibly();
      server.waitFor();
    }
  }

  @Benchmark
  public SessionCost sample() {
    return footprint.sample(pid, 0, 1);
  }
}
