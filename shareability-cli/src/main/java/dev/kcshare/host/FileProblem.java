package dev.kcshare.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A file kcshare needs could not be used because of the environment (permissions, a full disk, a
 * file where a directory should be, a record file written by a newer version): never kcshare's own
 * defect. Its message is one plain line naming the path and the reason in words, for example {@code
 * cannot write /x/observed-hazards.json: permission denied}; the cause chain holds the operating
 * system's own failure.
 */
public final class FileProblem extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path path;
  private final Kind kind;

  /** Which kind of problem: an operation that failed, or one kcshare declined. */
  private enum Kind {
    FAILED,
    LEFT_UNCHANGED,
    REFUSED
  }

  private FileProblem(Path path, String message, Throwable cause) {
    super(message, cause);
    this.path = path;
    this.kind = Kind.FAILED;
  }

  private FileProblem(Path path, String message, Kind kind) {
    super(message);
    this.path = path;
    this.kind = kind;
  }

  /**
   * {@code cannot <action> <path>: <reason>}, the reason taken from {@code cause} in words; when
   * the operating system failed on another path (a parent directory that is a file), that path is
   * named too.
   *
   * @param action what was attempted: {@code write}, {@code lock}, {@code create}, {@code read}
   * @param path the file the user would recognise (the record file, not its temporary file)
   * @param cause the failure
   * @return the problem
   */
  public static FileProblem of(String action, Path path, Throwable cause) {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(cause, "cause");
    if (cause instanceof FileProblem already) {
      return already;
    }
    String reason = FileProblems.reason(cause);
    String other = FileProblems.pathOf(cause);
    String detail =
        other == null || isSameOrTemporary(path, other) ? reason : other + ": " + reason;
    return new FileProblem(path, "cannot " + action + " " + path + ": " + detail, cause);
  }

  /**
   * A record file kcshare leaves as it is: {@code <path> <why>; left unchanged}, for example {@code
   * /x/observed-hazards.json was written by a newer version (schema 2); left unchanged}.
   *
   * @param path the record file
   * @param why what completes "the file …"
   * @return the problem
   */
  public static FileProblem leftUnchanged(Path path, String why) {
    return new FileProblem(path, path + " " + why + "; left unchanged", Kind.LEFT_UNCHANGED);
  }

  /**
   * A path kcshare will not write through because of how the host is set up, and so writes nothing:
   * a records directory others can write, a lock file that is a symbolic link, a capture directory
   * that is one. The operator's to fix, like bad input.
   *
   * @param path the path concerned
   * @param message the whole line: what is wrong and how to fix it
   * @return the problem
   */
  public static FileProblem refused(Path path, String message) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
    return new FileProblem(path, message, Kind.REFUSED);
  }

  /**
   * A path that cannot be used as it is, found before anything was attempted (a plain file where
   * the records directory should be, a directory this process cannot write).
   *
   * @param path the path concerned
   * @param message the whole line: the path and the reason
   * @return the problem
   */
  public static FileProblem unusable(Path path, String message) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
    return new FileProblem(path, message, Kind.FAILED);
  }

  /** The file concerned. */
  public Path path() {
    return path;
  }

  /**
   * Whether kcshare refused to replace a record file it could not merge ({@link #leftUnchanged}),
   * as opposed to a path it could not use at all.
   */
  public boolean isLeftUnchanged() {
    return kind == Kind.LEFT_UNCHANGED;
  }

  /**
   * Whether kcshare refused the path because of how the host is set up ({@link #refused}): the
   * operator's to fix, reported like bad input.
   */
  public boolean isRefused() {
    return kind == Kind.REFUSED;
  }

  private static boolean isSameOrTemporary(Path path, String other) {
    String p = path.toString();
    if (other.equals(p)) {
      return true;
    }
    Path o = Path.of(other);
    Path parent = path.toAbsolutePath().getParent();
    String name = o.getFileName() == null ? "" : o.getFileName().toString();
    return parent != null
        && parent.equals(o.toAbsolutePath().getParent())
        && name.startsWith("." + path.getFileName() + ".")
        && name.endsWith(".tmp");
  }
}
