package dev.kcshare.api;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a pass did. Obtained from {@link dev.kcshare.embed.Shareability#pass} and the other passes;
 * immutable. kcshare implements this and its nested value interfaces (two results are equal when
 * their components are); later versions may add accessors.
 */
public interface PassResult {
  /**
   * Whether the pass ran, yielded to another pass, or found one running and did not wait.
   *
   * @return the outcome
   */
  Outcome outcome();

  /**
   * The servers measured now, in completion order.
   *
   * @return the measurements (unmodifiable)
   */
  List<Measured> fresh();

  /**
   * The stored measurements included in the result (hits, or read by name when yielding), by server
   * name.
   *
   * @return the measurements (unmodifiable, in order)
   */
  Map<String, Stored> stored();

  /**
   * The final counters.
   *
   * @return the progress
   */
  PassProgress progress();

  /**
   * Servers that were due but skipped because their pre-flight kept failing, in config order, each
   * with the time a pass will try it again.
   *
   * @return the skipped servers (unmodifiable, in order)
   */
  Map<String, Instant> skipped();

  /** How the pass ended. */
  enum Outcome {
    /** The pass held the lock and measured what was due. */
    RAN,
    /** A budgeted pass found another pass running and served stored measurements instead. */
    YIELDED,
    /**
     * A pass asked not to wait for the records' lock found another pass running on the records
     * directory and did nothing: no server measured, none stored, no progress.
     */
    BUSY
  }

  /** One server measured in a pass. */
  interface Measured {
    /**
     * The server name.
     *
     * @return the name
     */
    String name();

    /**
     * The pre-flight result ({@code ran}, reasons, detail, era, reported version); a detail that
     * could carry the server's words has its secrets masked as {@code ***}
     * (docs/config.md#what-kcshare-masks), so it can be logged.
     *
     * @return the result
     */
    PreflightResult result();

    /**
     * Whether the result was stored in the verdict cache (only a pre-flight that ran).
     *
     * @return true when stored
     */
    boolean stored();

    /**
     * The end of the server's stderr, secrets masked, escaped and bounded, for diagnostics.
     *
     * @return the tail ({@code ""} when none)
     */
    String stderrTail();

    /**
     * How the server's process ended ({@code exit 1}, {@code signal 9 (SIGKILL)}).
     *
     * @return the status, or null when nothing was spawned or it is unknown
     */
    @Nullable String exitStatus();

    /**
     * When the pre-flight could not run, how many times in a row it has now failed under the
     * server's identity, as remembered in {@code kcshare-attempts.json} (from 2 on, an uncapped or
     * budgeted pass skips the server for a while).
     *
     * @return the count; 0 when it ran, was never spawned (refused), or the failure could not be
     *     remembered
     */
    int failuresInARow();

    /**
     * How the server was started.
     *
     * @return the launch, or null when it was never spawned
     */
    @Nullable Launch launch();

    /**
     * Every process the pre-flight spawned, in order.
     *
     * @return the processes ({@code []} when none)
     */
    List<Spawn> processes();
  }

  /**
   * How a server was started: the resolved command line, the NAMES of the environment variables its
   * definition declares (never their values; the rest of its environment is the facade's) and its
   * working directory. Not escaped: escape before showing.
   */
  interface Launch {
    /**
     * The executable as resolved on {@code PATH}, then the arguments.
     *
     * @return the command line
     */
    List<String> commandLine();

    /**
     * The names of the declared env variables, in declaration order.
     *
     * @return the names
     */
    List<String> declaredEnvNames();

    /**
     * The working directory.
     *
     * @return the directory
     */
    String directory();
  }

  /**
   * One process a pre-flight spawned: which identity, how it ended and how long each phase took.
   */
  interface Spawn {
    /**
     * Which identity it ran as.
     *
     * @return {@code "A"} or {@code "B"}
     */
    String identity();

    /**
     * The protocol era it ran in.
     *
     * @return the era
     */
    Era era();

    /**
     * Whether it was the retry of a one-sided failure.
     *
     * @return true for a retry
     */
    boolean retry();

    /**
     * How it ended.
     *
     * @return the status
     */
    Status status();

    /**
     * The failure detail when {@link #status()} is {@link Status#FAILED} (secrets masked).
     *
     * @return the detail, else null
     */
    @Nullable String failure();

    /**
     * The end of this process's stderr, secrets masked, escaped and bounded.
     *
     * @return the tail ({@code ""} when none)
     */
    String stderrTail();

    /**
     * How the process ended ({@code exit 1}, {@code signal 9 (SIGKILL)}).
     *
     * @return the status, or null when it was never spawned or could not be reaped
     */
    @Nullable String exitStatus();

    /**
     * How long each phase took.
     *
     * @return the phases, or null when it was never spawned
     */
    @Nullable Phases phases();

    /** How one process ended. */
    enum Status {
      /** The exchange completed and produced an answer. */
      ANSWERED,
      /** The exchange failed with {@link Spawn#failure()}. */
      FAILED,
      /** The initialize error identified a modern-era server. */
      MODERN_DETECTED,
      /** Stopped because the other identity detected a modern server, or the pass was stopped. */
      ABANDONED
    }

    /**
     * A short label: {@code A}, {@code B (retry)}, {@code A (modern)} or {@code B (modern, retry)}.
     *
     * @return the label
     */
    default String label() {
      StringBuilder label = new StringBuilder(identity());
      boolean modern = era() == Era.MODERN;
      if (modern || retry()) {
        label.append(" (");
        if (modern) {
          label.append("modern");
        }
        if (retry()) {
          label.append(modern ? ", retry" : "retry");
        }
        label.append(')');
      }
      return label.toString();
    }
  }

  /** How long each phase of one spawned process took; a phase that was not reached is null. */
  interface Phases {
    /**
     * Starting the process.
     *
     * @return the duration
     */
    Duration spawn();

    /**
     * From the start to the initialize (or {@code server/discover}) answer.
     *
     * @return the duration, or null
     */
    @Nullable Duration answer();

    /**
     * From that answer to the last {@code tools/list} page.
     *
     * @return the duration, or null
     */
    @Nullable Duration toolsList();

    /**
     * From the end of the exchange until the process tree was torn down.
     *
     * @return the duration, or null
     */
    @Nullable Duration exit();
  }

  /** A measurement the verdict cache holds for a server. */
  interface Stored {
    /**
     * The execution identity it was measured under (docs/formats.md).
     *
     * @return the identity
     */
    String identity();

    /**
     * Whether the pre-flight ran to the end.
     *
     * @return true when it ran
     */
    boolean ran();

    /**
     * Its reason codes.
     *
     * @return the codes
     */
    List<String> reasons();

    /**
     * When it was measured.
     *
     * @return the time
     */
    Instant measuredAt();

    /**
     * The version the server reported.
     *
     * @return the version ({@code ""} when none)
     */
    String reportedVersion();

    /**
     * What one session's copy of the server cost.
     *
     * @return the cost, or null when not measured
     */
    @Nullable SessionCost cost();
  }
}
