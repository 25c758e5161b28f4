package dev.kcshare.host.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where mcphub and 1MCP find their own files, shared by discovery ({@code kcshare config}) and by
 * seeding, so both read the file the gateway reads (docs/seeding.md, Other gateways).
 */
public final class GatewayLocations {
  private static final String MCPHUB_FILE = "mcp_settings.json";

  private GatewayLocations() {}

  /**
   * mcphub's settings file ({@code src/utils/path.ts}, {@code getConfigFilePath}): {@code
   * $MCPHUB_SETTING_PATH} when set (a path ending in {@code mcp_settings.json} as it is, else that
   * file in the directory it names), else the first that exists of {@code mcp_settings.json} in the
   * working directory and in its parent, else the one in the working directory. (mcphub also falls
   * back to its installed package's directory, which kcshare cannot know.)
   */
  public static Path mcphub(Map<String, String> env, Path cwd) {
    String setting = env.get("MCPHUB_SETTING_PATH");
    if (setting != null && !setting.isEmpty()) {
      Path p = cwd.resolve(setting);
      return setting.endsWith(MCPHUB_FILE) ? p : p.resolve(MCPHUB_FILE);
    }
    Path here = cwd.resolve(MCPHUB_FILE);
    Path parent = cwd.toAbsolutePath().getParent();
    if (!Files.exists(here) && parent != null && Files.exists(parent.resolve(MCPHUB_FILE))) {
      return parent.resolve(MCPHUB_FILE);
    }
    return here;
  }

  /**
   * 1MCP's configuration ({@code src/commands/serve/runtimeScope.ts}, {@code
   * src/constants/paths.ts}): {@code $ONE_MCP_CONFIG} (its {@code --config}), else {@code mcp.json}
   * in {@code $ONE_MCP_CONFIG_DIR} (its {@code --config-dir}), else {@code
   * ~/.config/1mcp/mcp.json}.
   */
  public static Path oneMcp(Map<String, String> env, Path cwd, Path home) {
    String config = env.get("ONE_MCP_CONFIG");
    if (config != null && !config.isEmpty()) {
      return cwd.resolve(config);
    }
    String dir = env.get("ONE_MCP_CONFIG_DIR");
    if (dir != null && !dir.isEmpty()) {
      return cwd.resolve(dir).resolve("mcp.json");
    }
    return home.resolve(".config/1mcp/mcp.json");
  }

  /**
   * Whether a value holds a Handlebars variable (two opening braces): 1MCP renders only strings
   * that contain them ({@code src/template/handlebarsTemplateRenderer.ts}).
   */
  public static boolean holdsVariable(@Nullable Object value) {
    if (value instanceof String s) {
      return s.contains("{{");
    }
    if (value instanceof Iterable<?> list) {
      for (Object o : list) {
        if (holdsVariable(o)) {
          return true;
        }
      }
    }
    if (value instanceof Map<?, ?> map) {
      for (Object o : map.values()) {
        if (holdsVariable(o)) {
          return true;
        }
      }
    }
    return false;
  }
}
