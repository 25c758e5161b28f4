package dev.kcshare.core.records;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.verdict.Evidence;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One verdict-cache row: the expensive pre-flight measurement of one configured server
 * (docs/formats.md#the-verdict-cache--shareability-verdictsjson, docs/design.md#stored-handshake).
 * Only the measurement is cached, never the composite verdict.
 *
 * @param ran the pre-flight actually ran (kcshare stores only {@code true} rows; loads accept both)
 * @param callerSensitive the two answers diverged; meaningful only when {@code ran}
 * @param reasons opaque reason strings ({@code []} clean, {@code ["handshake_not_reproducible"]})
 * @param evaluatedAt epoch seconds of the measurement
 * @param identity the execution identity measured under (four NUL-separated fields, schema last)
 * @param reportedVersion the {@code serverInfo.version} reported then, {@code ""} if unknown
 * @param era how the pre-flight talked to the server; {@link Era#LEGACY} when not stored
 * @param handshake identity A's normalised answer; null when absent or not well formed (for example
 *     a row written by the Python gateway)
 * @param cost the footprint measured in the pre-flight (kcshare's own {@code cost} member); null
 *     when never measured, not measurable on this platform, or written by another writer. Never
 *     part of the identity or of the row's validity.
 */
public record CacheRow(
    boolean ran,
    boolean callerSensitive,
    List<String> reasons,
    double evaluatedAt,
    String identity,
    String reportedVersion,
    Era era,
    @Nullable StoredHandshake handshake,
    @Nullable SessionCost cost) {

  /**
   * Validates and copies.
   *
   * @throws NullPointerException if {@code identity}, {@code reportedVersion} or {@code era} is
   *     null
   */
  public CacheRow {
    reasons = List.copyOf(reasons);
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(reportedVersion, "reportedVersion");
    Objects.requireNonNull(era, "era");
    if (cost != null && cost.isEmpty()) {
      cost = null; // no figure is the same as none measured
    }
  }

  /** A row without a measured cost. */
  public CacheRow(
      boolean ran,
      boolean callerSensitive,
      List<String> reasons,
      double evaluatedAt,
      String identity,
      String reportedVersion,
      Era era,
      @Nullable StoredHandshake handshake) {
    this(
        ran,
        callerSensitive,
        reasons,
        evaluatedAt,
        identity,
        reportedVersion,
        era,
        handshake,
        /* cost= */ null);
  }

  /** This row with another cost (null: none), everything else kept. */
  public CacheRow withCost(@Nullable SessionCost newCost) {
    return new CacheRow(
        ran,
        callerSensitive,
        reasons,
        evaluatedAt,
        identity,
        reportedVersion,
        era,
        handshake,
        newCost);
  }

  /** This row with another handshake, everything else (the cost included) kept. */
  public CacheRow withHandshake(@Nullable StoredHandshake newHandshake) {
    return new CacheRow(
        ran,
        callerSensitive,
        reasons,
        evaluatedAt,
        identity,
        reportedVersion,
        era,
        newHandshake,
        cost);
  }

  /**
   * Sets the pre-flight and handshake evidence of a usable row (docs/design.md#evidence-assembly):
   * {@code preflightRan = ran}, {@code preflightCallerSensitive = callerSensitive}, then the stored
   * handshake ({@code probeOk:true} and its values), or the no-handshake values ({@code
   * probeOk:false}) when there is none. Whether the row is usable is the caller's decision.
   *
   * @param builder the evidence under construction
   * @return {@code builder}
   */
  public Evidence.Builder applyTo(Evidence.Builder builder) {
    builder.preflightRan(ran).preflightCallerSensitive(callerSensitive);
    return handshakeEvidence(handshake, builder);
  }

  /**
   * Sets the pre-flight and handshake evidence of a server with no usable row: never ran ({@code
   * preflightRan} null, not caller-sensitive) and the no-handshake values ({@code probeOk:false}).
   *
   * @param builder the evidence under construction
   * @return {@code builder}
   */
  public static Evidence.Builder applyAbsent(Evidence.Builder builder) {
    builder.preflightRan(null).preflightCallerSensitive(false);
    return handshakeEvidence(null, builder);
  }

  /** The one mapping from a stored handshake (or none) to the evidence's handshake fields. */
  private static Evidence.Builder handshakeEvidence(
      @Nullable StoredHandshake handshake, Evidence.Builder builder) {
    if (handshake == null) {
      return builder
          .probeOk(false)
          .capabilities(null)
          .protocolVersion("")
          .toolAnnotations(List.of())
          .hasTools(false);
    }
    return builder
        .probeOk(true)
        .capabilities(handshake.capabilities())
        .protocolVersion(handshake.protocolVersion())
        .toolAnnotations(handshake.toolAnnotations())
        .hasTools(handshake.hasTools());
  }
}
