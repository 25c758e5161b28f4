package dev.kcshare.host;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * What the library packages may take from the host they run on: the environment, the working
 * directory relative paths resolve against, and the wall clock. Passed in explicitly, so a caller
 * (the command layer, the embedding facade, a test) decides what each of them is.
 *
 * @param env the environment variables (copied)
 * @param cwd the working directory (made absolute)
 * @param clock the wall clock for record timestamps
 * @param reads the host files already read in this context, each read once
 */
public record HostContext(Map<String, String> env, Path cwd, Clock clock, FileReads reads) {
  public HostContext {
    env = Map.copyOf(env);
    cwd = Objects.requireNonNull(cwd, "cwd").toAbsolutePath();
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(reads, "reads");
  }

  /** A context that has read nothing yet. */
  public HostContext(Map<String, String> env, Path cwd, Clock clock) {
    this(env, cwd, clock, new FileReads());
  }

  /** The current wall-clock time as epoch seconds, the unit of every record timestamp. */
  public double epochSeconds() {
    return clock.millis() / 1000.0;
  }
}
