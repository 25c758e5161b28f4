package dev.kcshare.host.config;

import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.text.ProblemLines;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileReads;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The parts of the Kiro Crew configuration ({@code $KIROCREW_HOME/config.json}, default {@code
 * ~/.kiro/crew/config.json}) that decide where the records live.
 */
public final class KiroCrewConfig {
  private KiroCrewConfig() {}

  /** The user's home: {@code $HOME} when set and non-empty, else Java's {@code user.home}. */
  public static Path userHome(Map<String, String> env) {
    String home = env.get("HOME");
    return Path.of(home != null && !home.isEmpty() ? home : System.getProperty("user.home"));
  }

  /** The Kiro Crew data home: {@code $KIROCREW_HOME} (raw) or {@code ~/.kiro/crew}. */
  public static Path home(Map<String, String> env) {
    String home = env.get("KIROCREW_HOME");
    if (home != null && !home.isEmpty()) {
      return Path.of(home);
    }
    return userHome(env).resolve(".kiro").resolve("crew");
  }

  /** The Kiro Crew configuration file. */
  public static Path configFile(Map<String, String> env) {
    return home(env).resolve("config.json");
  }

  /**
   * The configured {@code mcp_gateway.socket_path}: null when the file, the section or the member
   * is absent or null. The file may carry comments and trailing commas.
   *
   * @param reads where the file is read once
   * @throws BadInputException when the file cannot be read, is not JSON or a member has the wrong
   *     type
   */
  public static @Nullable String socketPath(FileReads reads, Path configFile) {
    try {
      return gatewaySettings(reads, configFile).socketPath();
    } catch (BadInputException e) {
      throw new BadInputException(
          e.getMessage()
              + System.lineSeparator()
              + "the records directory is found through its mcp_gateway.socket_path: fix the file,"
              + " or name the records directory with --records-dir or KCSHARE_RECORDS_DIR",
          e);
    }
  }

  /**
   * The {@code mcp_gateway} section of the file; {@link GatewaySettings#absent()} when the file
   * does not exist.
   *
   * @param reads where the file is read once
   * @throws BadInputException when the file cannot be read, is not JSON or the section or {@code
   *     socket_path} has the wrong type
   */
  public static GatewaySettings gatewaySettings(FileReads reads, Path configFile) {
    ConfigFiles.Read read = ConfigFiles.read(reads, configFile, FileSyntax.JSON);
    if (read.missing()) {
      return GatewaySettings.absent();
    }
    if (read.problem() != null) {
      throw new BadInputException(ProblemLines.located(configFile.toString(), read.problem()));
    }
    try {
      return GatewaySettings.fromDocument(read.root(), configFile.toString());
    } catch (JsonInputException e) {
      throw new BadInputException(configFile + ": " + e.getMessage(), e);
    }
  }
}
