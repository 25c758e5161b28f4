package dev.kcshare.host.prober;

import dev.kcshare.core.handshake.Era;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One spawned process of a pre-flight, for diagnostics: shown by {@code -v} and {@code preflight};
 * its stderr tail (masked, escaped and bounded) is also what {@code kcshare-attempts.json} keeps.
 *
 * @param identity {@code "A"} or {@code "B"}
 * @param era the phase it ran in
 * @param retry whether it was the one-sided failure's retry (docs/design.md#two-identities)
 * @param status how it ended
 * @param failure the failure detail when {@code status} is {@link Status#FAILED}, else null; the
 *     server's secrets masked (docs/config.md#what-kcshare-masks)
 * @param stderrTail the last stderr bytes, the server's secrets masked, then escaped and bounded to
 *     500 code points (its end kept)
 * @param exitStatus how the process ended ({@code exit 1}, {@code signal 9 (SIGKILL)}), or null
 *     when it was never spawned or could not be reaped
 * @param phases how long each phase took, or null when it was never spawned
 */
public record ProbeAttempt(
    String identity,
    Era era,
    boolean retry,
    Status status,
    @Nullable String failure,
    String stderrTail,
    @Nullable String exitStatus,
    @Nullable PhaseTimes phases) {

  /** How one attempt ended. */
  public enum Status {
    /** The exchange completed and produced an answer. */
    ANSWERED,
    /** The exchange failed with {@link ProbeAttempt#failure()}. */
    FAILED,
    /** The initialize error identified a modern-era server. */
    MODERN_DETECTED,
    /**
     * Stopped because the other identity detected a modern server, or the pre-flight was cancelled.
     */
    ABANDONED
  }

  public ProbeAttempt {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(era, "era");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(stderrTail, "stderrTail");
  }

  /** An attempt without exit status and phase times. */
  public ProbeAttempt(
      String identity,
      Era era,
      boolean retry,
      Status status,
      @Nullable String failure,
      String stderrTail) {
    this(identity, era, retry, status, failure, stderrTail, null, null);
  }

  /** A short label such as {@code A}, {@code B (retry)} or {@code A (modern)}. */
  public String label() {
    StringBuilder label = new StringBuilder(identity);
    if (era == Era.MODERN || retry) {
      label.append(" (");
      if (era == Era.MODERN) {
        label.append("modern");
      }
      if (retry) {
        label.append(era == Era.MODERN ? ", retry" : "retry");
      }
      label.append(')');
    }
    return label.toString();
  }
}
