package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.LedgerLoad;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crash consistency of the ledger writer (docs/design.md#ledger-flush,
 * docs/design.md#writing-files): child JVMs flush in a tight loop and are SIGKILLed at random
 * moments, 200 times in all. After every kill the file must parse with kcshare's own reader and
 * codec without a single dropped entry, must hold every observation a child reported flushed (and
 * everything an earlier check saw), and may hold at most one leftover temporary file — the killed
 * writer's, which the next successful write removes.
 *
 * <p>Eight lanes run in parallel, each on its own records directory; within a lane each child
 * starts from the surviving file and continues the numbering, so each lane is one long history of
 * kills.
 */
final class LedgerCrashTest {
  private static final int LANES = 8;
  private static final int KILLS_PER_LANE = 25;
  private static final long CHILD_LIMIT_SECONDS = 60;

  /** Far more than a child gets to do before it is killed; it only bounds a runaway child. */
  private static final int MAX_FLUSHES = 100_000;

  static LongStream seed() {
    return LongStream.of(Long.getLong("kcshare.seed", 20261130L));
  }

  /** What one lane saw, for the summary line. */
  record LaneStats(int leftovers, int observations) {}

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seed")
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void killedWritersNeverTearTheLedgerNorLoseAFlushedHazard(long seed, @TempDir Path root)
      throws Exception {
    ChildJvm jvm =
        ChildJvm.prepare(
            root.resolve("jvm"),
            LedgerFlushChild.class,
            root.resolve("warm-up").resolve(RecordsDirectory.LEDGER_FILE).toString(),
            "3");
    ExecutorService pool = Executors.newFixedThreadPool(LANES);
    try {
      List<Future<LaneStats>> lanes = new ArrayList<>();
      for (int i = 0; i < LANES; i++) {
        long laneSeed = seed + i;
        Path dir = root.resolve("lane-" + i);
        Path stderr = root.resolve("lane-" + i + ".stderr");
        lanes.add(
            pool.submit(
                () -> {
                  try {
                    return lane(jvm, laneSeed, dir, stderr);
                  } catch (AssertionError e) {
                    throw new AssertionError(
                        e.getMessage() + "\nchild stderr:\n" + tail(stderr), e);
                  }
                }));
      }
      int leftovers = 0;
      int observations = 0;
      for (Future<LaneStats> lane : lanes) {
        LaneStats s = lane.get();
        leftovers += s.leftovers();
        observations += s.observations();
      }
      int kills = LANES * KILLS_PER_LANE;
      // Informational: how many kills landed between a temporary file's creation and its rename.
      System.out.printf(
          "LedgerCrashTest seed=%d: %d kills, %d left a temporary file behind, %d observations%n",
          seed, kills, leftovers, observations);
    } finally {
      pool.shutdownNow();
    }
  }

  private static LaneStats lane(ChildJvm jvm, long seed, Path dir, Path stderr) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    int onDisk = 0;
    int leftovers = 0;
    for (int kill = 0; kill < KILLS_PER_LANE; kill++) {
      int waitFlushes = 1 + random.nextInt(3);
      long spinNanos = random.nextLong(3_000_000);
      String where = "seed=" + seed + " kill=" + kill;
      int confirmed;
      Process child =
          jvm.start(LedgerFlushChild.class, stderr, file.toString(), Integer.toString(MAX_FLUSHES));
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String ready = out.readLine();
        assertThat(ready).as(where).isEqualTo("ready " + onDisk);
        confirmed = -1;
        for (int seen = 0; seen < waitFlushes; seen++) {
          confirmed = flushed(out.readLine(), where);
        }
        long until = System.nanoTime() + spinNanos;
        while (System.nanoTime() < until) {
          Thread.onSpinWait();
        }
        // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe.
        assertThat(child.toHandle().destroyForcibly()).as(where).isTrue();
        assertThat(child.waitFor(CHILD_LIMIT_SECONDS, TimeUnit.SECONDS)).as(where).isTrue();
        // The JVM reports death by signal N as 128 + N: the child was killed mid-loop, not done
        // with its flushes (which would test nothing about crashes).
        assertThat(child.exitValue()).as("%s: the child was SIGKILLed", where).isEqualTo(128 + 9);
        // Lines the child printed before it died: those flushes completed too.
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          confirmed = flushed(line, where);
        }
      } finally {
        child.destroyForcibly();
      }

      RecordFile.Read read = RecordFile.read(file);
      assertThat(read.exists()).as(where).isTrue();
      assertThat(read.problem()).as(where).isNull();
      LedgerLoad load = LedgerCodec.decode(read.root());
      assertThat(load.dropped()).as(where).isEmpty();
      int observations = LedgerFlushChild.observations(load);
      assertThat(observations)
          .as("%s: every reported flush and every earlier observation survives", where)
          .isGreaterThan(confirmed)
          .isGreaterThanOrEqualTo(onDisk);
      for (int n = 0; n < observations; n++) {
        assertThat(LedgerFlushChild.holds(load, n)).as("%s: observation %d", where, n).isTrue();
      }
      onDisk = observations;

      List<String> temporaries = temporaries(dir);
      assertThat(temporaries).as(where).hasSizeLessThanOrEqualTo(1);
      leftovers += temporaries.size();
    }
    return new LaneStats(leftovers, onDisk);
  }

  private static int flushed(String line, String where) {
    assertThat(line).as("%s: the child died early", where).isNotNull().startsWith("flushed ");
    return Integer.parseInt(line.substring("flushed ".length()));
  }

  private static String tail(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      return text.substring(Math.max(0, text.length() - 4000));
    } catch (IOException e) {
      return "(none: " + e + ")";
    }
  }

  private static List<String> temporaries(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".tmp"))
          .sorted()
          .toList();
    }
  }
}
