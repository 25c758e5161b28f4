package dev.kcshare.host.prober;

import dev.kcshare.api.PassResult;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.PreflightResult;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pre-flight's result together with its local diagnostics. Only {@link #result()} may feed a
 * stored row; the attempts (with stderr tails) and the captures are for the operator's terminal and
 * the files they asked for (docs/design.md#what-is-persisted, docs/design.md#capture-format).
 *
 * @param result the pre-flight result (docs/design.md#pre-flight-result)
 * @param attempts every attempt: each phase's A and B, then that phase's retry if any
 * @param captures {@code "a"} / {@code "b"} → that identity's capture
 *     (docs/design.md#capture-format), for the identities that answered, when captures were asked
 *     for; empty otherwise
 * @param launch how the server was started, or null when it was refused before any spawn
 * @param cost the larger figures of the two answers' process trees when the pre-flight ran (it
 *     feeds the stored row); {@link SessionCost#NONE} otherwise
 */
public record ProbeOutcome(
    PreflightResult result,
    List<ProbeAttempt> attempts,
    Map<String, Map<String, @Nullable Object>> captures,
    @Nullable LaunchSummary launch,
    SessionCost cost) {

  public ProbeOutcome {
    Objects.requireNonNull(result, "result");
    attempts = List.copyOf(attempts);
    captures = Collections.unmodifiableMap(new LinkedHashMap<>(captures));
    Objects.requireNonNull(cost, "cost");
  }

  /** An outcome with no measured cost. */
  public ProbeOutcome(
      PreflightResult result,
      List<ProbeAttempt> attempts,
      Map<String, Map<String, @Nullable Object>> captures,
      @Nullable LaunchSummary launch) {
    this(result, attempts, captures, launch, SessionCost.NONE);
  }

  /** An outcome without a launch summary and with no measured cost. */
  public ProbeOutcome(
      PreflightResult result,
      List<ProbeAttempt> attempts,
      Map<String, Map<String, @Nullable Object>> captures) {
    this(result, attempts, captures, null, SessionCost.NONE);
  }

  /** The detail of a pre-flight in which an awaited answer missed its deadline. */
  public static final String TIMEOUT = ProbeFailure.TIMEOUT;

  /** Whether the pre-flight could not run because an awaited answer missed its deadline. */
  public boolean timedOut() {
    return !result.ran() && TIMEOUT.equals(result.detail());
  }

  /**
   * How the process of the last attempt that failed ended (the one whose failure is usually the
   * detail), or of the last attempt when none failed; null when nothing was spawned or its status
   * is unknown.
   */
  public @Nullable String lastExitStatus() {
    ProbeAttempt attempt = lastFailedOrLast();
    return attempt == null ? null : attempt.exitStatus();
  }

  private @Nullable ProbeAttempt lastFailedOrLast() {
    for (int i = attempts.size() - 1; i >= 0; i--) {
      if (attempts.get(i).status() == PassResult.Spawn.Status.FAILED) {
        return attempts.get(i);
      }
    }
    return attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
  }

  /**
   * The escaped stderr tail of the last attempt that failed (the one whose failure is usually the
   * detail), or of the last attempt when none failed; {@code ""} when it wrote nothing.
   */
  public String lastStderrTail() {
    ProbeAttempt attempt = lastFailedOrLast();
    return attempt == null ? "" : attempt.stderrTail();
  }
}
