package dev.kcshare.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * What the ITs need beside the launcher: the fixture server and the programs it takes (node), found
 * in one place.
 */
public final class ItProcesses {
  private ItProcesses() {}

  /** The launcher's outcome. */
  public record Result(int exitCode, String stdout, String stderr) {}

  /** Runs the packaged {@code kcshare} launcher in {@code cwd}. */
  public static Result kcshare(Path cwd, String... args) throws IOException, InterruptedException {
    Kcshare.Result r = Kcshare.run(cwd, Map.of(), "", args);
    return new Result(r.exitCode(), r.stdout(), r.stderr());
  }

  /** The repository's root. */
  public static Path repo() {
    return Kcshare.repo();
  }

  /** The Node.js fixture server. */
  public static Path fixture() {
    return repo().resolve("src-it").resolve("fixtures").resolve("mcp-fixture.mjs");
  }

  /** The {@code java} binary of the JVM running the tests. */
  public static String javaBin() {
    return Kcshare.javaBin();
  }

  /**
   * The executable {@code program} the test JVM's {@code PATH} leads to: the first entry holding an
   * executable regular file of that name (an empty entry is the current directory).
   */
  public static Optional<Path> onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator, -1)) {
      try {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate.toAbsolutePath());
        }
      } catch (InvalidPathException e) {
        // not a directory name: nothing to find there
      }
    }
    return Optional.empty();
  }

  /** The {@code node} on the PATH, if any. */
  public static Optional<Path> node() {
    return onPath("node");
  }

  /** Skips the calling test when {@code node} is not on PATH. */
  public static void assumeNode() {
    Assumptions.assumeTrue(node().isPresent(), "node is not installed");
  }
}
