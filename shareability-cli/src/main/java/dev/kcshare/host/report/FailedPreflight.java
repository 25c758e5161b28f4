package dev.kcshare.host.report;

import dev.kcshare.core.text.IdentityText;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A server's last pre-flight that could not run, as {@code kcshare-attempts.json} remembers it
 * (docs/formats.md): only one under the server's current execution identity counts, since an edited
 * definition has not failed yet. Its detail and stderr tail are masked with the definition's
 * secrets (docs/security.md), whatever the file holds.
 *
 * @param at when the attempt ended
 * @param identity the execution identity it ran under
 * @param detail why it could not run
 * @param exitStatus the process's exit status, when it exited
 * @param stderrTail the end of what it wrote on stderr, escaped for a terminal; empty when nothing
 * @param failuresInARow how many pre-flights in a row failed under this identity (at least 1)
 */
public record FailedPreflight(
    Instant at,
    String identity,
    String detail,
    Optional<String> exitStatus,
    String stderrTail,
    int failuresInARow) {
  /**
   * Checks the components.
   *
   * @throws NullPointerException if a component is null
   * @throws IllegalArgumentException if {@code failuresInARow} is below 1
   */
  public FailedPreflight {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(exitStatus, "exitStatus");
    Objects.requireNonNull(stderrTail, "stderrTail");
    if (failuresInARow < 1) {
      throw new IllegalArgumentException("failuresInARow must be at least 1: " + failuresInARow);
    }
  }

  /** The components, the identity's NUL separators written as {@code \0}. */
  @Override
  public String toString() {
    return "FailedPreflight[at="
        + at
        + ", identity="
        + IdentityText.shown(identity)
        + ", detail="
        + detail
        + ", exitStatus="
        + exitStatus
        + ", stderrTail="
        + stderrTail
        + ", failuresInARow="
        + failuresInARow
        + "]";
  }
}
