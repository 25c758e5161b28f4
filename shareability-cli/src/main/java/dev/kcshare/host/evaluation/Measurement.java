package dev.kcshare.host.evaluation;

import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.host.prober.ProbeOutcome;
import org.jspecify.annotations.Nullable;

/**
 * One server measured: its result, the prober's outcome (null when it was refused or failed
 * unexpectedly) and, when it ran, the row to store. Built in the task, so a failure building the
 * row is isolated to that server like any other (docs/design.md#failure-isolation).
 *
 * @param identity the execution identity it was spawned under; null when it was refused (never
 *     spawned), so nothing is remembered about it
 */
record Measurement(
    String name,
    PreflightResult result,
    @Nullable ProbeOutcome outcome,
    @Nullable CacheRow row,
    @Nullable String identity) {
  boolean timedOut() {
    return outcome != null && outcome.timedOut();
  }
}
