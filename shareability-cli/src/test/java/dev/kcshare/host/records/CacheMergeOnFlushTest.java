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

  @Test
  void rowsAndMembersThisBuildDoesNotUnderstandAreWrittenBackAsRead() throws Exception {
    Path file = dir.resolve(RecordsDirectory.CACHE_FILE);
    // As a newer build or the gateway might leave it: another server's row under a newer entry
    // schema, a row with a member of its own, a number written as an integer, and a top-level
    // member of its own; in the gateway's formatting (sorted keys, no era).
    String text =
        "{\"applied\": [], \"entries\": {"
            + "\"future\": {\"evaluatedAt\": 1712000000, \"identity\":"
            + " \"a\\u0000b\\u0000c\\u0000d\\u00003\", \"ran\": true,"
            + " \"verdict\": {\"tier\": \"S\", \"w\": [1e3, -0.5, null, \"\\u00e9\"]}},"
            + "\"annotated\": {\"callerSensitive\": false, \"evaluatedAt\": 5.5, \"identity\":"
            + " \"a\\u0000b\\u0000c\\u0000d\\u00002\", \"note\": {}, \"ran\": true,"
            + " \"reasons\": [], \"reportedVersion\": \"1\"}},"
            + " \"x-gateway\": {\"since\": 3}}";
    java.nio.file.Files.writeString(file, text);
    Object before = RecordFile.read(file).root();

    try (CacheStore.Session session = CacheStore.open(file, null)) {
      session.cache().put("kcshare", CacheWriterChild.row("kcshare"));
      assertThat(session.flush()).isTrue();
    }
    Map<?, ?> was = (Map<?, ?>) before;
    Map<?, ?> now = (Map<?, ?>) RecordFile.read(file).root();
    Map<?, ?> wasEntries = (Map<?, ?>) was.get("entries");
    Map<?, ?> nowEntries = (Map<?, ?>) now.get("entries");
    assertThat(new TreeSet<Object>(nowEntries.keySet()))
        .containsExactly("annotated", "future", "kcshare");
    assertThat(nowEntries.get("future")).isEqualTo(wasEntries.get("future"));
    assertThat(nowEntries.get("annotated")).isEqualTo(wasEntries.get("annotated"));
    assertThat(now.get("x-gateway")).isEqualTo(was.get("x-gateway"));
    // The row this build reads is still read.
    assertThat(CacheStore.read(file).rows()).containsOnlyKeys("annotated", "kcshare");
  }
}
