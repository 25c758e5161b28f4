package dev.kcshare.host.config;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The host as one load sees it, for the clients ({@link ClientFamily}): the environment, the home,
 * the working directory (the workspace), the platform, the locations clients share, and what a
 * client remembers during the load.
 */
final class ClientHost {
  private final Map<String, String> env;
  private final Path home;
  private final Path cwd;
  private final Platform platform;
  private final Map<String, Object> memos = new HashMap<>();

  ClientHost(Map<String, String> env, Path home, Path cwd, Platform platform) {
    this.env = env;
    this.home = home;
    this.cwd = cwd;
    this.platform = platform;
  }

  Map<String, String> env() {
    return env;
  }

  Path home() {
    return home;
  }

  /** The working directory, absolute and normalized. */
  Path cwd() {
    return cwd;
  }

  Platform platform() {
    return platform;
  }

  /** A variable's value ({@code env().get(NAME)}), or null when it is unset or empty. */
  static @Nullable String nonEmpty(@Nullable String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  /** {@code $XDG_CONFIG_HOME} when set (absolute), else {@code ~/.config}. */
  Path xdgConfig() {
    String xdg = nonEmpty(env.get("XDG_CONFIG_HOME"));
    return xdg != null && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".config");
  }

  /** Where Electron applications keep per-user data: VS Code's {@code Code/User} lives there. */
  Path appData() {
    return switch (platform) {
      case MACOS -> home.resolve("Library/Application Support");
      case WINDOWS -> {
        String appData = nonEmpty(env.get("APPDATA"));
        yield appData != null ? cwd.resolve(appData) : home.resolve("AppData/Roaming");
      }
      case LINUX -> xdgConfig();
    };
  }

  /**
   * The directory a variable's value names ({@code env().get(NAME)}, a leading {@code ~} expanded),
   * else {@code otherwise} when it is unset or empty.
   */
  Path directory(@Nullable String value, Path otherwise) {
    String h = nonEmpty(value);
    return h != null ? cwd.resolve(expandTilde(h)) : otherwise;
  }

  /** {@code name} with a leading {@code ~} or {@code ~/} expanded to the home. */
  Path expandTilde(String name) {
    if (name.equals("~")) {
      return home;
    }
    if (name.startsWith("~/")) {
      return home.resolve(name.substring(2));
    }
    return Path.of(name);
  }

  /** A user-level path as {@code ~/...} when it is under the home. */
  String user(Path path) {
    if (path.startsWith(home) && !path.equals(home)) {
      return "~/" + home.relativize(path).toString().replace('\\', '/');
    }
    return path.toString();
  }

  /** What a client remembered under {@code key} during this load, or null. */
  @Nullable Object recalled(String key) {
    return memos.get(key);
  }

  /** Remembers {@code value} under {@code key} for the rest of this load. */
  void remember(String key, Object value) {
    memos.put(key, value);
  }

  /** The value remembered under {@code key}, computed once per load. */
  @SuppressWarnings("unchecked")
  <T> T once(String key, Supplier<T> compute) {
    Object v = memos.get(key);
    if (v == null) {
      v = compute.get();
      memos.put(key, v);
    }
    return (T) v;
  }
}
