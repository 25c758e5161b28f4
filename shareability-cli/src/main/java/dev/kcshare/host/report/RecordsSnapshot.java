package dev.kcshare.host.report;

import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.LedgerLoad;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What the records directory holds, read once for display ({@code kcshare records}): the two record
 * files, kcshare's memory of failed pre-flights and the registry of processes a pass left running.
 * Obtained from {@link RecordViews#readRecords()}; immutable.
 *
 * @param directory the records directory, absolute
 * @param ledger the hazard ledger ({@code observed-hazards.json})
 * @param cache the verdict cache ({@code shareability-verdicts.json})
 * @param attempts the failed pre-flights ({@code kcshare-attempts.json}): the names of the servers
 *     that could not be measured, in file order
 * @param processFile the process registry ({@code kcshare-processes.json})
 * @param processFileExists the registry exists (a link counts as existing)
 * @param processes how many server processes the registry lists: of a running pass, or left by a
 *     killed one
 */
public record RecordsSnapshot(
    Path directory,
    RecordFileRead<LedgerLoad> ledger,
    RecordFileRead<CacheLoad> cache,
    RecordFileRead<List<String>> attempts,
    Path processFile,
    boolean processFileExists,
    int processes) {
  /**
   * Validates and copies.
   *
   * @throws NullPointerException if an argument is null
   */
  public RecordsSnapshot {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(ledger, "ledger");
    Objects.requireNonNull(cache, "cache");
    Objects.requireNonNull(attempts, "attempts");
    Objects.requireNonNull(processFile, "processFile");
  }
}
