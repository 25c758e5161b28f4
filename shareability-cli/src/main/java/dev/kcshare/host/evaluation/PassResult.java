package dev.kcshare.host.evaluation;

import dev.kcshare.core.records.CacheRow;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pass did.
 *
 * @param outcome whether the pass ran, yielded to another pass, or found one running
 * @param fresh the servers measured now, in completion order
 * @param stored the stored rows included in the result (hits, or rows read by name when yielding)
 * @param progress the final counters
 * @param skipped servers that were due but skipped because their pre-flight kept failing, in config
 *     order, each with the time (epoch seconds) a pass will try it again
 */
public record PassResult(
    Outcome outcome,
    List<ServerResult> fresh,
    Map<String, CacheRow> stored,
    PassProgress progress,
    Map<String, Double> skipped) {

  /** How the pass ended. */
  public enum Outcome {
    /** The pass held the lock and measured what was due. */
    RAN,
    /** A budgeted pass found another pass running and served stored rows instead. */
    YIELDED,
    /** An uncapped pass asked not to wait found another pass running and did nothing. */
    BUSY
  }

  /** Copies the collections (unmodifiable; {@code stored} keeps its order). */
  public PassResult {
    fresh = List.copyOf(fresh);
    stored = Collections.unmodifiableMap(new LinkedHashMap<>(stored));
    skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
  }

  /** A result that skipped nothing. */
  public PassResult(
      Outcome outcome,
      List<ServerResult> fresh,
      Map<String, CacheRow> stored,
      PassProgress progress) {
    this(outcome, fresh, stored, progress, Map.of());
  }
}
