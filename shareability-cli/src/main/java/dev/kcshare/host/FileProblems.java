package dev.kcshare.host;

import dev.kcshare.api.RecordsException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The operating system's reason for a failed file operation, in plain words ({@code permission
 * denied}, {@code no space left on device}, {@code not a directory}), never a Java class name: what
 * an operator reads when the environment is at fault.
 */
public final class FileProblems {
  private FileProblems() {}

  /**
   * Why {@code failure} happened, in lower-case words without the path.
   *
   * @param failure an I/O failure (any throwable is accepted)
   * @return the reason, never empty
   */
  public static String reason(Throwable failure) {
    Throwable e = failure;
    if (e instanceof UncheckedIOException u && u.getCause() != null) {
      e = u.getCause();
    }
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return words(fse.getReason());
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "a file is in the way";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "directory not empty";
    }
    if (e instanceof NotLinkException) {
      return "not a symbolic link";
    }
    if (e instanceof FileSystemLoopException) {
      return "too many levels of symbolic links";
    }
    if (e instanceof AtomicMoveNotSupportedException) {
      return "cannot be replaced atomically there";
    }
    if (e instanceof ClosedByInterruptException) {
      return "interrupted";
    }
    if (e instanceof SecurityException) {
      return "not permitted";
    }
    if (e instanceof FileSystemException) {
      return "input/output error";
    }
    String message = e.getMessage();
    if (e instanceof IOException && message != null && !message.isBlank()) {
      return words(message);
    }
    return "input/output error";
  }

  /** The path a failure names, when it names one (the file an OS call failed on). */
  public static @Nullable String pathOf(Throwable failure) {
    Throwable e = failure instanceof UncheckedIOException u ? u.getCause() : failure;
    return e instanceof FileSystemException fse ? fse.getFile() : null;
  }

  /**
   * The chain of causes of {@code failure}, outermost first, each as "path: reason" (or the reason
   * alone) in plain words: what {@code -vv} prints for an environment problem.
   */
  public static List<String> causes(Throwable failure) {
    List<String> out = new ArrayList<>();
    Throwable e = failure;
    for (int depth = 0; e != null && depth < 10; depth++, e = e.getCause()) {
      String line;
      if (e instanceof FileProblem problem) {
        line = problem.getMessage();
      } else {
        String path = pathOf(e);
        line = path == null ? reason(e) : path + ": " + reason(e);
      }
      if (out.isEmpty() || !out.get(out.size() - 1).equals(line)) {
        out.add(line);
      }
      if (e.getCause() == e) {
        break;
      }
    }
    return out;
  }

  /** An OS message ("No space left on device") as lower-case words, without a trailing period. */
  private static String words(String message) {
    String m = message.strip();
    if (m.endsWith(".")) {
      m = m.substring(0, m.length() - 1);
    }
    if (m.length() > 1
        && Character.isUpperCase(m.charAt(0))
        && !Character.isUpperCase(m.charAt(1))) {
      m = m.substring(0, 1).toLowerCase(Locale.ROOT) + m.substring(1);
    }
    return m.isEmpty() ? "input/output error" : m;
  }

  /**
   * The one place a failure of the library packages becomes the API's exception: a {@link
   * FileProblem} keeps its message and path, and its cause (the operating system's own failure)
   * becomes the exception's cause, so no type of an unexported package is ever thrown; any other
   * I/O failure is named against {@code where}.
   *
   * @param failure what failed
   * @param where the path to name when the failure names none
   * @return the exception for the embedding API
   */
  public static RecordsException asRecordsException(IOException failure, Path where) {
    java.util.Objects.requireNonNull(failure, "failure");
    java.util.Objects.requireNonNull(where, "where");
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
        where, "cannot use " + where + ": " + reason(failure), false, false, failure);
  }
}
