package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.CacheLoad;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers of the verdict cache never drop each other's rows (docs/design.md#locks): each holds the
 * cache lock from its read through its flush, across processes and across threads.
 */
final class CacheStoreConcurrencyTest {
  private static final int SESSIONS = 150;

  @TempDir Path dir;

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void twoProcessesWritingAtOnceLoseNoRow() throws Exception {
    Path file = dir.resolve(RecordsDirectory.CACHE_FILE);
    ChildJvm jvm =
        ChildJvm.prepare(
            dir.resolve("jvm"),
            CacheWriterChild.class,
            dir.resolve("warm-up").resolve(RecordsDirectory.CACHE_FILE).toString(),
            "w",
            "3");
    List<Process> children = new ArrayList<>();
    List<BufferedReader> outputs = new ArrayList<>();
    try {
      for (String prefix : List.of("a", "b")) {
        Process p =
            jvm.start(
                CacheWriterChild.class,
                dir.resolve(prefix + ".stderr"),
                file.toString(),
                prefix,
                Integer.toString(SESSIONS));
        children.add(p);
        outputs.add(
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
      }
      for (BufferedReader out : outputs) {
        assertThat(out.readLine()).isEqualTo("ready");
      }
      for (Process p : children) {
        try (OutputStream in = p.getOutputStream()) {
          in.write("go\n".getBytes(StandardCharsets.UTF_8));
        }
      }
      for (int i = 0; i < children.size(); i++) {
        assertThat(outputs.get(i).readLine()).as("child %d", i).isEqualTo("done");
        assertThat(children.get(i).waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(children.get(i).exitValue()).isZero();
      }
    } finally {
      children.forEach(Process::destroyForcibly);
    }
    assertHoldsEveryRow(file, List.of("a", "b"), SESSIONS);
  }

  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void threadsWritingAtOnceLoseNoRow() throws Exception {
    Path file = dir.resolve(RecordsDirectory.CACHE_FILE);
    List<String> prefixes = List.of("t0", "t1", "t2", "t3");
    int sessions = 40;
    CyclicBarrier start = new CyclicBarrier(prefixes.size());
    ExecutorService pool = Executors.newFixedThreadPool(prefixes.size());
    try {
      List<Future<?>> done = new ArrayList<>();
      for (String prefix : prefixes) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < sessions; i++) {
                    CacheWriterChild.session(file, prefix + "-" + i);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertHoldsEveryRow(file, prefixes, sessions);
  }

  @Test
  void aSessionThatChangedNothingTouchesNoFile() throws Exception {
    Path file = dir.resolve("sub").resolve(RecordsDirectory.CACHE_FILE);
    try (CacheStore.Session session = CacheStore.open(file, null)) {
      assertThat(session).isNotNull();
      session.cache().markApplied(""); // ignored: not a change
      assertThat(session.flush()).isFalse();
    }
    assertThat(file).doesNotExist();
  }

  @Test
  void aHeldSessionMakesABoundedOpenGiveUp() throws Exception {
    Path file = dir.resolve(RecordsDirectory.CACHE_FILE);
    ExecutorService other = Executors.newSingleThreadExecutor();
    try (CacheStore.Session held = CacheStore.open(file, null)) {
      assertThat(held).isNotNull();
      Future<CacheStore.Session> attempt =
          other.submit(() -> CacheStore.open(file, java.time.Duration.ZERO));
      assertThat(attempt.get(30, TimeUnit.SECONDS)).isNull();
    } finally {
      other.shutdownNow();
    }
  }

  private static void assertHoldsEveryRow(Path file, List<String> prefixes, int sessions) {
    RecordFile.Read read = RecordFile.read(file);
    assertThat(read.problem()).isNull();
    CacheLoad load = CacheStore.read(file);
    assertThat(load.dropped()).isEmpty();
    TreeSet<String> expected = new TreeSet<>();
    for (String prefix : prefixes) {
      for (int i = 0; i < sessions; i++) {
        expected.add(prefix + "-" + i);
      }
    }
    assertThat(new TreeSet<>(load.rows().keySet())).isEqualTo(expected);
    assertThat(new TreeSet<>(load.applied())).isEqualTo(expected);
    load.rows().forEach((name, row) -> assertThat(row).isEqualTo(CacheWriterChild.row(name)));
  }
}
