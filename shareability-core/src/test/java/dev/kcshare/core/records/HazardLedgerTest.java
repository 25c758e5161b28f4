package dev.kcshare.core.records;

import static dev.kcshare.core.records.HazardCodes.UNATTRIBUTABLE_NOTIFICATION;
import static dev.kcshare.core.records.HazardCodes.UNROUTABLE_SERVER_REQUEST;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * docs/design.md#ledger-in-memory: the in-memory ledger and the pure steps of the flush protocol.
 */
final class HazardLedgerTest {

  @Test
  void refusedRecordsStoreNothingAndDoNotDirty() {
    HazardLedger ledger = HazardLedger.create();
    assertThat(ledger.record("", UNROUTABLE_SERVER_REQUEST, "id", 1.0)).isFalse();
    assertThat(ledger.record("s", "typo", "id", 1.0)).isFalse();
    assertThat(ledger.record("s", "", "id", 1.0)).isFalse();
    assertThat(ledger.all()).isEmpty();
    assertThat(ledger.isDirty()).isFalse();
    assertThat(ledger.generation()).isZero();
  }

  @Test
  void recordReturnsTrueOnlyForANewCodeOfThatNameAndIdentity() {
    HazardLedger ledger = HazardLedger.create();
    assertThat(ledger.record("s", UNROUTABLE_SERVER_REQUEST, "id1", 10.0)).isTrue();
    assertThat(ledger.record("s", UNROUTABLE_SERVER_REQUEST, "id1", 11.0)).isFalse();
    assertThat(ledger.record("s", UNATTRIBUTABLE_NOTIFICATION, "id1", 12.0)).isTrue();
    assertThat(ledger.record("s", UNROUTABLE_SERVER_REQUEST, "id2", 13.0)).isTrue();
    assertThat(ledger.record("t", UNROUTABLE_SERVER_REQUEST, "id1", 14.0)).isTrue();
    assertThat(ledger.record("t", UNROUTABLE_SERVER_REQUEST, 15.0)).isTrue();
    assertThat(ledger.record("t", UNROUTABLE_SERVER_REQUEST, "", 16.0)).isFalse();
    assertThat(ledger.generation()).isEqualTo(7);
    LedgerSnapshot snapshot = ledger.snapshot();
    assertThat(snapshot.servers().get("s").get("id1"))
        .isEqualTo(
            HazardRecord.of(
                List.of(UNROUTABLE_SERVER_REQUEST, UNATTRIBUTABLE_NOTIFICATION), 3, 12.0));
    assertThat(snapshot.servers().get("t").get(""))
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), 2, 16.0));
  }

  @Test
  void lastSeenKeepsTheLatestTimeAndNonFiniteTimesCountAsZero() {
    HazardLedger ledger = HazardLedger.create();
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "", 20.0);
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "", 10.0);
    assertThat(ledger.snapshot().servers().get("s").get("").lastSeen()).isEqualTo(20.0);
    ledger.record("n", UNROUTABLE_SERVER_REQUEST, "", Double.NaN);
    assertThat(ledger.snapshot().servers().get("n").get("").lastSeen()).isEqualTo(0.0);
  }

  @Test
  void readsByIdentityAndByName() {
    HazardLedger ledger = HazardLedger.create();
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "old", 1.0);
    ledger.record("s", UNATTRIBUTABLE_NOTIFICATION, "", 2.0);
    assertThat(ledger.codesFor("s", "old")).containsExactly(UNROUTABLE_SERVER_REQUEST);
    assertThat(ledger.codesFor("s", "new")).isEmpty();
    assertThat(ledger.codesFor("other", "old")).isEmpty();
    assertThat(ledger.codesForName("s"))
        .containsExactly(UNATTRIBUTABLE_NOTIFICATION, UNROUTABLE_SERVER_REQUEST);
    assertThat(ledger.codesForName("other")).isEmpty();
    ledger.record("\ud83d\ude00", UNROUTABLE_SERVER_REQUEST, "", 1.0);
    ledger.record("\ufb01", UNROUTABLE_SERVER_REQUEST, "", 1.0);
    assertThat(List.copyOf(ledger.all().keySet())).containsExactly("s", "\ufb01", "\ud83d\ude00");
  }

  @Test
  void clearRemovesEveryIdentityAndRecordsAMarker() {
    HazardLedger ledger = HazardLedger.create();
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "a", 1.0);
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "b", 2.0);
    ledger.record("t", UNROUTABLE_SERVER_REQUEST, "a", 3.0);
    ledger.flushed(ledger.beginFlush());
    assertThat(ledger.clear("s", 100.0)).isTrue();
    assertThat(ledger.isDirty()).isTrue();
    assertThat(ledger.codesForName("s")).isEmpty();
    assertThat(ledger.codesForName("t")).containsExactly(UNROUTABLE_SERVER_REQUEST);
    assertThat(ledger.clearedMarkers()).containsExactly(Map.entry("s", 100.0));
    assertThat(ledger.snapshot().toDocument()).containsKey("cleared");
    // Nothing held here: the marker is still stamped (the file may hold other writers' records of
    // the name) and the ledger is dirty, so the next flush writes it.
    ledger.flushed(ledger.beginFlush());
    assertThat(ledger.clear("s", 200.0)).isFalse();
    assertThat(ledger.clear("never", 150.0)).isFalse();
    assertThat(ledger.isDirty()).isTrue();
    assertThat(ledger.clearedMarkers())
        .containsExactly(Map.entry("never", 150.0), Map.entry("s", 200.0));
    // A later observation is new evidence; an older clear never moves the marker back.
    assertThat(ledger.record("s", UNROUTABLE_SERVER_REQUEST, "a", 201.0)).isTrue();
    assertThat(ledger.clear("s", 50.0)).isTrue();
    assertThat(ledger.clearedMarkers()).containsEntry("s", 200.0);
  }

  @Test
  void aFlushCapturesTheGenerationBeforeSealing() {
    HazardLedger ledger = HazardLedger.create();
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "", 1.0);
    HazardLedger.FlushPlan plan = ledger.beginFlush();
    assertThat(plan.snapshot().generation()).isEqualTo(1);
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "", 2.0);
    // The write of the older plan succeeded, but a record landed meanwhile: still dirty.
    ledger.flushed(plan);
    assertThat(ledger.isDirty()).isTrue();
    assertThat(plan.snapshot().servers().get("s").get("").count()).isEqualTo(1);
    HazardLedger.FlushPlan next = ledger.beginFlush();
    ledger.flushed(next);
    assertThat(ledger.isDirty()).isFalse();
    assertThat(next.snapshot().servers().get("s").get("").count()).isEqualTo(2);
    // The snapshot is a stable copy.
    ledger.record("s", UNATTRIBUTABLE_NOTIFICATION, "", 3.0);
    assertThat(next.snapshot().servers().get("s").get("").codes())
        .containsExactly(UNROUTABLE_SERVER_REQUEST);
    assertThat(ledger.snapshot().servers().get("s").get("").count()).isEqualTo(3);
  }

  @Test
  void aFailedWriteKeepsItsObservationsForTheNext() {
    HazardLedger ledger = HazardLedger.create();
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "", 1.0);
    HazardLedger.FlushPlan failed = ledger.beginFlush();
    ledger.record("s", UNATTRIBUTABLE_NOTIFICATION, "", 5.0);
    ledger.flushFailed(failed);
    assertThat(ledger.isDirty()).isTrue();
    HazardLedger.FlushPlan retry = ledger.beginFlush();
    assertThat(retry.snapshot().servers().get("s").get(""))
        .isEqualTo(
            HazardRecord.of(
                List.of(UNROUTABLE_SERVER_REQUEST, UNATTRIBUTABLE_NOTIFICATION), 2, 5.0));
    ledger.flushed(retry);
    assertThat(ledger.isDirty()).isFalse();
    // Written once: a later write does not count them again.
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "", 6.0);
    assertThat(ledger.beginFlush().snapshot().servers().get("s").get("").count()).isEqualTo(3);
  }

  @Test
  void loadSwapsInTheFileWithoutDirtying() {
    LedgerLoad load =
        LedgerCodec.decode(
            Json.with(LedgerCodecTest.specExample(), "cleared", Json.obj("gone", 5.0)));
    HazardLedger ledger = HazardLedger.of(load);
    assertThat(ledger.isDirty()).isFalse();
    assertThat(ledger.snapshot().servers()).isEqualTo(load.servers());
    assertThat(ledger.clearedMarkers()).isEqualTo(load.cleared());
    assertThat(LedgerCodec.decode(ledger.snapshot().toDocument()).servers())
        .isEqualTo(load.servers());
    // Recording onto a loaded identity continues its count.
    String old = "<cmdhash>\u0000<envhash>\u0000<fp-old>";
    assertThat(ledger.record("files-mcp", UNROUTABLE_SERVER_REQUEST, old, 1712000400.0)).isFalse();
    assertThat(ledger.snapshot().servers().get("files-mcp").get(old).count()).isEqualTo(5);
    // A second load replaces everything.
    ledger.load(LedgerLoad.empty());
    assertThat(ledger.all()).isEmpty();
    assertThat(ledger.record("files-mcp", UNROUTABLE_SERVER_REQUEST, old, 1.0)).isTrue();
  }

  @Test
  void applyClearedDropsRecordsAtOrBeforeTheMarkerAndMergesMarkers() {
    HazardLedger ledger = HazardLedger.create();
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "a", 10.0);
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "b", 20.0);
    ledger.record("t", UNROUTABLE_SERVER_REQUEST, "a", 5.0);
    ledger.flushed(ledger.beginFlush());
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "c", 30.0); // not yet written

    Map<String, Double> markers = new TreeMap<>();
    markers.put("s", 20.0);
    markers.put("", 1e12);
    markers.put("nan", Double.NaN);
    markers.put("absent", 7.0);
    assertThat(ledger.applyCleared(markers)).isTrue();
    assertThat(ledger.isDirty()).isTrue();
    assertThat(ledger.snapshot().servers().get("s")).containsOnlyKeys("c");
    assertThat(ledger.codesForName("t")).containsExactly(UNROUTABLE_SERVER_REQUEST);
    assertThat(ledger.clearedMarkers())
        .containsExactly(Map.entry("absent", 7.0), Map.entry("s", 20.0));

    // The same markers again: nothing to drop, nothing advanced → not dirty.
    ledger.flushed(ledger.beginFlush());
    assertThat(ledger.applyCleared(markers)).isFalse();
    assertThat(ledger.isDirty()).isFalse();

    // An older marker never replaces a newer one.
    assertThat(ledger.applyCleared(Map.of("s", 15.0))).isFalse();
    assertThat(ledger.clearedMarkers()).containsEntry("s", 20.0);

    // A marker for a name with no records is merged without dirtying.
    assertThat(ledger.applyCleared(Map.of("fresh", 3.0))).isFalse();
    assertThat(ledger.isDirty()).isFalse();
    assertThat(ledger.clearedMarkers()).containsEntry("fresh", 3.0);

    // Every identity dropped → the name is absent.
    assertThat(ledger.applyCleared(Map.of("t", 5.0))).isTrue();
    assertThat(ledger.all()).containsOnlyKeys("s");
  }

  @Test
  void anAdvancedMarkerDropsEverythingWrittenBeforeItWhateverItsLastSeen() {
    HazardLedger ledger = HazardLedger.create();
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "a", 30.0);
    ledger.flushed(ledger.beginFlush());
    // Another process cleared "s" (removing it from the file) with a stamp below our written
    // record's lastSeen (an older build read its clock before waiting for the lock): the record
    // was in the file the clear emptied, so it is gone; a newer unwritten one survives.
    ledger.record("s", UNROUTABLE_SERVER_REQUEST, "b", 31.0);
    assertThat(ledger.applyCleared(Map.of("s", 20.0))).isTrue();
    assertThat(ledger.snapshot().servers().get("s")).containsOnlyKeys("b");
    assertThat(ledger.isDirty()).isTrue();
  }

  /**
   * Simulates docs/design.md#ledger-flush with several recording threads and a flusher that
   * repeatedly snapshots, encodes, "writes" (keeps the document) and marks persisted. After the
   * recorders stop and a last flush runs, the written document holds every observation and the
   * ledger is clean.
   */
  @Test
  void concurrentRecordsDuringFlushesLoseNothing() throws Exception {
    HazardLedger ledger = HazardLedger.create();
    int threads = 4;
    int perThread = 100_000;
    String[] names = {"a", "b", "c"};
    String[] identities = {"", "x", "y", "z"};
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> recorders = new ArrayList<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    int k = id * 7 + i;
                    String code =
                        (k % 5 == 0) ? UNATTRIBUTABLE_NOTIFICATION : UNROUTABLE_SERVER_REQUEST;
                    ledger.record(
                        names[k % names.length], code, identities[(k / 3) % identities.length], i);
                  }
                } catch (Throwable e) {
                  failure.set(e);
                }
              });
      thread.start();
      recorders.add(thread);
    }
    start.countDown();
    Map<String, Object> written = null;
    int flushes = 0;
    while (recorders.stream().anyMatch(Thread::isAlive)) {
      written = flush(ledger);
      flushes++;
    }
    for (Thread thread : recorders) {
      thread.join();
    }
    assertThat(failure.get()).isNull();
    if (ledger.isDirty()) {
      written = flush(ledger);
    }
    assertThat(ledger.isDirty()).isFalse();
    assertThat(flushes).isPositive();

    LedgerLoad reread = LedgerCodec.decode(written);
    long total = 0;
    for (SortedMap<String, HazardRecord> server : reread.servers().values()) {
      for (HazardRecord record : server.values()) {
        total += record.count();
      }
    }
    assertThat(total).isEqualTo((long) threads * perThread);
    assertThat(reread.servers()).containsOnlyKeys(names);
    for (String name : names) {
      assertThat(reread.servers().get(name)).containsOnlyKeys(identities);
    }
    assertThat(reread.servers()).isEqualTo(ledger.snapshot().servers());
  }

  private static Map<String, Object> flush(HazardLedger ledger) {
    HazardLedger.FlushPlan plan = ledger.beginFlush();
    Map<String, Object> document = plan.toDocument();
    ledger.flushed(plan);
    return document;
  }

  /**
   * Records racing {@link HazardLedger#applyCleared}: after the markers are applied once more (as
   * the next flush re-applies the file's markers), no observation at or before the last marker of a
   * name is counted, any later one is (at least one, with the latest time), and a name with
   * observations only before the marker is gone. Each thread records on its own name with times
   * from a shared logical clock; the main thread keeps applying markers at the current clock value.
   */
  @Test
  void recordsAreDroppedOnlyByMarkersAtOrAfterTheirTime() throws Exception {
    HazardLedger ledger = HazardLedger.create();
    AtomicLong clock = new AtomicLong();
    int threads = 3;
    int perThread = 100_000;
    long[][] times = new long[threads][perThread];
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> recorders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
                for (int i = 0; i < perThread; i++) {
                  long now = clock.incrementAndGet();
                  times[id][i] = now;
                  ledger.record("s" + id, UNROUTABLE_SERVER_REQUEST, "", now);
                }
              });
      thread.start();
      recorders.add(thread);
    }
    long[] last = new long[threads];
    int rounds = 0;
    start.countDown();
    while (recorders.stream().anyMatch(Thread::isAlive) && rounds < 2_000) {
      for (int t = 0; t < threads; t++) {
        last[t] = clock.get();
        ledger.applyCleared(Map.of("s" + t, (double) last[t]));
      }
      rounds++;
    }
    for (Thread thread : recorders) {
      thread.join();
    }
    for (int t = 0; t < threads; t++) {
      ledger.applyCleared(Map.of("s" + t, (double) last[t]));
    }
    LedgerSnapshot snapshot = ledger.snapshot();
    for (int t = 0; t < threads; t++) {
      long after = 0;
      long latest = 0;
      for (long time : times[t]) {
        if (time > last[t]) {
          after++;
          latest = Math.max(latest, time);
        }
      }
      HazardRecord record = snapshot.servers().getOrDefault("s" + t, new TreeMap<>()).get("");
      if (after == 0) {
        assertThat(record).as("thread %d: everything was cleared", t).isNull();
        continue;
      }
      assertThat(record).as("thread %d: %d observations after the clear", t, after).isNotNull();
      assertThat(record.count()).as("thread %d", t).isBetween(1L, after);
      assertThat(record.lastSeen()).as("thread %d", t).isEqualTo((double) latest);
    }
    assertThat(rounds).as("the race was exercised").isPositive();
  }
}
