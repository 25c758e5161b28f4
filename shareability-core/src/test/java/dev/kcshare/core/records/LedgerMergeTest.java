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
  void aClearInsideOneSecondWindowCountsOnlyTheLastObservationAfterIt() {
    HazardLedger live = writer(read());
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 100.0);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 100.3);
    live.record("s", UNROUTABLE_SERVER_REQUEST, "id", 100.6);
    clearInFile("s", 100.4);
    flush(live);
    // 100.6 is certainly after the clear; 100.0 and 100.3 (in the same window) are never counted.
    assertThat(onDisk("s", "id"))
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), 1, 100.6));
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
