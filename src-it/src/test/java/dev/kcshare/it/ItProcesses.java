package dev.kcshare.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/** What the ITs in other packages need: the launcher, the fixture server, node. */
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

  /** Skips the calling test when {@code node} is not on PATH. */
  public static void assumeNode() {
    boolean found = false;
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "node"))) {
        found = true;
        break;
      }
    }
    Assumptions.assumeTrue(found, "node is not installed");
  }
}
