package dev.kcshare.core.records;

import static dev.kcshare.core.records.HazardCodes.UNATTRIBUTABLE_NOTIFICATION;
import static dev.kcshare.core.records.HazardCodes.UNROUTABLE_SERVER_REQUEST;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/design.md#ledger-flush and docs/design.md#clearing: several writers of one ledger file merge
 * at every flush, and a clear is a point in time. The file is simulated by a document in memory,
 * each flush runs the steps a writer runs under the file lock, and a cross-process clear rewrites
 * the document as {@code kcshare hazards clear} does.
 */
final class LedgerMergeTest {
  private @Nullable Map<String, Object> file;

  private LedgerLoad read() {
    return file == null ? LedgerLoad.empty() : LedgerCodec.decode(file);
  }

  /** One flush of {@code writer} against the shared file. */
  private void flush(HazardLedger writer) {
    HazardLedger.FlushPlan plan = writer.mergeForFlush(read());
    if (plan != null) {
      file = plan.toDocument();
      writer.flushed(plan);
    }
  }

  /** {@code kcshare hazards clear NAME} at {@code now}, from another process. */
  private void clearInFile(String name, double now) {
    file = LedgerCodec.encodeCleared(read(), name, now);
  }

  private @Nullable HazardRecord onDisk(String name, String identity) {
    var identities = read().servers().get(name);
    return identities == null ? null : identities.get(identity);
  }

  private static HazardLedger writer(LedgerLoad load) {
    return HazardLedger.of(load);
  }

  @Test
  void twoWritersKeepEachOthersRecordsAndTheirCountsAddUp() {
    HazardLedger a = writer(read());
    HazardLedger b = writer(read());
    a.record("only-a", UNROUTABLE_SERVER_REQUEST, "id", 10.0);
    b.record("only-b", UNATTRIBUTABLE_NOTIFICATION, "id", 11.0);
    for (int i = 0; i < 3; i++) {
      a.record("both", UNROUTABLE_SERVER_REQUEST, "id", 20.0 + i);
    }
    for (int i = 0; i < 4; i++) {
      b.record("both", UNATTRIBUTABLE_NOTIFICATION, "id", 30.0 + i);
    }
    flush(a);
    flush(b);
    assertThat(read().servers()).containsOnlyKeys("only-a", "only-b", "both");
    assertThat(onDisk("both", "id"))
        .isEqualTo(
            HazardRecord.of(
                List.of(UNROUTABLE_SERVER_REQUEST, UNATTRIBUTABLE_NOTIFICATION), 7, 33.0));

    // More from each, flushed in the other order: still exact, and a reader of the file sees all.
    a.record("both", UNROUTABLE_SERVER_REQUEST, "id", 40.0);
    b.record("both", UNROUTABLE_SERVER_REQUEST, "id", 41.0);
    flush(b);
    flush(a);
    assertThat(onDisk("both", "id").count()).isEqualTo(9);
    assertThat(onDisk("both", "id").lastSeen()).isEqualTo(41.0);
    // Each writer has absorbed the other's records.
    assertThat(a.codesForName("only-b")).containsExactly(UNATTRIBUTABLE_NOTIFICATION);
  }

  @Test
  void aWriterBuiltWithoutLoadingWipesNothing() {
    HazardLedger first = writer(read());
    first.record("s", UNROUTABLE_SERVER_REQUEST, "id", 1.0);
    flush(first);
    HazardLedger unloaded = HazardLedger.create();
    unloaded.record("t", UNROUTABLE_SERVER_REQUEST, "id", 2.0);
    flush(unloaded);
    assertThat(read().servers()).containsOnlyKeys("s", "t");
  }

