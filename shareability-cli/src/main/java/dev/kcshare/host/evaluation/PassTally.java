package dev.kcshare.host.evaluation;

import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.records.internal.FailedAttempts;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.prober.ProbeOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * The results of a pass as they complete: stored in the cache, remembered in the failed attempts,
 * counted and reported (docs/design.md#progress).
 */
final class PassTally {
  private final VerdictCache cache;
  private final FailedAttempts attempts;

  /** Whether a failure counts toward the backoff: not in a pass of servers named explicitly. */
  private final boolean failuresCount;

  private final int total;
  private final PassProgress.Listener listener;
  private final DoubleSupplier clock;
  private final List<PassResult.Measured> fresh = new ArrayList<>();
  private int done;
  private int measured;

  /**
   * @param total the servers due
   * @param clock wall-clock epoch seconds, for the failed attempts
   */
  PassTally(
      VerdictCache cache,
      FailedAttempts attempts,
      boolean failuresCount,
      int total,
      PassProgress.Listener listener,
      DoubleSupplier clock) {
    this.cache = cache;
    this.attempts = attempts;
    this.failuresCount = failuresCount;
    this.total = total;
    this.listener = listener;
    this.clock = clock;
  }

  /** Stores, counts and reports one completed server. */
  void count(Measurement m) {
    PassResult.Measured r = store(m);
    fresh.add(r);
    done++;
    if (r.stored()) {
      measured++;
    }
    listener.onFinished(r);
    listener.onProgress(new Results.PassProgress(true, done, measured, total));
  }

  /** The final counters, reported once more. */
  PassProgress finish() {
    PassProgress last = new Results.PassProgress(false, done, measured, total);
    listener.onProgress(last);
    return last;
  }

  /** The servers counted, in completion order. */
  List<PassResult.Measured> fresh() {
    return fresh;
  }

  /**
   * Stores a ran result and forgets the server's failures, or remembers a failure; returns what the
   * pass reports for it.
   */
  PassResult.Measured store(Measurement m) {
    boolean stored = false;
    CacheRow row = m.row();
    if (row != null) {
      stored = cache.putMeasured(m.name(), row);
      if (!stored) {
        PassLog.log()
            .warn(
                "not storing the measurement of {}: {}",
                Escaper.quoted(m.name(), Escaper.SHORT_LIMIT),
                VerdictCache.rowRefusal(m.name(), row));
      }
    }
    AttemptRecord last = null;
    if (m.result().ran()) {
      attempts.recordSuccess(m.name());
    } else if (m.identity() != null) {
      ProbeOutcome o = m.outcome();
      try {
        double at = clock.getAsDouble();
        String detail = m.result().detail();
        String exit = o == null ? null : o.lastExitStatus();
        String tail = o == null ? "" : o.lastStderrTail();
        last =
            failuresCount
                ? attempts.recordFailure(m.name(), m.identity(), at, detail, exit, tail)
                : attempts.recordUncountedFailure(m.name(), m.identity(), at, detail, exit, tail);
      } catch (RuntimeException e) { // a broken clock must not end the pass
        PassLog.log().debug("not remembering the failed pre-flight", e);
      }
    }
    return PassRecords.measured(m, stored, last);
  }
}
