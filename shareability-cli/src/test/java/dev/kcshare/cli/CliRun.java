package dev.kcshare.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** Runs kcshare in-process with captured streams. */
record CliRun(int exitCode, String stdout, String stderr) {
  static CliRun run(Path cwd, String stdin, Map<String, String> env, String... args) {
    return run(cwd, stdin, env, Clock.systemUTC(), args);
  }

  /** As {@link #run(Path, String, Map, String...)} on the given clock. */
  static CliRun run(Path cwd, String stdin, Map<String, String> env, Clock clock, String... args) {
    return run(cwd, stdin, env, clock, new StringWriter(), args);
  }

  /** As above, with standard error written to {@code err} as it comes (a test can watch it). */
  static CliRun run(
      Path cwd,
      String stdin,
      Map<String, String> env,
      Clock clock,
      StringWriter err,
      String... args) {
    StringWriter out = new StringWriter();
    CliContext ctx =
        new CliContext(
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintWriter(out),
            new PrintWriter(err),
            env,
            cwd,
            clock);
    int code = Main.run(ctx, args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /** A context with empty input, discarded output and an empty environment. */
  static CliContext context(Path cwd) {
    return new CliContext(
        new ByteArrayInputStream(new byte[0]),
        new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()),
        Map.of(),
        cwd);
  }

  static CliRun run(Path cwd, String... args) {
    return run(cwd, "", Map.of(), args);
  }
}
