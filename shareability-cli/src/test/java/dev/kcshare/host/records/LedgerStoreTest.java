package dev.kcshare.host.records;

import static dev.kcshare.core.records.HazardCodes.UNATTRIBUTABLE_NOTIFICATION;
import static dev.kcshare.core.records.HazardCodes.UNROUTABLE_SERVER_REQUEST;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardRecord;
import dev.kcshare.core.records.LedgerLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ledger writer bound to its file: the flush protocol (docs/design.md#ledger-flush) and the
 * cross-process clear.
 */
final class LedgerStoreTest {
  private static final String ID_A = "cmd-a\u0000env\u0000fp-a";
  private static final String ID_B = "cmd-b\u0000env\u0000fp-b";

  @TempDir Path dir;

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 3).map(i -> base + i);
  }

  /** A settable wall clock. */
  private static final class Clock {
    volatile double now;

    Clock(double now) {
      this.now = now;
    }

    double get() {
      return now;
    }
  }

  /** One planned record call. */
  record Call(String name, String code, String identity) {}

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void recordsRacingAFlushLoopAreAllWritten(long seed) throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    AtomicLong ticks = new AtomicLong(1_700_000_000_000L);
    LedgerStore store = new LedgerStore(file, () -> ticks.incrementAndGet() / 1000.0);
    SplittableRandom random = new SplittableRandom(seed);
    int recorders = 4;
    int callsPerRecorder = 3_000;
    List<List<Call>> plans = new ArrayList<>();
    // Expected (name, identity) -> [count, code mask]; few names and identities, so most calls are
    // repeats and several threads hit the same cell while new cells keep being published.
    Map<String, long[]> expected = new TreeMap<>();
    for (int t = 0; t < recorders; t++) {
      List<Call> plan = new ArrayList<>();
      for (int i = 0; i < callsPerRecorder; i++) {
        String name = "srv-" + random.nextInt(6);
        String identity = random.nextInt(4) == 0 ? "" : "id-" + random.nextInt(40);
        String code = HazardCodes.ALL.get(random.nextInt(2));
        plan.add(new Call(name, code, identity));
        long[] e = expected.computeIfAbsent(name + "/" + identity, k -> new long[2]);
        e[0]++;
        e[1] |= 1L << HazardCodes.ALL.indexOf(code);
      }
      plans.add(plan);
    }

    // Every new (name, identity, code) logs a warning by design; hundreds of them are noise here.
    ch.qos.logback.classic.Logger log =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LedgerStore.class);
    ch.qos.logback.classic.Level level = log.getLevel();
    log.setLevel(ch.qos.logback.classic.Level.ERROR);
    CyclicBarrier start = new CyclicBarrier(recorders + 1);
    AtomicBoolean recording = new AtomicBoolean(true);
    AtomicInteger flushes = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(recorders + 1);
    try {
      Future<?> flusher =
          pool.submit(
              () -> {
                start.await();
                while (recording.get()) {
                  assertThat(store.flush()).isTrue();
                  flushes.incrementAndGet();
                }
                return null;
              });
      List<Future<?>> recorderDone = new ArrayList<>();
      for (List<Call> plan : plans) {
        recorderDone.add(
            pool.submit(
                () -> {
                  start.await();
                  for (Call c : plan) {
                    store.record(c.name(), c.code(), c.identity());
                  }
                  return null;
                }));
      }
      for (Future<?> f : recorderDone) {
        f.get();
      }
      recording.set(false);
      flusher.get();
    } finally {
      pool.shutdownNow();
      log.setLevel(level);
    }
    assertThat(store.flush()).isTrue();
    assertThat(store.ledger().isDirty()).isFalse();

    LedgerLoad load = LedgerStore.read(file);
    assertThat(load.dropped()).isEmpty();
    Map<String, long[]> actual = new TreeMap<>();
    load.servers()
        .forEach(
            (name, identities) ->
                identities.forEach(
                    (identity, r) -> {
                      long mask = 0;
                      for (String code : r.codes()) {
                        mask |= 1L << HazardCodes.ALL.indexOf(code);
                      }
                      actual.put(name + "/" + identity, new long[] {r.count(), mask});
                    }));
    assertThat(actual.keySet()).as("seed=%d", seed).isEqualTo(expected.keySet());
    expected.forEach(
        (key, e) -> assertThat(actual.get(key)).as("seed=%d %s", seed, key).containsExactly(e));
    // The file equals the final in-memory state, lastSeen included.
    assertThat(load.servers()).isEqualTo(store.ledger().snapshot().servers());
    assertThat(flushes.get()).as("flushes that raced the recorders").isPositive();
  }

  @Test
  void aClearFromAnotherProcessSticksAgainstALiveWriter() throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    Clock clock = new Clock(100.0);
    LedgerStore writer = new LedgerStore(file, clock::get);
    writer.record("srv", UNROUTABLE_SERVER_REQUEST, ID_A);
    writer.record("srv", UNATTRIBUTABLE_NOTIFICATION, "");
    writer.record("other", UNATTRIBUTABLE_NOTIFICATION, ID_B);
    assertThat(writer.flush()).isTrue();
    assertThat(LedgerStore.read(file).servers()).containsKeys("srv", "other");

    assertThat(LedgerStore.clearInFile(file, "srv", 150.0)).isTrue();
    LedgerLoad afterClear = LedgerStore.read(file);
    assertThat(afterClear.servers()).containsOnlyKeys("other");
    assertThat(afterClear.cleared()).containsExactly(Map.entry("srv", 150.0));

    // The writer still holds srv in memory; its next flush, with nothing new recorded, drops it
    // and keeps the marker instead of resurrecting the cleared observations.
    assertThat(writer.ledger().codesForName("srv")).isNotEmpty();
    assertThat(writer.ledger().isDirty()).isFalse();
    assertThat(writer.flush()).isTrue();
    assertThat(writer.ledger().codesForName("srv")).isEmpty();
    LedgerLoad afterFlush = LedgerStore.read(file);
    assertThat(afterFlush.servers()).containsOnlyKeys("other");
    assertThat(afterFlush.cleared()).containsExactly(Map.entry("srv", 150.0));

    // An observation after the clear is new evidence and survives.
    clock.now = 200.0;
    writer.record("srv", UNATTRIBUTABLE_NOTIFICATION, ID_A);
    assertThat(writer.flush()).isTrue();
    LedgerLoad afterRecord = LedgerStore.read(file);
    assertThat(afterRecord.servers()).containsOnlyKeys("other", "srv");
    HazardRecord r = afterRecord.servers().get("srv").get(ID_A);
    assertThat(r.codes()).containsExactly(UNATTRIBUTABLE_NOTIFICATION);
    assertThat(r.count()).isEqualTo(1);
    assertThat(r.lastSeen()).isEqualTo(200.0);
    assertThat(afterRecord.servers().get("srv")).containsOnlyKeys(ID_A);
    assertThat(afterRecord.cleared()).containsExactly(Map.entry("srv", 150.0));

    // A fresh writer loading this file keeps the new observation and the marker.
    LedgerStore restarted = new LedgerStore(file, clock::get);
    restarted.load();
    assertThat(restarted.ledger().codesForName("srv")).containsExactly(UNATTRIBUTABLE_NOTIFICATION);
    assertThat(restarted.ledger().clearedMarkers()).containsExactly(Map.entry("srv", 150.0));
  }

  @Test
  void anObservationBetweenTheClearAndTheWritersFlushSurvivesIt() throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    Clock clock = new Clock(100.0);
    LedgerStore writer = new LedgerStore(file, clock::get);
    writer.record("srv", UNROUTABLE_SERVER_REQUEST, ID_A);
    writer.record("srv", UNROUTABLE_SERVER_REQUEST, ID_B);
    assertThat(writer.flush()).isTrue();

    LedgerStore.clearInFile(file, "srv", 150.0);
    clock.now = 160.0;
    writer.record("srv", UNATTRIBUTABLE_NOTIFICATION, ID_B); // after the clear, before the flush
    assertThat(writer.flush()).isTrue();

    SortedMap<String, HazardRecord> srv = LedgerStore.read(file).servers().get("srv");
    // ID_A was last seen before the clear: gone. ID_B was seen after it: kept, as a whole record.
    assertThat(srv).containsOnlyKeys(ID_B);
    assertThat(srv.get(ID_B).lastSeen()).isEqualTo(160.0);
    assertThat(srv.get(ID_B).codes()).contains(UNATTRIBUTABLE_NOTIFICATION);
  }

  @Test
  void clearInFileStampsTheMarkerEvenWithoutEntriesAndKeepsTheLaterOne() throws Exception {
    Path file = dir.resolve("new").resolve(RecordsDirectory.LEDGER_FILE);
    assertThat(LedgerStore.clearInFile(file, "ghost", 300.0)).isFalse();
    assertThat(LedgerStore.read(file).cleared()).containsExactly(Map.entry("ghost", 300.0));
    assertThat(LedgerStore.clearInFile(file, "ghost", 200.0)).isFalse();
    assertThat(LedgerStore.read(file).cleared()).containsExactly(Map.entry("ghost", 300.0));
    assertThat(LedgerStore.clearInFile(file, "ghost", Double.NaN)).isFalse();
    assertThat(LedgerStore.read(file).cleared()).containsExactly(Map.entry("ghost", 300.0));
  }

  @Test
  void aCleanWriterTouchesNoFileAndALoadDoesNotDirty() throws Exception {
    Path file = dir.resolve("sub").resolve(RecordsDirectory.LEDGER_FILE);
    LedgerStore writer = new LedgerStore(file, () -> 1.0);
    assertThat(writer.flush()).isTrue();
    assertThat(file).doesNotExist();
    assertThat(file.getParent()).as("no directory, no lock file for a clean writer").doesNotExist();

    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        "{\"schema\": 1, \"servers\": {\"s\": {\"codes\": [\"unroutable_server_request\"],"
            + " \"count\": 2, \"lastSeen\": 1700.0}}}");
    String before = Files.readString(file);
    writer.load();
    assertThat(writer.ledger().isDirty()).isFalse();
    assertThat(writer.flush()).isTrue();
    assertThat(Files.readString(file)).isEqualTo(before);
    assertThat(writer.ledger().codesFor("s", "")).containsExactly(UNROUTABLE_SERVER_REQUEST);
  }

  @Test
  void refusedRecordsStoreNothing() throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    LedgerStore writer = new LedgerStore(file, () -> 1.0);
    assertThat(writer.record("", UNROUTABLE_SERVER_REQUEST, "")).isFalse();
    assertThat(writer.record("srv", "unroutable_server_requests", "")).isFalse();
    assertThat(writer.ledger().isDirty()).isFalse();
    assertThat(writer.flush()).isTrue();
    assertThat(file).doesNotExist();
    assertThat(new TreeSet<>(writer.ledger().all().keySet())).isEmpty();
  }

  /** The file's count for {@code name}, over every identity. */
  private static long countOnDisk(Path file, String name) {
    SortedMap<String, HazardRecord> ids = LedgerStore.read(file).servers().get(name);
    return ids == null ? 0 : ids.values().stream().mapToLong(HazardRecord::count).sum();
  }

  /**
   * The reported scenario, driven step by step on one injected clock: a writer records for X and
   * flushes every 100 ms; every 2 s {@code kcshare hazards clear X} reads its clock, then waits for
   * the lock while the writer flushes one more observation, then clears. After every flush the file
   * holds exactly the observations recorded after the last clear.
   */
  @Test
  void aClearThatWaitedForAFlushIsAPointInTimeInEverySnapshot() throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    Clock clock = new Clock(1_800_000_000.0);
    LedgerStore writer = new LedgerStore(file, clock::get);
    long sinceClear = 0;
    int snapshots = 0;
    for (int tick = 1; tick <= 222; tick++) {
      clock.now += 0.1;
      double clearReadsItsClock = clock.now;
      writer.record("x", UNROUTABLE_SERVER_REQUEST, "id");
      sinceClear++;
      assertThat(writer.flush()).isTrue();
      if (tick % 20 == 0) {
        // The observation just flushed was made before the clear took the lock.
        LedgerStore.clearInFile(file, "x", () -> clearReadsItsClock - 0.05);
        sinceClear = 0;
      }
      clock.now += 0.001;
      writer.record("x", UNROUTABLE_SERVER_REQUEST, "id");
      sinceClear++;
      assertThat(writer.flush()).isTrue();
      assertThat(countOnDisk(file, "x")).as("snapshot %d", tick).isEqualTo(sinceClear);
      snapshots++;
    }
    assertThat(snapshots).isEqualTo(222);
  }

  @Test
  void anInProcessClearCoversWhatAnotherWriterFlushedBeforeIt() throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    Clock clock = new Clock(1_800_000_000.0);
    // The other writer's clock runs ahead: its flushed record is stamped after our clock reading.
    LedgerStore other = new LedgerStore(file, () -> clock.get() + 5.0);
    LedgerStore clearing = new LedgerStore(file, clock::get);
    for (int i = 0; i < 3; i++) {
      other.record("x", UNROUTABLE_SERVER_REQUEST, "id");
    }
    assertThat(other.flush()).isTrue();
    assertThat(clearing.clear("x")).isFalse();
    assertThat(countOnDisk(file, "x")).isZero();
    clock.now += 10.0;
    other.record("x", UNROUTABLE_SERVER_REQUEST, "id");
    assertThat(other.flush()).isTrue();
    assertThat(clearing.flush()).isTrue();
    assertThat(countOnDisk(file, "x")).isEqualTo(1);
  }

  @Test
  void aFlushWritesBackTheMembersThisVersionDoesNotKnow() throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    Files.writeString(
        file,
        "{\"schema\": 1, \"servers\": {\"kept\": {\"identities\": {\"id\": {\"codes\":"
            + " [\"unroutable_server_request\"], \"count\": 2, \"lastSeen\": 10.0,"
            + " \"firstSeen\": 4}}, \"codes\": [\"unroutable_server_request\"], \"count\": 2,"
            + " \"lastSeen\": 10.0, \"note\": {\"by\": [1e3, null]}}}, \"x-top\": \"v\"}");
    Map<?, ?> was = (Map<?, ?>) RecordFile.read(file).root();
    LedgerStore writer = new LedgerStore(file, new Clock(20.0)::get);
    writer.record("other", UNROUTABLE_SERVER_REQUEST, "");
    assertThat(writer.flush()).isTrue();
    Map<?, ?> now = (Map<?, ?>) RecordFile.read(file).root();
    Map<?, ?> wasKept = (Map<?, ?>) ((Map<?, ?>) was.get("servers")).get("kept");
    Map<?, ?> nowKept = (Map<?, ?>) ((Map<?, ?>) now.get("servers")).get("kept");
    assertThat(nowKept.get("note")).isEqualTo(wasKept.get("note"));
    assertThat(((Map<?, ?>) ((Map<?, ?>) nowKept.get("identities")).get("id")).get("firstSeen"))
        .isEqualTo(4);
    assertThat(now.get("x-top")).isEqualTo("v");
    assertThat(LedgerStore.read(file).servers()).containsOnlyKeys("kept", "other");
  }
}
