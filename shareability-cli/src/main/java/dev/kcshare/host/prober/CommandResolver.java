package dev.kcshare.host.prober;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Finds the executable a server's {@code command} names (docs/design.md#spawning): a command with a
 * {@code /} is taken as a path (relative to the child's working directory); anything else is
 * searched in the {@code PATH} the child will see, never kcshare's own when the server declares
 * one.
 */
final class CommandResolver {
  private CommandResolver() {}

  /**
   * The absolute path of the executable, or empty when nothing executable is found.
   *
   * @param childPath the child's {@code PATH}, or null when it has none
   * @param childDirectory the child's working directory
   */
  static Optional<Path> resolve(String command, @Nullable String childPath, Path childDirectory) {
    try {
      if (command.indexOf('/') >= 0) {
        return executable(childDirectory.resolve(command));
      }
      if (childPath == null) {
        return Optional.empty();
      }
      for (String entry : childPath.split(File.pathSeparator, -1)) {
        // An empty PATH entry means the current directory, as for execvp.
        Path dir = entry.isEmpty() ? childDirectory : childDirectory.resolve(entry);
        Optional<Path> found = executable(dir.resolve(command));
        if (found.isPresent()) {
          return found;
        }
      }
      return Optional.empty();
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  private static Optional<Path> executable(Path candidate) {
    Path absolute = candidate.toAbsolutePath();
    return Files.isRegularFile(absolute) && Files.isExecutable(absolute)
        ? Optional.of(absolute)
        : Optional.empty();
  }
}
