package dev.kcshare.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What a command may touch of the outside world: standard streams, the environment and the working
 * directory. Passed in explicitly so every command runs in-process under test with captured streams
 * and a controlled environment.
 *
 * @param in standard input
 * @param out standard output: data only
 * @param err standard error: diagnostics and logs
 * @param env the environment variables
 * @param cwd the working directory relative paths resolve against
 */
public record CliContext(
    InputStream in, PrintWriter out, PrintWriter err, Map<String, String> env, Path cwd) {
  public CliContext {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    env = Map.copyOf(env);
    Objects.requireNonNull(cwd, "cwd");
  }

  /**
   * Whether standard error is a terminal. The launcher tests it ({@code [ -t 2 ]}) and says so in
   * {@code KCSHARE_STDERR_TTY=1}, since the JVM cannot tell.
   */
  public boolean stderrIsTerminal() {
    return "1".equals(env.get("KCSHARE_STDERR_TTY"));
  }

  /** Whether standard output is a terminal ({@code KCSHARE_STDOUT_TTY=1}, set by the launcher). */
  public boolean stdoutIsTerminal() {
    return "1".equals(env.get("KCSHARE_STDOUT_TTY"));
  }

  /** Resolves a user-supplied path against {@link #cwd}. */
  public Path resolve(String path) {
    return cwd.resolve(path);
  }
}
