package dev.kcshare.api;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The records directory or one of its files could not be used because of the environment: a
 * permission, a full disk, a lock held elsewhere for too long, a file where a directory should be,
 * or a record file written by a newer version (which is never replaced). Never a defect of kcshare:
 * its message is one plain line naming the path and the reason in words, for example {@code cannot
 * write /var/lib/gateway/records/observed-hazards.json: permission denied}, fit for an operator's
 * log. The only checked exception the embedding API throws for such a problem.
 */
public final class RecordsException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path path;

  /** Whether a record file was left unchanged on purpose ({@link #isLeftUnchanged}). */
  private final boolean leftUnchanged;

  /** Whether the path was refused because of how the host is set up ({@link #isRefused}). */
  private final boolean refused;

  /**
   * A records problem as the library reports it.
   *
   * @param path the file or directory concerned
   * @param message one plain line naming the path and the reason
   * @param leftUnchanged whether a record file was left unchanged on purpose ({@link
   *     #isLeftUnchanged})
   * @param refused whether the path was refused because of how the host is set up ({@link
   *     #isRefused})
   * @param cause the operating system's own failure, or null
   */
  public RecordsException(
      Path path,
      String message,
      boolean leftUnchanged,
      boolean refused,
      @org.jspecify.annotations.Nullable Throwable cause) {
    super(message, cause);
    this.path = path;
    this.leftUnchanged = leftUnchanged;
    this.refused = refused;
  }

  /**
   * The file or directory concerned: a record file, its lock file, or the records directory.
   *
   * @return the path, absolute
   */
  public Path path() {
    return path;
  }

  /**
   * Whether kcshare refused to replace a record file it could not merge (written by a newer
   * version, not understood, or unreadable), as opposed to a path it could not use at all. Such a
   * file stays as it is until an operator looks at it.
   *
   * @return true for a file left unchanged on purpose
   */
  public boolean isLeftUnchanged() {
    return leftUnchanged;
  }

  /**
   * Whether kcshare refused the path because of how the host is set up, and so wrote nothing: a
   * records directory others can write (docs/security.md#who-may-write-the-records-directory), or a
   * lock file that is a symbolic link. The operator's to fix, like bad input.
   *
   * @return true for a path refused on purpose
   */
  public boolean isRefused() {
    return refused;
  }
}