  @Test
  void countsAndLastSeenNeverMoveBackwards() {
    HazardLedger a = writer(read());
    a.record("s", UNROUTABLE_SERVER_REQUEST, "id", 50.0);
    a.record("s", UNROUTABLE_SERVER_REQUEST, "id", 51.0);
    flush(a);
    // A writer that does not merge (the Python gateway holding an older copy) rewrites it lower.
    file =
        LedgerCodec.encode(
            Map.of(
                "s",
                new TreeMap<>(
                    Map.of("id", HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), 1, 40.0)))),
            Map.of());
    a.record("s", UNATTRIBUTABLE_NOTIFICATION, "id", 52.0);
    flush(a);
    assertThat(onDisk("s", "id"))
        .isEqualTo(
            HazardRecord.of(
                List.of(UNROUTABLE_SERVER_REQUEST, UNATTRIBUTABLE_NOTIFICATION), 3, 52.0));
  }

  @Test
  void aClearFromAnotherProcessCoversEverythingBeforeItWhateverTheWriterHeld() {
    HazardLedger live = writer(read());
    // Flushed before the clear (baseline), and recorded but not flushed (pending).
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 10.0);
    flush(live);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 12.0);
    live.record("s", UNATTRIBUTABLE_NOTIFICATION, "id", 14.0);
    clearInFile("s", 20.0);
    // After the clear: two new observations of one code.
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 30.0);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 31.5);
    flush(live);
    assertThat(onDisk("s", "id"))
        .as("only what came after the clear, counted alone")
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), 2, 31.5));
    assertThat(read().cleared()).containsEntry("s", 20.0);

    // Nothing after the clear: the name stays gone.
    HazardLedger quiet = writer(LedgerLoad.empty());
    quiet.record("q", UNROUTABLE_SERVER_REQUEST, "id", 5.0);
    flush(quiet);
    clearInFile("q", 6.0);
    quiet.record("other", UNROUTABLE_SERVER_REQUEST, "id", 7.0); // dirty for another reason
    flush(quiet);
    assertThat(read().servers()).doesNotContainKey("q");
  }

  @Test
  void aStaleWriterNeverResurrectsAClearedServer() {
    HazardLedger first = writer(read());
    first.record("s", UNROUTABLE_SERVER_REQUEST, "id", 10.0);
    flush(first);
    HazardLedger stale = writer(read()); // loaded s before the clear
    clearInFile("s", 20.0);
    stale.record("t", UNROUTABLE_SERVER_REQUEST, "id", 25.0);
    flush(stale);
    assertThat(read().servers()).containsOnlyKeys("t");
    assertThat(stale.codesForName("s")).isEmpty();
  }

  @Test
  void anInProcessClearRemovesWhatOtherWritersWrote() {
    HazardLedger other = writer(read());
    other.record("s", UNROUTABLE_SERVER_REQUEST, "id", 10.0);
    flush(other);
    HazardLedger clearing = writer(LedgerLoad.empty()); // never saw "s"
    assertThat(clearing.clear("s", 20.0)).isFalse();
    flush(clearing);
    assertThat(read().servers()).doesNotContainKey("s");
    assertThat(read().cleared()).containsEntry("s", 20.0);
    // The other writer, holding "s" in memory, drops it at its next flush instead of writing it.
    other.record("u", UNROUTABLE_SERVER_REQUEST, "id", 21.0);
    flush(other);
    assertThat(read().servers()).containsOnlyKeys("u");
  }

  @Test
  void aClearBetweenCloseObservationsCountsOnlyThoseAfterIt() {
    HazardLedger live = writer(read());
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 100.0);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 100.3);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 100.6);
    clearInFile("s", 100.4);
    flush(live);
    // 100.6 is after the clear; 100.0 and 100.3, less than a second earlier, are never counted.
    assertThat(onDisk("s", "id"))
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), 1, 100.6));
  }

  @Test
  void aClearStampedBeforeAWriterFlushedCoversWhatTheFileHeldWhenItRan() {
    // kcshare hazards clear reads its clock, then waits for the lock while the writer flushes an
    // observation made after that reading: the file it clears holds a record newer than its stamp.
    HazardLedger live = writer(read());
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 10.0);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 11.0);
    flush(live);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 12.0);
    flush(live);
    clearInFile("s", 11.5);
    assertThat(read().cleared().get("s"))
        .as("the stamp covers everything the file held")
        .isGreaterThanOrEqualTo(12.0);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 13.0);
    flush(live);
    assertThat(onDisk("s", "id"))
        .as("only the observation made after the clear")
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), 1, 13.0));
  }

  @Test
  void aWriterDropsItsWholeBaselineWhenAClearRemovedItFromTheFile() {
    // A clear written by an older build, stamped below what the file held: the file no longer
    // holds this writer's records, so none of them is written back.
    HazardLedger live = writer(read());
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 10.0);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 12.0);
    flush(live);
    file = LedgerCodec.encode(Map.of(), Map.of("s", 11.0));
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 13.0);
    flush(live);
    assertThat(onDisk("s", "id"))
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), 1, 13.0));
  }

  @Test
  void observationsCloserThanASecondAreCountedExactlyAroundAClear() {
    HazardLedger live = writer(read());
    for (int i = 0; i < 10; i++) {
      live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 100.0 + i * 0.1);
    }
    clearInFile("s", 100.45);
    flush(live);
    assertThat(onDisk("s", "id"))
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), 5, 100.0 + 9 * 0.1));
  }

  /**
   * The scenario generalised: two writers recording at sub-second intervals on a shared
   * clock (one of them skewed ahead), flushing (sometimes failing to write), and clears from
   * another process whose clock reading may be stale (read before it waited for the lock) or
   * behind, and clears inside a writer. After every step, no name's count in the file exceeds the
   * observations stamped after its latest clear; with one clock read under the lock, every
   * observation made before a clear is covered by its stamp; and once every writer has flushed,
   * each count is exactly the observations stamped after the clear.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void aClearIsAPointInTimeUnderEveryInterleaving(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String[] names = {"x", "y"};
    String[] identities = {"", "i"};
    String[] codes = {UNROUTABLE_SERVER_REQUEST, UNATTRIBUTABLE_NOTIFICATION};
    HazardLedger[] writers = {writer(LedgerLoad.empty()), writer(LedgerLoad.empty())};
    double[] skew = {0.0, random.nextBoolean() ? 0.0 : 0.75};
    // Every observation so far: name, its recorded time.
    List<Object[]> observations = new java.util.ArrayList<>();
    double now = 1000.0;
    for (int step = 0; step < 400; step++) {
      double[] steps = {0.0, 0.001, 0.05, 0.1, 0.4, 1.3};
      now += steps[random.nextInt(steps.length)];
      int action = random.nextInt(20);
      int wi = random.nextInt(writers.length);
      HazardLedger w = writers[wi];
      String name = names[random.nextInt(names.length)];
      if (action < 11) {
        double time = now + skew[wi];
        w.record(
            name,
            codes[random.nextInt(codes.length)],
            identities[random.nextInt(identities.length)],
            time);
        observations.add(new Object[] {name, time});
      } else if (action < 17) {
        HazardLedger.FlushPlan plan = w.mergeForFlush(read());
        if (plan != null) {
          if (random.nextInt(4) == 0) {
            w.flushFailed(plan); // the write failed: nothing reached the file
          } else {
            file = plan.toDocument();
            w.flushed(plan);
          }
        }
      } else if (action < 19) {
        double[] stale = {0.0, 0.0, 0.05, 0.5, 2.0};
        double lag = stale[random.nextInt(stale.length)];
        clearInFile(name, now - lag);
        if (lag == 0.0 && skew[1] == 0.0) { // one clock, read under the lock
          assertCovered(observations, name);
        }
      } else {
        HazardLedger.FlushPlan plan = w.clearForFlush(read(), name, now + skew[wi]);
        file = plan.toDocument();
        w.flushed(plan);
        if (skew[1] == 0.0) {
          assertCovered(observations, name);
        }
      }
      assertNoCountAboveWhatFollowedTheClear(observations, names, false);
    }
    for (int round = 0; round < 2; round++) {
      for (HazardLedger w : writers) {
        flush(w);
      }
    }
    assertNoCountAboveWhatFollowedTheClear(observations, names, true);
    for (HazardLedger w : writers) {
      assertThat(w.isDirty()).isFalse();
    }
  }

  /** Every observation of {@code name} made so far is at or before its latest clear's stamp. */
  private void assertCovered(List<Object[]> observations, String name) {
    double stamp = read().cleared().get(name);
    for (Object[] o : observations) {
      if (o[0].equals(name)) {
        assertThat((double) o[1])
            .as("an observation made before the clear")
            .isLessThanOrEqualTo(stamp);
      }
    }
  }

  private void assertNoCountAboveWhatFollowedTheClear(
      List<Object[]> observations, String[] names, boolean exactly) {
    LedgerLoad disk = read();
    for (String name : names) {
      Double stamp = disk.cleared().get(name);
      long after = 0;
      for (Object[] o : observations) {
        if (o[0].equals(name) && (stamp == null || (double) o[1] > stamp)) {
          after++;
        }
      }
      long count = 0;
      var ids = disk.servers().get(name);
      if (ids != null) {
        for (HazardRecord r : ids.values()) {
          count += r.count();
        }
      }
      if (exactly) {
        assertThat(count)
            .as("%s: observations after its clear at %s", name, stamp)
            .isEqualTo(after);
      } else {
        assertThat(count)
            .as("%s: observations after its clear at %s", name, stamp)
            .isLessThanOrEqualTo(after);
      }
    }
  }

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261201L);
    return LongStream.range(base, base + 20);
  }

  /**
   * Random interleavings of three writers (recording, flushing, clearing in process) and clears
   * from another process, with observations at least a second apart: after every writer's final
   * flush the file holds, per (name, identity), exactly the observations made after the last clear
   * of the name — every writer's, none before.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void randomInterleavingsLoseNothingAndResurrectNothing(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String[] names = {"a", "b"};
    String[] identities = {"", "x"};
    String[] codes = {UNROUTABLE_SERVER_REQUEST, UNATTRIBUTABLE_NOTIFICATION};
    HazardLedger[] writers = {
      writer(LedgerLoad.empty()), writer(LedgerLoad.empty()), writer(LedgerLoad.empty())
    };
    Map<String, Double> lastClear = new TreeMap<>();
    // name/identity -> [count after the last clear, latest time]
    Map<String, long[]> expectedCount = new TreeMap<>();
    Map<String, Double> expectedLatest = new TreeMap<>();
    Map<String, Integer> expectedCodes = new TreeMap<>();
    double now = 1000.0;
    for (int step = 0; step < 300; step++) {
      now += 1.0 + random.nextInt(3);
      int action = random.nextInt(10);
      HazardLedger w = writers[random.nextInt(writers.length)];
      String name = names[random.nextInt(names.length)];
      if (action < 6) {
        String identity = identities[random.nextInt(identities.length)];
        int c = random.nextInt(codes.length);
        w.record(name, codes[c], identity, now);
        String key = name + "/" + identity;
        expectedCount.computeIfAbsent(key, k -> new long[1])[0]++;
        expectedLatest.put(key, now);
        expectedCodes.merge(key, HazardCodes.bit(codes[c]), (x, y) -> x | y);
      } else if (action < 9) {
        flush(w);
      } else {
        if (random.nextBoolean()) {
          clearInFile(name, now);
        } else {
          // In process, as LedgerStore clears: drop from memory, stamp, and write at once.
          w.clear(name, now);
          flush(w);
        }
        lastClear.put(name, now);
        expectedCount.keySet().removeIf(k -> k.startsWith(name + "/"));
        expectedLatest.keySet().removeIf(k -> k.startsWith(name + "/"));
        expectedCodes.keySet().removeIf(k -> k.startsWith(name + "/"));
      }
    }
    for (int round = 0; round < 2; round++) {
      for (HazardLedger w : writers) {
        flush(w);
      }
    }
    LedgerLoad disk = read();
    for (String name : names) {
      for (String identity : identities) {
        String key = name + "/" + identity;
        var ids = disk.servers().get(name);
        HazardRecord got = ids == null ? null : ids.get(identity);
        if (!expectedCount.containsKey(key)) {
          assertThat(got).as("%s: nothing after its last clear", key).isNull();
          continue;
        }
        assertThat(got).as(key).isNotNull();
        assertThat(got.count()).as("%s count", key).isEqualTo(expectedCount.get(key)[0]);
        assertThat(got.lastSeen()).as("%s lastSeen", key).isEqualTo(expectedLatest.get(key));
        assertThat(got.mask()).as("%s codes", key).isEqualTo(expectedCodes.get(key));
      }
    }
    for (HazardLedger w : writers) {
      assertThat(w.isDirty()).isFalse();
    }
  }
}
