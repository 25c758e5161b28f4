package dev.kcshare.cli;

import dev.kcshare.host.FileReads;
import dev.kcshare.host.HostContext;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * What a command may touch of the outside world: standard streams, the environment, the working
 * directory and the clock. Passed in explicitly so every command runs in-process under test with
 * captured streams, a controlled environment and a fixed clock.
 *
 * @param in standard input
 * @param out standard output: data only
 * @param err standard error: diagnostics and logs
 * @param env the environment variables
 * @param cwd the working directory relative paths resolve against
 * @param clock the wall clock for record timestamps
 * @param reads the host files the command has read, each read once (the Kiro Crew configuration
 *     names the records directory, the host profile and the gateway settings)
 */
public record CliContext(
    InputStream in,
    PrintWriter out,
    PrintWriter err,
    Map<String, String> env,
    Path cwd,
    Clock clock,
    FileReads reads) {
  public CliContext {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    env = Map.copyOf(env);
    Objects.requireNonNull(cwd, "cwd");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(reads, "reads");
  }

  /** A context for one command, which has read nothing yet. */
  public CliContext(
      InputStream in,
      PrintWriter out,
      PrintWriter err,
      Map<String, String> env,
      Path cwd,
      Clock clock) {
    this(in, out, err, env, cwd, clock, new FileReads());
  }

  /** A context on the system clock. */
  public CliContext(
      InputStream in, PrintWriter out, PrintWriter err, Map<String, String> env, Path cwd) {
    this(in, out, err, env, cwd, Clock.systemUTC());
  }

  /** What the library packages take from this context: environment, directory and clock. */
  public HostContext host() {
    return new HostContext(env, cwd, clock, reads);
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
