package dev.kcshare.host.prober;

import java.util.List;
import java.util.Objects;

/**
 * How a server was started, for {@code -v} output: the resolved command line, the NAMES of the
 * environment variables its definition declares (never their values; the rest of its environment is
 * kcshare's own) and its working directory. Escape before showing.
 *
 * @param commandLine the executable as resolved on PATH, then the arguments
 * @param declaredEnvNames the names of the declared env variables, in declaration order
 * @param directory the working directory
 */
public record LaunchSummary(
    List<String> commandLine, List<String> declaredEnvNames, String directory) {
  public LaunchSummary {
    commandLine = List.copyOf(commandLine);
    declaredEnvNames = List.copyOf(declaredEnvNames);
    Objects.requireNonNull(directory, "directory");
  }
}
