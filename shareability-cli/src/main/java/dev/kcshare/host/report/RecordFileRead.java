package dev.kcshare.host.report;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One record file as a tolerant read found it, for display: whether it exists, why it could not be
 * used, whether kcshare leaves it as it is, and what it holds (empty when it could not be read).
 * Obtained from {@link RecordViews#readLedger()} and {@link RecordViews#readRecords()}; immutable.
 *
 * @param file the file, absolute
 * @param exists something existed at the path
 * @param usable it was missing or read and parsed whole as JSON (what it holds then decided the
 *     rest); false when it was not UTF-8 or not JSON, not a regular file, unreadable or too large
 * @param problem why an existing file could not be used, one plain line; empty otherwise
 * @param leftUnchanged why kcshare never replaces what it read (it was written by a newer version,
 *     or is not understood); empty otherwise
 * @param contents what it holds, decoded tolerantly
 * @param <T> the decoded form
 */
public record RecordFileRead<T>(
    Path file,
    boolean exists,
    boolean usable,
    Optional<String> problem,
    Optional<String> leftUnchanged,
    T contents) {
  /**
   * Validates.
   *
   * @throws NullPointerException if an argument is null
   */
  public RecordFileRead {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(problem, "problem");
    Objects.requireNonNull(leftUnchanged, "leftUnchanged");
    Objects.requireNonNull(contents, "contents");
  }

  /**
   * Whether what it holds can be trusted to be all it holds: usable, and not left unchanged.
   *
   * @return true when a missing name really is absent from the file
   */
  public boolean isComplete() {
    return usable && leftUnchanged.isEmpty();
  }
}
