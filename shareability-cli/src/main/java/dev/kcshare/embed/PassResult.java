package dev.kcshare.embed;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.host.evaluation.ServerResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a pass did. Immutable.
 *
 * @param outcome whether the pass ran or yielded to another pass
 * @param fresh the servers measured now, in completion order
 * @param stored the stored measurements included in the result (hits, or read by name when
 *     yielding), by server name
 * @param progress the final counters
 * @param skipped servers that were due but skipped because their pre-flight kept failing, in config
 *     order, each with the time a pass will try it again
 */
public record PassResult(
    Outcome outcome,
    List<Measured> fresh,
    Map<String, Stored> stored,
    PassProgress progress,
    Map<String, Instant> skipped) {

  /** How the pass ended. */
  public enum Outcome {
    /** The pass held the lock and measured what was due. */
    RAN,
    /** A budgeted pass found another pass running and served stored measurements instead. */
    YIELDED
  }

  /**
   * One server measured in a pass.
   *
   * @param name the server name
   * @param result the pre-flight result ({@code ran}, reasons, detail, era, reported version); a
   *     detail that could carry the server's words has its secrets masked as {@code ***}
   *     (docs/config.md#what-kcshare-masks), so it can be logged
   * @param stored whether the result was stored in the verdict cache (only a pre-flight that ran)
   * @param stderrTail the end of the server's stderr, secrets masked, escaped and bounded, for
   *     diagnostics ({@code ""} when none)
   * @param exitStatus how the server's process ended ({@code exit 1}, {@code signal 9 (SIGKILL)}),
   *     or null when nothing was spawned or it is unknown
   */
  public record Measured(
      String name,
      PreflightResult result,
      boolean stored,
      String stderrTail,
      @Nullable String exitStatus) {
    /** Validates. */
    public Measured {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(stderrTail, "stderrTail");
    }

    static Measured of(ServerResult r) {
      return new Measured(r.name(), r.result(), r.stored(), r.stderrTail(), r.exitStatus());
    }
  }

  /**
   * A measurement the verdict cache holds for a server.
   *
   * @param identity the execution identity it was measured under (docs/formats.md)
   * @param ran whether the pre-flight ran to the end
   * @param reasons its reason codes
   * @param measuredAt when it was measured
   * @param reportedVersion the version the server reported ({@code ""} when none)
   * @param cost what one session's copy of the server cost, or null when not measured
   */
  public record Stored(
      String identity,
      boolean ran,
      List<String> reasons,
      Instant measuredAt,
      String reportedVersion,
      @Nullable SessionCost cost) {
    /** Validates and copies. */
    public Stored {
      Objects.requireNonNull(identity, "identity");
      reasons = List.copyOf(reasons);
      Objects.requireNonNull(measuredAt, "measuredAt");
      Objects.requireNonNull(reportedVersion, "reportedVersion");
    }

    static Stored of(CacheRow row) {
      return new Stored(
          row.identity(),
          row.ran(),
          row.reasons(),
          Times.instant(row.evaluatedAt()),
          row.reportedVersion(),
          row.cost());
    }
  }

  /** Copies the collections (unmodifiable; the maps keep their order). */
  public PassResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(progress, "progress");
    fresh = List.copyOf(fresh);
    stored = Collections.unmodifiableMap(new LinkedHashMap<>(stored));
    skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
  }

  static PassResult of(dev.kcshare.host.evaluation.PassResult r) {
    List<Measured> fresh = new ArrayList<>(r.fresh().size());
    for (ServerResult s : r.fresh()) {
      fresh.add(Measured.of(s));
    }
    Map<String, Stored> stored = new LinkedHashMap<>();
    r.stored().forEach((name, row) -> stored.put(name, Stored.of(row)));
    Map<String, Instant> skipped = new LinkedHashMap<>();
    r.skipped().forEach((name, at) -> skipped.put(name, Times.instant(at)));
    // an uncapped pass that would not wait finds another pass running and does nothing, as a
    // budgeted one yields; the facade's uncapped passes always wait
    Outcome outcome =
        r.outcome() == dev.kcshare.host.evaluation.PassResult.Outcome.RAN
            ? Outcome.RAN
            : Outcome.YIELDED;
    return new PassResult(outcome, fresh, stored, PassProgress.of(r.progress()), skipped);
  }
}
