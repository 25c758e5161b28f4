package dev.kcshare.embed;

import dev.kcshare.host.FileProblem;
import dev.kcshare.host.FileProblems;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

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
  private final boolean leftUnchanged;
  private final boolean refused;

  private RecordsException(
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
   * Whether kcshare would not write through the path because of how the host is set up, and so
   * wrote nothing: a records directory others can write (docs/formats.md, "Who may write the
   * records directory"), or a lock file that is a symbolic link. The operator's to fix, as opposed
   * to the operating system refusing the path.
   *
   * @return true for a path kcshare refused by its own rule
   */
  public boolean isRefused() {
    return refused;
  }

  /**
   * The one place a failure of the library packages becomes the API's exception: a {@link
   * FileProblem} keeps its message and path, and its cause (the operating system's own failure)
   * becomes this exception's cause, so no type of an unexported package is ever thrown; any other
   * I/O failure is named against {@code where}.
   */
  static RecordsException of(IOException failure, Path where) {
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(where, "where");
    if (failure instanceof RecordsException already) {
      return already;
    }
    if (failure instanceof FileProblem problem) {
      Throwable cause = problem.getCause();
      return new RecordsException(
          problem.path(),
          String.valueOf(problem.getMessage()),
          problem.isLeftUnchanged(),
          problem.isRefused(),
          cause instanceof FileProblem ? null : cause);
    }
    return new RecordsException(
        where, "cannot use " + where + ": " + FileProblems.reason(failure), false, false, failure);
  }
}
