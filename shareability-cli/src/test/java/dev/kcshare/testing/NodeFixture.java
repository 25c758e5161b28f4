package dev.kcshare.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The repository's Node.js fixture server ({@code src-it/fixtures/mcp-fixture.mjs}) and the {@code
 * node} that runs it: the one place tests look either up. A test that spawns the fixture calls
 * {@link #assumeNode()} first, so a host without Node.js skips it instead of failing.
 */
public final class NodeFixture {
  /** The fixture server script, absolute ({@code -Dkcshare.fixtures=DIR} moves it). */
  public static final Path SCRIPT =
      Path.of(System.getProperty("kcshare.fixtures", "../src-it/fixtures"))
          .resolve("mcp-fixture.mjs")
          .toAbsolutePath()
          .normalize();

  private NodeFixture() {}

  /**
   * The {@code node} executable the test JVM's {@code PATH} leads to, as a server's command {@code
   * node} would resolve: the first entry holding an executable regular file of that name (an empty
   * entry is the current directory).
   */
  public static Optional<Path> node() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator, -1)) {
      try {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, "node");
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate.toAbsolutePath());
        }
      } catch (InvalidPathException e) {
        // not a directory name: nothing to find there
      }
    }
    return Optional.empty();
  }

  /** Whether {@code node} is on the {@code PATH}. */
  public static boolean available() {
    return node().isPresent();
  }

  /** Skips the calling test (or class, from {@code @BeforeAll}) when {@code node} is missing. */
  public static void assumeNode() {
    Assumptions.assumeTrue(available(), "node is not installed");
  }
}
