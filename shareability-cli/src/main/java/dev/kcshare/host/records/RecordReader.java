package dev.kcshare.host.records;

import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.LedgerLoad;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * How reports read the record files: {@link #FILES} reads them with {@link RecordFile}; an
 * instrumentation seam for tests that count reads.
 */
public interface RecordReader {
  /** The ledger file, decoding only the servers {@code names} accepts. */
  RecordFile.Loaded<LedgerLoad> ledger(Path file, Predicate<String> names);

  /** The cache file, decoding only the rows {@code names} accepts. */
  RecordFile.Loaded<CacheLoad> cache(Path file, Predicate<String> names);

  /** Reads the files with {@link RecordFile}. */
  RecordReader FILES =
      new RecordReader() {
        @Override
        public RecordFile.Loaded<LedgerLoad> ledger(Path file, Predicate<String> names) {
          return RecordFile.readLedger(file, names);
        }

        @Override
        public RecordFile.Loaded<CacheLoad> cache(Path file, Predicate<String> names) {
          return RecordFile.readCache(file, names);
        }
      };
}
