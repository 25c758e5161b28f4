package dev.kcshare.api;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.text.IdentityText;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a pass did. Immutable.
 *
 * @param outcome whether the pass ran, yielded to another pass, or found one running and did not
 *     wait
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
    YIELDED,
    /**
     * A pass asked not to wait for the records' lock found another pass running on the records
     * directory and did nothing: no server measured, none stored, no progress.
     */
    BUSY
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
   * @param failuresInARow when the pre-flight could not run, how many times in a row it has now
   *     failed under the server's identity, as remembered in {@code kcshare-attempts.json} (from 2
   *     on, an uncapped or budgeted pass skips the server for a while); 0 when it ran, was never
   *     spawned (refused), or the failure could not be remembered
   * @param launch how the server was started, or null when it was never spawned
   * @param processes every process the pre-flight spawned, in order ({@code []} when none)
   */
  public record Measured(
      String name,
      PreflightResult result,
      boolean stored,
      String stderrTail,
      @Nullable String exitStatus,
      int failuresInARow,
      @Nullable Launch launch,
      List<Spawn> processes) {
    /**
     * Validates and copies.
     *
     * @param name the server name
     * @param result the pre-flight result ({@code ran}, reasons, detail, era, reported version); a
     *     detail that could carry the server's words has its secrets masked as {@code ***}
     *     (docs/config.md#what-kcshare-masks), so it can be logged
     * @param stored whether the result was stored in the verdict cache (only a pre-flight that ran)
     * @param stderrTail the end of the server's stderr, secrets masked, escaped and bounded, for
     *     diagnostics ({@code ""} when none)
     * @param exitStatus how the server's process ended ({@code exit 1}, {@code signal 9
     *     (SIGKILL)}), or null when nothing was spawned or it is unknown
     * @param failuresInARow when the pre-flight could not run, how many times in a row it has now
     *     failed under the server's identity, as remembered in {@code kcshare-attempts.json} (from
     *     2 on, an uncapped or budgeted pass skips the server for a while); 0 when it ran, was
     *     never spawned (refused), or the failure could not be remembered
     * @param launch how the server was started, or null when it was never spawned
     * @param processes every process the pre-flight spawned, in order ({@code []} when none)
     */
    public Measured {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(stderrTail, "stderrTail");
      if (failuresInARow < 0) {
        throw new IllegalArgumentException(
            "failuresInARow must not be negative: " + failuresInARow);
      }
      processes = List.copyOf(processes);
    }

    /**
     * A result without process diagnostics: no failures remembered, no launch, no processes.
     *
     * @param name the server name
     * @param result the pre-flight result
     * @param stored whether it was stored
     * @param stderrTail the end of its stderr ({@code ""} when none)
     * @param exitStatus how its process ended, or null
     */
    public Measured(
        String name,
        PreflightResult result,
        boolean stored,
        String stderrTail,
        @Nullable String exitStatus) {
      this(name, result, stored, stderrTail, exitStatus, 0, null, List.of());
    }
  }

  /**
   * How a server was started: the resolved command line, the NAMES of the environment variables its
   * definition declares (never their values; the rest of its environment is the facade's) and its
   * working directory. Not escaped: escape before showing.
   *
   * @param commandLine the executable as resolved on {@code PATH}, then the arguments
   * @param declaredEnvNames the names of the declared env variables, in declaration order
   * @param directory the working directory
   */
  public record Launch(List<String> commandLine, List<String> declaredEnvNames, String directory) {
    /**
     * Validates and copies.
     *
     * @param commandLine the executable as resolved on {@code PATH}, then the arguments
     * @param declaredEnvNames the names of the declared env variables, in declaration order
     * @param directory the working directory
     */
    public Launch {
      commandLine = List.copyOf(commandLine);
      declaredEnvNames = List.copyOf(declaredEnvNames);
      Objects.requireNonNull(directory, "directory");
    }
  }

  /**
   * One process a pre-flight spawned: which identity, how it ended and how long each phase took.
   *
   * @param identity {@code "A"} or {@code "B"}
   * @param era the protocol era it ran in
   * @param retry whether it was the retry of a one-sided failure
   * @param status how it ended
   * @param failure the failure detail when {@code status} is {@link Status#FAILED} (secrets
   *     masked), else null
   * @param stderrTail the end of this process's stderr, secrets masked, escaped and bounded ({@code
   *     ""} when none)
   * @param exitStatus how the process ended ({@code exit 1}, {@code signal 9 (SIGKILL)}), or null
   *     when it was never spawned or could not be reaped
   * @param phases how long each phase took, or null when it was never spawned
   */
  public record Spawn(
      String identity,
      Era era,
      boolean retry,
      Status status,
      @Nullable String failure,
      String stderrTail,
      @Nullable String exitStatus,
      @Nullable Phases phases) {
    /**
     * Validates.
     *
     * @param identity {@code "A"} or {@code "B"}
     * @param era the protocol era it ran in
     * @param retry whether it was the retry of a one-sided failure
     * @param status how it ended
     * @param failure the failure detail when {@code status} is {@link Status#FAILED} (secrets
     *     masked), else null
     * @param stderrTail the end of this process's stderr, secrets masked, escaped and bounded
     *     ({@code ""} when none)
     * @param exitStatus how the process ended ({@code exit 1}, {@code signal 9 (SIGKILL)}), or null
     *     when it was never spawned or could not be reaped
     * @param phases how long each phase took, or null when it was never spawned
     */
    public Spawn {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(era, "era");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(stderrTail, "stderrTail");
    }

    /** How one process ended. */
    public enum Status {
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

  /**
   * How long each phase of one spawned process took; a phase that was not reached is null.
   *
   * @param spawn starting the process
   * @param answer from the start to the initialize (or {@code server/discover}) answer
   * @param toolsList from that answer to the last {@code tools/list} page
   * @param exit from the end of the exchange until the process tree was torn down
   */
  public record Phases(
      Duration spawn,
      @Nullable Duration answer,
      @Nullable Duration toolsList,
      @Nullable Duration exit) {
    /**
     * Validates.
     *
     * @param spawn starting the process
     * @param answer from the start to the initialize (or {@code server/discover}) answer
     * @param toolsList from that answer to the last {@code tools/list} page
     * @param exit from the end of the exchange until the process tree was torn down
     */
    public Phases {
      Objects.requireNonNull(spawn, "spawn");
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
    /**
     * Validates and copies.
     *
     * @param identity the execution identity it was measured under (docs/formats.md)
     * @param ran whether the pre-flight ran to the end
     * @param reasons its reason codes
     * @param measuredAt when it was measured
     * @param reportedVersion the version the server reported ({@code ""} when none)
     * @param cost what one session's copy of the server cost, or null when not measured
     */
    public Stored {
      Objects.requireNonNull(identity, "identity");
      reasons = List.copyOf(reasons);
      Objects.requireNonNull(measuredAt, "measuredAt");
      Objects.requireNonNull(reportedVersion, "reportedVersion");
    }

    /** The components, the identity's NUL separators written as {@code \0}. */
    @Override
    public String toString() {
      return "Stored[identity="
          + IdentityText.shown(identity)
          + ", ran="
          + ran
          + ", reasons="
          + reasons
          + ", measuredAt="
          + measuredAt
          + ", reportedVersion="
          + reportedVersion
          + ", cost="
          + cost
          + "]";
    }
  }

  /**
   * Copies the collections (unmodifiable; the maps keep their order).
   *
   * @param outcome whether the pass ran, yielded to another pass, or found one running and did not
   *     wait
   * @param fresh the servers measured now, in completion order
   * @param stored the stored measurements included in the result (hits, or read by name when
   *     yielding), by server name
   * @param progress the final counters
   * @param skipped servers that were due but skipped because their pre-flight kept failing, in
   *     config order, each with the time a pass will try it again
   */
  public PassResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(progress, "progress");
    fresh = List.copyOf(fresh);
    stored = Collections.unmodifiableMap(new LinkedHashMap<>(stored));
    skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
  }
}
