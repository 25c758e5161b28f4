package dev.kcshare.cli.config;

import dev.kcshare.cli.BadInputException;
import dev.kcshare.cli.json.JsonReader;
import dev.kcshare.cli.json.JsonSyntaxException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The parts of the Kiro Crew configuration ({@code $KIROCREW_HOME/config.json}, default {@code
 * ~/.kiro/crew/config.json}) that decide where the records live.
 */
public final class KiroCrewConfig {
  private static final JsonReader READER = JsonReader.withDepthLimit(JsonReader.RECORD_DEPTH_LIMIT);

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
   * is absent or null.
   *
   * @throws BadInputException when the file is not JSON or the member has the wrong type
   */
  public static @Nullable String socketPath(Path configFile) {
    Object root;
    try {
      root = READER.parse(Files.readAllBytes(configFile));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new BadInputException(configFile + ": cannot read: " + e.getMessage(), e);
    } catch (JsonSyntaxException e) {
      throw new BadInputException(configFile + ": not valid JSON: " + e.describe());
    }
    if (!(root instanceof Map<?, ?> top)) {
      throw new BadInputException(configFile + ": (root): expected an object");
    }
    Object section = top.get("mcp_gateway");
    if (section == null) {
      return null;
    }
    if (!(section instanceof Map<?, ?> gateway)) {
      throw new BadInputException(configFile + ": /mcp_gateway: expected an object");
    }
    Object socket = gateway.get("socket_path");
    if (socket == null || socket instanceof String) {
      return (String) socket;
    }
    throw new BadInputException(
        configFile + ": /mcp_gateway/socket_path: expected a string or null");
  }
}
