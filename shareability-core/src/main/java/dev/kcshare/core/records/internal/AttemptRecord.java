package dev.kcshare.core.records.internal;

import dev.kcshare.core.text.IdentityText;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The last pre-flight of one server that could not run, as kcshare remembers it in its own file
 * {@code kcshare-attempts.json} (never in the two shared record files: a pre-flight that could not
 * run still leaves no cache row).
 *
 * @param at when the attempt ended, epoch seconds
 * @param identity the execution identity (cache form) the server was spawned under
 * @param detail the pre-flight's failure detail, as measured (escape before showing)
 * @param exitStatus how the process of the failing identity ended ({@code exit 1}, {@code signal 9
 *     (SIGKILL)}), or null when it is not known
 * @param stderrTail the end of that process's stderr, already escaped and bounded
 * @param failures consecutive failed attempts under {@code identity}, at least 1
 */
public record AttemptRecord(
    double at,
    String identity,
    String detail,
    @Nullable String exitStatus,
    String stderrTail,
    int failures) {
  /**
   * Validates.
   *
   * @throws IllegalArgumentException if {@code failures} is below 1 or {@code at} is not finite
   */
  public AttemptRecord {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(stderrTail, "stderrTail");
    if (failures < 1) {
      throw new IllegalArgumentException("failures must be at least 1: " + failures);
    }
    if (!Double.isFinite(at)) {
      throw new IllegalArgumentException("at must be finite: " + at);
    }
  }

  /** The components, the identity's NUL separators written as {@code \0}. */
  @Override
  public String toString() {
    return "AttemptRecord[at="
        + at
        + ", identity="
        + IdentityText.shown(identity)
        + ", detail="
        + detail
        + ", exitStatus="
        + exitStatus
        + ", stderrTail="
        + stderrTail
        + ", failures="
        + failures
        + "]";
  }
}
