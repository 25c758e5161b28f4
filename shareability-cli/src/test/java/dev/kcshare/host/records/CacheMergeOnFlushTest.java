package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.CacheCodec;
import dev.kcshare.core.records.CacheLoad;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cache session's flush merges with the file as it is then (docs/design.md#cache-flush): a writer
 * that takes no lock (the Python gateway) and stores a row while a kcshare pass runs keeps it.
 */
final class CacheMergeOnFlushTest {
  @TempDir Path dir;

  @Test
  void aRowStoredBehindTheSessionsBackSurvivesItsFlush() throws Exception {
    Path file = dir.resolve(RecordsDirectory.CACHE_FILE);
    RecordFile.write(
        file, CacheCodec.encode(Map.of("old", CacheWriterChild.row("old")), List.of("old")));
    try (CacheStore.Session session = CacheStore.open(file, null)) {
      // The gateway's own pass writes the whole file, without kcshare's lock.
      CacheLoad seen = CacheStore.read(file);
      TreeMap<String, dev.kcshare.core.records.CacheRow> rows = new TreeMap<>(seen.rows());
      rows.put("python", CacheWriterChild.row("python"));
      RecordFile.write(file, CacheCodec.encode(rows, Set.of("old", "python")));

      session.cache().put("kcshare", CacheWriterChild.row("kcshare"));
      assertThat(session.flush()).isTrue();
    }
    CacheLoad after = CacheStore.read(file);
    assertThat(after.rows()).containsOnlyKeys("kcshare", "old", "python");
    assertThat(after.applied()).isEqualTo(new TreeSet<>(Set.of("old", "python")));
  }
}
