package dev.kcshare.host.evaluation;

import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.host.prober.LaunchSummary;
import dev.kcshare.host.prober.ProbeOutcome;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** What a pass reports, as the exported records of {@link PassResult}. */
final class PassRecords {
  private PassRecords() {}

  /**
   * One server measured.
   *
   * @param stored whether its row was stored
   * @param last the failed attempt now remembered for it, or null
   */
  static PassResult.Measured measured(Measurement m, boolean stored, @Nullable AttemptRecord last) {
    ProbeOutcome o = m.outcome();
    // The prober's attempts are the spawns the result lists, as it made them.
    List<PassResult.Spawn> processes = o == null ? List.of() : List.copyOf(o.attempts());
    LaunchSummary launch = o == null ? null : o.launch();
    return new Results.Measured(
        m.name(),
        m.result(),
        stored,
        o == null ? "" : o.lastStderrTail(),
        o == null ? null : o.lastExitStatus(),
        last == null ? 0 : last.failures(),
        launch == null
            ? null
            : new Results.Launch(
                launch.commandLine(), launch.declaredEnvNames(), launch.directory()),
        processes);
  }

  /**
   * The result of one pre-flight that stores nothing ({@code kcshare preflight}).
   *
   * @param name the server name
   */
  static PassResult.Measured unstored(String name, ProbeOutcome outcome) {
    return measured(new Measurement(name, outcome.result(), outcome, null, null), false, null);
  }

  /** The stored rows a pass includes, by name, in order. */
  static Map<String, PassResult.Stored> stored(Map<String, CacheRow> rows) {
    Map<String, PassResult.Stored> out = new LinkedHashMap<>();
    rows.forEach(
        (name, row) ->
            out.put(
                name,
                new Results.Stored(
                    row.identity(),
                    row.ran(),
                    row.reasons(),
                    instant(row.evaluatedAt()),
                    row.reportedVersion(),
                    row.cost())));
    return out;
  }

  /** The skipped servers with the time a pass tries each again, in order. */
  static Map<String, Instant> skipped(Map<String, Double> skipped) {
    Map<String, Instant> out = new LinkedHashMap<>();
    skipped.forEach((name, at) -> out.put(name, instant(at)));
    return out;
  }

  /** Epoch seconds (fractional) as an instant, to the millisecond; a non-finite value is 0. */
  static Instant instant(double epochSeconds) {
    if (!Double.isFinite(epochSeconds)) {
      return Instant.EPOCH;
    }
    return Instant.ofEpochMilli(Math.round(epochSeconds * 1000.0));
  }
}
