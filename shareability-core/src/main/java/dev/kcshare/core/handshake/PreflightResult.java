package dev.kcshare.core.handshake;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one pre-flight (docs/design.md#pre-flight-result). Callers MUST branch on {@link
 * #ran()} before reading {@link #callerSensitive()}: a pre-flight that could not run is never
 * "safe".
 *
 * @param ran the pre-flight actually ran: both identities answered and the answers were comparable
 * @param callerSensitive the answers diverged; always false when not {@code ran}
 * @param detail the first differing facet, {@code ""}, {@code malformed_tool_names}, {@code
 *     preflight_error} or a prober failure string (docs/design.md#failure-classes)
 * @param era the phase the answers were collected in; null when not even that is known
 * @param reportedVersion identity A's {@code serverInfo.version} if a string, else {@code ""}
 * @param answerA identity A's normalised answer when A answered successfully (feeds the evidence
 *     and the stored {@code handshake}); null otherwise
 * @param basis how the era was reached (docs/design.md#which-era-is-measured); null exactly when
 *     {@code era} is
 * @param divergence when the answers diverged and identity A's process was also asked as B (modern
 *     era): {@link #IN_PROCESS} when that one process answered A and B differently, {@link
 *     #ACROSS_PROCESSES} when it answered them alike; null otherwise
 * @param selfTest the outcome of the isolation self-test identity A's answer designated; null when
 *     it designated none (or A did not answer)
 */
public record PreflightResult(
    boolean ran,
    boolean callerSensitive,
    String detail,
    @Nullable Era era,
    String reportedVersion,
    @Nullable Answer answerA,
    @Nullable EraBasis basis,
    @Nullable String divergence,
    @Nullable SelfTest selfTest) {

  /** Reason when the answers diverged. */
  public static final String HANDSHAKE_NOT_REPRODUCIBLE = "handshake_not_reproducible";

  /** Reason when the pre-flight could not run. */
  public static final String PREFLIGHT_UNAVAILABLE = "preflight_unavailable";

  /** The same process answered the two callers differently: the answer depends on the caller. */
  public static final String IN_PROCESS = "in_process";

  /** One process answered both callers alike: the two process starts differ. */
  public static final String ACROSS_PROCESSES = "across_processes";

  /** Detail when deciding itself failed unexpectedly. */
  public static final String PREFLIGHT_ERROR = "preflight_error";

  /**
   * Validates and normalises: without an era there is no basis, a basis of another era becomes the
   * era's default, and a divergence kind is kept only on a caller-sensitive result.
   *
   * @param ran the pre-flight actually ran
   * @param callerSensitive the answers diverged; must be false when not {@code ran}
   * @param detail the first differing facet or the failure detail, {@code ""} when none
   * @param era the phase the answers were collected in, or null when not known
   * @param reportedVersion identity A's {@code serverInfo.version}, {@code ""} if none
   * @param answerA identity A's normalised answer, or null
   * @param basis how the era was reached; null or another era's basis reads as the era's default
   * @param divergence {@link #IN_PROCESS} or {@link #ACROSS_PROCESSES}; anything else becomes null
   * @param selfTest the outcome of the designated isolation self-test, or null
   * @throws NullPointerException if {@code detail} or {@code reportedVersion} is null
   * @throws IllegalArgumentException if {@code callerSensitive} is set on a result that did not run
   */
  public PreflightResult {
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(reportedVersion, "reportedVersion");
    if (!ran && callerSensitive) {
      throw new IllegalArgumentException(
          "a pre-flight that did not run cannot be caller-sensitive");
    }
    if (era == null) {
      basis = null;
    } else if (basis == null || basis.era() != era) {
      basis = EraBasis.defaultFor(era);
    }
    if (!callerSensitive
        || !(IN_PROCESS.equals(divergence) || ACROSS_PROCESSES.equals(divergence))) {
      divergence = null;
    }
  }

  /**
   * A result whose era was reached the usual way ({@link EraBasis#defaultFor}).
   *
   * @param ran the pre-flight actually ran: both identities answered and the answers were
   *     comparable
   * @param callerSensitive the answers diverged; always false when not {@code ran}
   * @param detail the first differing facet, {@code ""}, {@code malformed_tool_names}, {@code
   *     preflight_error} or a prober failure string (docs/design.md#failure-classes)
   * @param era the phase the answers were collected in; null when not even that is known
   * @param reportedVersion identity A's {@code serverInfo.version} if a string, else {@code ""}
   * @param answerA identity A's normalised answer when A answered successfully (feeds the evidence
   *     and the stored {@code handshake}); null otherwise
   */
  public PreflightResult(
      boolean ran,
      boolean callerSensitive,
      String detail,
      @Nullable Era era,
      String reportedVersion,
      @Nullable Answer answerA) {
    this(ran, callerSensitive, detail, era, reportedVersion, answerA, null, null, null);
  }

  /**
   * This result with another basis (of its era; ignored when the era is unknown).
   *
   * @param newBasis how the era was reached; a basis of another era reads as the era's default
   * @return a new result, everything else kept
   */
  public PreflightResult withBasis(EraBasis newBasis) {
    return new PreflightResult(
        ran,
        callerSensitive,
        detail,
        era,
        reportedVersion,
        answerA,
        newBasis,
        divergence,
        selfTest);
  }

  /**
   * This result with the outcome of the isolation self-test (null: none designated).
   *
   * @param outcome the self-test's outcome, or null when the server designated none
   * @return a new result, everything else kept
   */
  public PreflightResult withSelfTest(@Nullable SelfTest outcome) {
    return new PreflightResult(
        ran, callerSensitive, detail, era, reportedVersion, answerA, basis, divergence, outcome);
  }

  /**
   * {@link #decide(Answer, Answer)}, also telling a divergence's kind from {@code bFromA}: identity
   * A's process asked as caller B (docs/design.md#one-process-two-callers). Its answer differing
   * from A's own is {@link #IN_PROCESS}, agreeing with it {@link #ACROSS_PROCESSES}; without it (or
   * without a divergence) the kind is unknown.
   *
   * @param a identity A's answer
   * @param b identity B's answer
   * @param bFromA the answer identity A's process gave when asked as caller B, or null when it was
   *     not asked
   * @return the decided result, with a {@code divergence} kind when one could be told
   */
  public static PreflightResult decide(Answer a, Answer b, @Nullable Answer bFromA) {
    PreflightResult r = decide(a, b);
    if (!r.callerSensitive() || bFromA == null) {
      return r;
    }
    String kind;
    try {
      Comparison inProcess = HandshakeComparison.compare(a, bFromA);
      kind = inProcess.ran() && !inProcess.callerSensitive() ? ACROSS_PROCESSES : IN_PROCESS;
    } catch (Throwable t) { // deciding never raises; the kind stays unknown
      return r;
    }
    return new PreflightResult(
        r.ran,
        r.callerSensitive,
        r.detail,
        r.era,
        r.reportedVersion,
        r.answerA,
        r.basis,
        kind,
        r.selfTest);
  }

  /**
   * Decides a pre-flight from both identities' answers. Never throws: anything that fails while
   * deciding (including stack exhaustion on a pathological answer) becomes {@code ran:false,
   * detail:"preflight_error"}, so one server can never end an evaluation pass.
   *
   * @param a identity A's answer
   * @param b identity B's answer
   * @return the decided result, without a divergence kind
   * @throws NullPointerException if {@code a} or {@code b} is null
   */
  public static PreflightResult decide(Answer a, Answer b) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    try {
      Comparison c = HandshakeComparison.compare(a, b);
      return new PreflightResult(
          c.ran(), c.callerSensitive(), c.detail(), a.era(), a.reportedVersion(), a);
    } catch (
        Throwable
            t) { // deciding never raises (docs/design.md#facets-and-decision), whatever the answers
      // hold
      // The answer that could not be decided is not handed on as evidence either.
      return new PreflightResult(false, false, PREFLIGHT_ERROR, a.era(), "", null);
    }
  }

  /**
   * A pre-flight that could not run: a prober failure (the detail of
   * docs/design.md#failure-classes).
   *
   * @param detail the prober failure string (docs/design.md#failure-classes)
   * @param era the phase the failure happened in; null when not even that is known
   * @param answerA identity A's answer if A answered successfully (B failed), else null
   * @return a result with {@code ran} false, reporting A's version when A answered
   */
  public static PreflightResult couldNotRun(
      String detail, @Nullable Era era, @Nullable Answer answerA) {
    return new PreflightResult(
        false, false, detail, era, answerA == null ? "" : answerA.reportedVersion(), answerA);
  }

  /**
   * {@code []} when ran and not sensitive, {@code ["handshake_not_reproducible"]} when ran and
   * sensitive, {@code ["preflight_unavailable"]} when not ran. Stored rows only carry the first
   * two.
   *
   * @return the reason codes of this result
   */
  public List<String> reasons() {
    if (!ran) {
      return List.of(PREFLIGHT_UNAVAILABLE);
    }
    return callerSensitive ? List.of(HANDSHAKE_NOT_REPRODUCIBLE) : List.of();
  }

  /**
   * {@code {"ran","callerSensitive","reasons","detail"}}: the output of {@code preflight compare}.
   *
   * @return a new mutable map in that member order
   */
  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("ran", ran);
    json.put("callerSensitive", callerSensitive);
    json.put("reasons", reasons());
    json.put("detail", detail);
    return json;
  }

  /**
   * {@link #toJson()} plus {@code era} (string or null), {@code reportedVersion} and, when known,
   * {@code divergence} and {@code selfTest}: the output of {@code preflight --json}.
   *
   * @return a new mutable map, {@link #toJson()}'s members first
   */
  public Map<String, @Nullable Object> toReportJson() {
    Map<String, @Nullable Object> json = new LinkedHashMap<>(toJson());
    json.put("era", era == null ? null : era.json());
    json.put("reportedVersion", reportedVersion);
    if (divergence != null) {
      json.put("divergence", divergence);
    }
    if (selfTest != null) {
      json.put("selfTest", selfTest.json());
    }
    return json;
  }
}
