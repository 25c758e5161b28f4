package dev.kcshare.host.prober;

import dev.kcshare.api.PassResult;
import dev.kcshare.api.PassResult.Spawn.Status;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.handshake.Era;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One spawned process of a pre-flight, for diagnostics: shown by {@code -v} and {@code preflight};
 * its stderr tail (masked, escaped and bounded) is also what {@code kcshare-attempts.json} keeps.
 * It is the {@link PassResult.Spawn} a pass result lists, as the prober made it.
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
 * @param times how long each phase took, or null when it was never spawned
 */
public record ProbeAttempt(
    String identity,
    Era era,
    boolean retry,
    Status status,
    @Nullable String failure,
    String stderrTail,
    @Nullable String exitStatus,
    @Nullable PhaseTimes times)
    implements PassResult.Spawn {

  /** Validates. */
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

  /** The phase times as the API gives them, or null when it was never spawned. */
  @Override
  public PassResult.@Nullable Phases phases() {
    PhaseTimes t = times;
    return t == null
        ? null
        : new Results.Phases(
            Duration.ofMillis(t.spawnMillis()),
            millis(t.answerMillis()),
            millis(t.listMillis()),
            millis(t.exitMillis()));
  }

  private static @Nullable Duration millis(@Nullable Long millis) {
    return millis == null ? null : Duration.ofMillis(millis);
  }
}
