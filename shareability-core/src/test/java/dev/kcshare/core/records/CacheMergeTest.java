package dev.kcshare.core.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.Era;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/design.md#cache-flush for the verdict cache: a write applies this writer's changes to the
 * file as it is now, so rows another writer stored meanwhile are kept.
 */
final class CacheMergeTest {
  private static final String ID = "a\u0000e\u0000fp\u00002";

  private static CacheRow row(String version, double at) {
    return new CacheRow(true, false, List.of(), at, ID, version, Era.LEGACY, null);
  }

  private static CacheLoad disk(Map<String, CacheRow> rows, Set<String> applied) {
    TreeSet<String> markers = new TreeSet<>(applied);
    return new CacheLoad(new TreeMap<>(rows), markers, List.of());
  }

  @Test
  void rowsAndMarkersAnotherWriterStoredMeanwhileAreKept() {
    VerdictCache cache = VerdictCache.of(disk(Map.of("old", row("1", 1.0)), Set.of("old")));
    cache.put("mine", row("1", 2.0));
    cache.markApplied("mine");
    // Meanwhile another writer (one that takes no lock) stored "theirs" and marked it applied.
    CacheLoad now =
        disk(Map.of("old", row("1", 1.0), "theirs", row("1", 3.0)), Set.of("old", "theirs"));
    VerdictCache.Merge merge = cache.merge(now);
    assertThat(merge.rows()).containsOnlyKeys("old", "mine", "theirs");
    assertThat(merge.applied()).containsExactly("mine", "old", "theirs");
    cache.written(merge);
    assertThat(cache.isDirty()).isFalse();
    assertThat(cache.serverNames()).containsExactly("mine", "old", "theirs");
  }

  @Test
  void ownRowsReplaceTheirsAndADroppedRowStaysDroppedUnlessReMeasured() {
    VerdictCache cache =
        VerdictCache.of(disk(Map.of("a", row("1", 1.0), "b", row("1", 1.0)), Set.of()));
    cache.put("a", row("1", 5.0));
    // Version changed: both dropped here.
    assertThat(cache.get("b", ID, "2").outcome()).isEqualTo(CacheLookup.Outcome.VERSION_CHANGED);
    // The file still holds the dropped row of "b": it goes. "a" from another writer: ours wins.
    VerdictCache.Merge merge =
        cache.merge(disk(Map.of("a", row("1", 4.0), "b", row("1", 1.0)), Set.of()));
    assertThat(merge.rows()).containsOnlyKeys("a");
    assertThat(merge.rows().get("a").evaluatedAt()).isEqualTo(5.0);

    // Another writer re-measured "b" after this cache read it: its new row is kept.
    VerdictCache again = VerdictCache.of(disk(Map.of("b", row("1", 1.0)), Set.of()));
    again.get("b", ID, "2");
    VerdictCache.Merge kept = again.merge(disk(Map.of("b", row("2", 9.0)), Set.of()));
    assertThat(kept.rows()).containsOnlyKeys("b");
    assertThat(kept.rows().get("b").reportedVersion()).isEqualTo("2");
  }

  @Test
  void untouchedRowsAreTheFilesAndAChangeDuringTheWriteStaysDirty() {
    VerdictCache cache = VerdictCache.of(disk(Map.of("gone", row("1", 1.0)), Set.of()));
    cache.put("mine", row("1", 2.0));
    // Another writer removed "gone" (a version drop of its own): not brought back.
    VerdictCache.Merge merge = cache.merge(disk(Map.of(), Set.of()));
    assertThat(merge.rows()).containsOnlyKeys("mine");
    cache.put("late", row("1", 3.0)); // lands while the merged document is being written
    cache.written(merge);
    assertThat(cache.isDirty()).isTrue();
    assertThat(cache.serverNames()).containsExactly("late", "mine");
    assertThat(cache.merge(disk(merge.rows(), Set.of())).rows()).containsOnlyKeys("late", "mine");
  }

  @Test
  void aDroppedRowWithADeeplyNestedHandshakeIsComparedWithoutRecursion() {
    Map<String, Object> deep = new java.util.LinkedHashMap<>();
    Map<String, Object> cursor = deep;
    for (int i = 0; i < 20_000; i++) {
      Map<String, Object> next = new java.util.LinkedHashMap<>();
      cursor.put("x", next);
      cursor = next;
    }
    StoredHandshake handshake = new StoredHandshake(deep, "2024-11-05", Map.of(), List.of(), true);
    CacheRow nested = new CacheRow(true, false, List.of(), 1.0, ID, "1", Era.LEGACY, handshake);
    VerdictCache cache = VerdictCache.of(disk(Map.of("s", nested), Set.of()));
    assertThat(cache.get("s", ID, "2").outcome()).isEqualTo(CacheLookup.Outcome.VERSION_CHANGED);
    assertThat(cache.merge(disk(Map.of("s", nested), Set.of())).rows()).isEmpty();
  }
}
