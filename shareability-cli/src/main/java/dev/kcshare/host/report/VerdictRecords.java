package dev.kcshare.host.report;

import dev.kcshare.core.records.LedgerView;
import dev.kcshare.core.records.VerdictCache;
import java.util.Objects;

/**
 * The two record files as verdicts are assessed from them, each read once and tolerantly (a bad
 * file reads as nothing observed, or not measured). Obtained from {@link
 * RecordViews#readVerdictRecords()}; the cache is this read's own copy, so changing it changes
 * nothing on disk.
 *
 * @param ledger the hazard ledger file as read (read-only)
 * @param cache the verdict cache file as read
 */
public record VerdictRecords(LedgerView ledger, VerdictCache cache) {
  /**
   * Validates.
   *
   * @throws NullPointerException if an argument is null
   */
  public VerdictRecords {
    Objects.requireNonNull(ledger, "ledger");
    Objects.requireNonNull(cache, "cache");
  }
}
