package dev.kcshare.core.records;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.EraBasis;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.handshake.SelfTest;
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
 * @param basis how the era was reached (kcshare's own {@code eraBasis} member, written when it is
 *     not {@link EraBasis#defaultFor} the era); a basis of another era reads as that default
 * @param modern the measurement a pass of {@link EraChoice#MODERN} made of a server whose row is a
 *     legacy one answered by {@code initialize} (kcshare's own {@code modern} member,
 *     docs/design.md#rows-of-two-era-choices): a modern row of the same identity, with neither a
 *     cost nor a {@code modern} of its own; null otherwise
 * @param divergence for a caller-sensitive row whose first identity's process was also asked as the
 *     second (kcshare's own {@code divergence} member): {@code in_process} or {@code
 *     across_processes}; null otherwise
 * @param selfTest the outcome of the isolation self-test the server designated (kcshare's own
 *     {@code selfTest} member); null when it designated none
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
    @Nullable SessionCost cost,
    EraBasis basis,
    @Nullable CacheRow modern,
    @Nullable String divergence,
    @Nullable SelfTest selfTest) {

  /**
   * Validates and copies.
   *
   * @param ran whether the pre-flight actually ran
   * @param callerSensitive whether the two identities' answers diverged
   * @param reasons opaque reason strings, copied; {@code []} when clean
   * @param evaluatedAt epoch seconds of the measurement
   * @param identity the execution identity measured under
   * @param reportedVersion the {@code serverInfo.version} reported, {@code ""} if unknown
   * @param era how the pre-flight talked to the server
   * @param handshake identity A's normalised answer, or null when absent or not well formed
   * @param cost the measured footprint, or null; an empty cost is stored as null
   * @param basis how the era was reached; a basis of another era is replaced by {@link
   *     EraBasis#defaultFor} the era
   * @param modern the modern measurement kept beside a legacy row answered by {@code initialize},
   *     or null
   * @param divergence {@code in_process} or {@code across_processes} for a caller-sensitive row;
   *     any other value, or a row that is not caller-sensitive, stores null
   * @param selfTest the outcome of the designated isolation self-test, or null when none
   * @throws NullPointerException if {@code identity}, {@code reportedVersion}, {@code era} or
   *     {@code basis} is null
   * @throws IllegalArgumentException if {@code modern} is given beside a row that is not legacy by
   *     {@code initialize}, or is not a modern row of the same identity without a cost or a {@code
   *     modern} of its own
   */
  public CacheRow {
    reasons = List.copyOf(reasons);
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(reportedVersion, "reportedVersion");
    Objects.requireNonNull(era, "era");
    Objects.requireNonNull(basis, "basis");
    if (basis.era() != era) {
      basis = EraBasis.defaultFor(era);
    }
    if (cost != null && cost.isEmpty()) {
      cost = null; // no figure is the same as none measured
    }
    if (!callerSensitive
        || !(PreflightResult.IN_PROCESS.equals(divergence)
            || PreflightResult.ACROSS_PROCESSES.equals(divergence))) {
      divergence = null;
    }
    if (modern != null
        && (basis != EraBasis.INITIALIZE
            || modern.era() != Era.MODERN
            || !modern.identity().equals(identity)
            || modern.cost() != null
            || modern.modern() != null)) {
      throw new IllegalArgumentException(
          "a modern measurement is kept only beside a legacy row of the same identity");
    }
  }

  /**
   * A row without a divergence kind or a self-test outcome.
   *
   * @param ran whether the pre-flight actually ran
   * @param callerSensitive whether the two identities' answers diverged
   * @param reasons opaque reason strings, copied; {@code []} when clean
   * @param evaluatedAt epoch seconds of the measurement
   * @param identity the execution identity measured under
   * @param reportedVersion the {@code serverInfo.version} reported, {@code ""} if unknown
   * @param era how the pre-flight talked to the server
   * @param handshake identity A's normalised answer, or null when absent or not well formed
   * @param cost the measured footprint, or null; an empty cost is stored as null
   * @param basis how the era was reached; a basis of another era is replaced by {@link
   *     EraBasis#defaultFor} the era
   * @param modern the modern measurement kept beside a legacy row answered by {@code initialize},
   *     or null
   * @throws IllegalArgumentException if {@code modern} is not a modern row of the same identity
   *     kept beside a legacy row answered by {@code initialize}
   */
  public CacheRow(
      boolean ran,
      boolean callerSensitive,
      List<String> reasons,
      double evaluatedAt,
      String identity,
      String reportedVersion,
      Era era,
      @Nullable StoredHandshake handshake,
      @Nullable SessionCost cost,
      EraBasis basis,
      @Nullable CacheRow modern) {
    this(
        ran,
        callerSensitive,
        reasons,
        evaluatedAt,
        identity,
        reportedVersion,
        era,
        handshake,
        cost,
        basis,
        modern,
        null,
        null);
  }

  /**
   * A row whose era was reached the usual way ({@link EraBasis#defaultFor}), with no other era.
   *
   * @param ran whether the pre-flight actually ran
   * @param callerSensitive whether the two identities' answers diverged
   * @param reasons opaque reason strings, copied; {@code []} when clean
   * @param evaluatedAt epoch seconds of the measurement
   * @param identity the execution identity measured under
   * @param reportedVersion the {@code serverInfo.version} reported, {@code ""} if unknown
   * @param era how the pre-flight talked to the server
   * @param handshake identity A's normalised answer, or null when absent or not well formed
   * @param cost the measured footprint, or null; an empty cost is stored as null
   */
  public CacheRow(
      boolean ran,
      boolean callerSensitive,
      List<String> reasons,
      double evaluatedAt,
      String identity,
      String reportedVersion,
      Era era,
      @Nullable StoredHandshake handshake,
      @Nullable SessionCost cost) {
    this(
        ran,
        callerSensitive,
        reasons,
        evaluatedAt,
        identity,
        reportedVersion,
        era,
        handshake,
        cost,
        EraBasis.defaultFor(era),
        null);
  }

  /**
   * A row without a measured cost, its era reached the usual way.
   *
   * @param ran whether the pre-flight actually ran
   * @param callerSensitive whether the two identities' answers diverged
   * @param reasons opaque reason strings, copied; {@code []} when clean
   * @param evaluatedAt epoch seconds of the measurement
   * @param identity the execution identity measured under
   * @param reportedVersion the {@code serverInfo.version} reported, {@code ""} if unknown
   * @param era how the pre-flight talked to the server
   * @param handshake identity A's normalised answer, or null when absent or not well formed
   */
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

  /**
   * This row with another cost (null: none), everything else kept.
   *
   * @param newCost the footprint to keep, or null for none; an empty cost is kept as null
   * @return a new row; this one is unchanged
   */
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
        newCost,
        basis,
        modern,
        divergence,
        selfTest);
  }

  /**
   * This row with another handshake, everything else (the cost included) kept.
   *
   * @param newHandshake identity A's normalised answer to keep, or null for none
   * @return a new row with this row's cost, basis and modern measurement, but no divergence kind or
   *     self-test outcome
   */
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
        cost,
        basis,
        modern);
  }

  /**
   * This row reached its era by way of {@code newBasis} (of the row's era), everything else kept.
   *
   * @param newBasis how the era was reached; a basis of another era reads as the era's default
   * @return a new row; the modern measurement is kept only when both the old and the new basis are
   *     {@link EraBasis#INITIALIZE}
   */
  public CacheRow withBasis(EraBasis newBasis) {
    return new CacheRow(
        ran,
        callerSensitive,
        reasons,
        evaluatedAt,
        identity,
        reportedVersion,
        era,
        handshake,
        cost,
        newBasis,
        basis == EraBasis.INITIALIZE && newBasis == EraBasis.INITIALIZE ? modern : null,
        divergence,
        selfTest);
  }

  /**
   * This row with another modern measurement kept beside it (null: none), everything else kept.
   *
   * @param newModern a modern row of the same identity without a cost or a {@code modern} of its
   *     own, or null
   * @return a new row; this one is unchanged
   * @throws IllegalArgumentException if {@code newModern} is not such a row, or this row is not
   *     legacy by {@code initialize}
   */
  public CacheRow withModern(@Nullable CacheRow newModern) {
    return new CacheRow(
        ran,
        callerSensitive,
        reasons,
        evaluatedAt,
        identity,
        reportedVersion,
        era,
        handshake,
        cost,
        basis,
        newModern,
        divergence,
        selfTest);
  }

  /**
   * The measurement of this row that a pass of {@code choice} would have made
   * (docs/design.md#rows-of-two-era-choices): for {@link EraChoice#MODERN} the modern measurement
   * kept beside a legacy row when there is one; otherwise this row when {@code choice} {@linkplain
   * EraChoice#accepts accepts} its basis; else null (the choice would measure the server anew).
   *
   * @param choice the era choice of the pass
   * @return the row the pass would have stored, or null when it would measure the server anew
   */
  public @Nullable CacheRow forChoice(EraChoice choice) {
    if (choice == EraChoice.MODERN && modern != null) {
      return modern;
    }
    return choice.accepts(basis) ? this : null;
  }

  /**
   * The row to store after a pass measured {@code measured}, given the row stored before ({@code
   * previous}, or null), so that passes of two era choices over one records directory keep both
   * measurements instead of replacing each other's (docs/design.md#rows-of-two-era-choices). With
   * the same identity: a modern measurement made by opening with discover is kept beside a legacy
   * row answered by {@code initialize}; a legacy row answered by {@code initialize} keeps the
   * modern measurement stored beside it, or takes the previous row as one when that was such a
   * measurement. Everything else replaces the previous row.
   *
   * @param previous the row stored before, or null when there was none
   * @param measured the row the pass measured
   * @return the row to store
   * @throws NullPointerException if {@code measured} is null
   */
  public static CacheRow merge(@Nullable CacheRow previous, CacheRow measured) {
    Objects.requireNonNull(measured, "measured");
    if (previous == null || !previous.identity.equals(measured.identity)) {
      return measured;
    }
    if (measured.basis == EraBasis.DISCOVER && previous.basis == EraBasis.INITIALIZE) {
      return previous.withModern(measured.withCost(null).withModern(null));
    }
    if (measured.basis == EraBasis.INITIALIZE && measured.modern == null) {
      if (previous.basis == EraBasis.INITIALIZE && previous.modern != null) {
        return measured.withModern(previous.modern);
      }
      if (previous.basis == EraBasis.DISCOVER) {
        return measured.withModern(previous.withCost(null));
      }
    }
    return measured;
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
    builder
        .preflightRan(ran)
        .preflightCallerSensitive(callerSensitive)
        .era(era)
        .divergence(divergence == null ? "" : divergence)
        .selfTest(selfTest);
    // Both identities answered alike, caching hints included, only when the row did not diverge.
    builder.listingPublic(
        era == Era.MODERN
            && ran
            && !callerSensitive
            && handshake != null
            && handshake.cacheHints().allPublic());
    builder.modernOnly(
        basis == EraBasis.INITIALIZE_REJECTED
            && handshake != null
            && namesOnlyModernVersions(handshake.supportedVersions()));
    return handshakeEvidence(handshake, builder);
  }

  /** At least one version, every one a string and none a legacy version. */
  private static boolean namesOnlyModernVersions(List<?> versions) {
    if (versions.isEmpty()) {
      return false;
    }
    for (Object v : versions) {
      if (!(v instanceof String s) || Era.isLegacyVersion(s)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sets the pre-flight and handshake evidence of a server with no usable row: never ran ({@code
   * preflightRan} null, not caller-sensitive) and the no-handshake values ({@code probeOk:false}).
   *
   * @param builder the evidence under construction
   * @return {@code builder}
   */
  public static Evidence.Builder applyAbsent(Evidence.Builder builder) {
    builder
        .preflightRan(null)
        .preflightCallerSensitive(false)
        .era(Era.LEGACY)
        .listingPublic(false)
        .modernOnly(false)
        .divergence("")
        .selfTest(null);
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
