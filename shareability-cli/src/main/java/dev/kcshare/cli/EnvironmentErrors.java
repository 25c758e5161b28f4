package dev.kcshare.cli;

import dev.kcshare.api.RecordsException;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.FileProblem;
import dev.kcshare.host.FileProblems;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;

/**
 * Turns a failure of the environment (a file that cannot be read, written or locked) into what
 * {@code kcshare} prints: one plain line naming the path and the reason in words, the chain of
 * causes for {@code -vv}, and whether the path is one the user gave on the command line ({@code
 * --records-dir}, {@code --capture}, {@code --metrics}), which makes it a usage error (exit 2). A
 * path kcshare refuses because of how the host is set up (a records directory others can write, a
 * lock file that is a symbolic link) is the operator's to fix: exit 2 as well. A record file
 * kcshare leaves unchanged (written by a newer version, not understood, unreadable) is not the
 * path's fault: exit 1.
 */
final class EnvironmentErrors {
  /** The options whose value is a path the user chose for kcshare to write. */
  static final List<String> PATH_OPTIONS = List.of("--records-dir", "--capture", "--metrics");

  private EnvironmentErrors() {}

  /**
   * What to print.
   *
   * @param message the line after {@code kcshare: }
   * @param causes the causes in words, outermost first (for {@code -vv})
   * @param usageError whether it is the operator's to fix (exit 2): the path lies in a path given
   *     with one of {@link #PATH_OPTIONS}, or kcshare refused the path ({@link
   *     FileProblem#isRefused()})
   */
  record Report(String message, List<String> causes, boolean usageError) {}

  /** The report for {@code failure}, or null when it is not the environment's (kcshare's own). */
  static @Nullable Report of(
      Throwable failure, CliContext ctx, CommandLine.ParseResult parseResult) {
    FileProblem problem = null;
    RecordsException records = null;
    IOException io = null;
    for (Throwable e = failure; e != null && io == null; e = e.getCause()) {
      if (e instanceof FileProblem p) {
        problem = p;
        io = p;
      } else if (e instanceof RecordsException r) { // a FileProblem as the facade throws it
        records = r;
        io = r;
      } else if (e instanceof IOException i) {
        io = i;
      } else if (!(e instanceof UncheckedIOException)) {
        break;
      }
      if (e.getCause() == e) {
        break;
      }
    }
    if (io == null) {
      return null;
    }
    String message;
    @Nullable String path;
    boolean refused = false;
    boolean leftUnchanged = false;
    if (problem != null) {
      message = problem.getMessage();
      path = problem.path().toString();
      refused = problem.isRefused();
      leftUnchanged = problem.isLeftUnchanged();
    } else if (records != null) {
      message = String.valueOf(records.getMessage());
      path = records.path().toString();
      refused = records.isRefused();
      leftUnchanged = records.isLeftUnchanged();
    } else {
      path = FileProblems.pathOf(io);
      message = path == null ? FileProblems.reason(io) : path + ": " + FileProblems.reason(io);
    }
    List<String> causes = new ArrayList<>();
    Throwable cause = io.getCause();
    if (cause != null) {
      causes.addAll(FileProblems.causes(cause));
    }
    List<String> escaped = new ArrayList<>();
    for (String c : causes) {
      escaped.add(Escaper.esc(c, Escaper.LONG_LIMIT));
    }
    return new Report(
        Escaper.esc(message, Escaper.LONG_LIMIT),
        escaped,
        refused || (path != null && !leftUnchanged && isUnderUserPath(path, ctx, parseResult)));
  }

  private static boolean isUnderUserPath(
      String path, CliContext ctx, CommandLine.ParseResult parseResult) {
    Path failed;
    try {
      failed = ctx.cwd().resolve(path).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      return false;
    }
    for (CommandLine.ParseResult r = parseResult; r != null; r = r.subcommand()) {
      for (String option : PATH_OPTIONS) {
        if (!r.hasMatchedOption(option)) {
          continue;
        }
        Object value = r.matchedOption(option).getValue();
        if (value == null || value.toString().isEmpty()) {
          continue;
        }
        try {
          Path given = ctx.cwd().resolve(value.toString()).toAbsolutePath().normalize();
          if (failed.startsWith(given)) {
            return true;
          }
        } catch (InvalidPathException e) {
          // not a path: cannot be the one that failed
        }
      }
    }
    return false;
  }
}
