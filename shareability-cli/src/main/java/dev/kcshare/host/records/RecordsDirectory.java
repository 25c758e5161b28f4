package dev.kcshare.host.records;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where the two record files live, and which rule chose the place
 * (docs/formats.md#where-the-files-live). Every reader and writer in kcshare resolves the directory
 * through {@link #resolve}; resolution creates nothing.
 *
 * @param path the records directory
 * @param rule which rule chose it
 */
public record RecordsDirectory(Path path, Rule rule) {
  /** The ledger file name (interop). */
  public static final String LEDGER_FILE = "observed-hazards.json";

  /** The verdict cache file name (interop). */
  public static final String CACHE_FILE = "shareability-verdicts.json";

  /** kcshare's own file of pre-flights that could not run ({@link AttemptStore}). */
  public static final String ATTEMPTS_FILE = "kcshare-attempts.json";

  /** The rules, first match wins. */
  public enum Rule {
    /** {@code --records-dir} was given. */
    OPTION("--records-dir"),
    /** {@code KCSHARE_RECORDS_DIR} is set. */
    ENV("KCSHARE_RECORDS_DIR"),
    /** The parent of the configured gateway socket ({@code mcp_gateway.socket_path}). */
    SOCKET_PARENT("parent of mcp_gateway.socket_path"),
    /** {@code $KIROCREW_HOME/mcp-gateway}. */
    KIROCREW_HOME("$KIROCREW_HOME/mcp-gateway"),
    /** {@code ~/.kiro/crew/mcp-gateway}. */
    DEFAULT("~/.kiro/crew/mcp-gateway");

    private final String description;

    Rule(String description) {
      this.description = description;
    }

    /** How the rule is shown to an operator. */
    public String description() {
      return description;
    }
  }

  /**
   * Validates.
   *
   * @throws NullPointerException if {@code path} or {@code rule} is null
   */
  public RecordsDirectory {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(rule, "rule");
  }

  /**
   * Drops {@code .} segments only. {@code ..} is kept: removing it lexically would name a different
   * directory than the one the OS (and the Kiro Crew gateway) reaches when the segment before it is
   * a symbolic link, and the records directory rules are lexical, without resolution.
   *
   * @param path a path
   * @return it without its {@code .} segments
   */
  public static Path withoutDotSegments(Path path) {
    Path root = path.getRoot();
    Path out = root;
    for (Path segment : path) {
      if (segment.toString().equals(".")) {
        continue;
      }
      out = out == null ? segment : out.resolve(segment);
    }
    return out == null ? path : out;
  }

  /** The hazard ledger's path. */
  public Path ledgerFile() {
    return path.resolve(LEDGER_FILE);
  }

  /** The verdict cache's path. */
  public Path cacheFile() {
    return path.resolve(CACHE_FILE);
  }

  /** The path of kcshare's failed-attempts file. */
  public Path attemptsFile() {
    return path.resolve(ATTEMPTS_FILE);
  }

  /**
   * Resolves the records directory.
   *
   * @param option the {@code --records-dir} value, or null when not given
   * @param env the environment ({@code KCSHARE_RECORDS_DIR}, {@code KIROCREW_HOME})
   * @param socketPath the configured {@code mcp_gateway.socket_path}, or null when none is known
   * @param userHome the user's home directory
   */
  public static RecordsDirectory resolve(
      @Nullable String option,
      Map<String, String> env,
      @Nullable String socketPath,
      Path userHome) {
    if (option != null && !option.isEmpty()) {
      return new RecordsDirectory(Path.of(option), Rule.OPTION);
    }
    String fromEnv = env.get("KCSHARE_RECORDS_DIR");
    if (fromEnv != null && !fromEnv.isEmpty()) {
      return new RecordsDirectory(Path.of(fromEnv), Rule.ENV);
    }
    // "" and exactly "." count as unset: an empty path object stringifies to ".", and honouring it
    // would put the records wherever the process happened to start.
    if (socketPath != null && !socketPath.isEmpty() && !socketPath.equals(".")) {
      return new RecordsDirectory(lexicalParent(socketPath), Rule.SOCKET_PARENT);
    }
    String home = env.get("KIROCREW_HOME");
    if (home != null && !home.isEmpty()) {
      return new RecordsDirectory(Path.of(home, "mcp-gateway"), Rule.KIROCREW_HOME);
    }
    return new RecordsDirectory(
        userHome.resolve(".kiro").resolve("crew").resolve("mcp-gateway"), Rule.DEFAULT);
  }

  /**
   * The parent of a path taken as text, without touching the file system: {@code gateway.sock}
   * yields {@code .}, {@code /} yields {@code /} (as Python's {@code PurePath.parent} does).
   */
  static Path lexicalParent(String path) {
    Path p = Path.of(path);
    Path parent = p.getParent();
    if (parent != null) {
      return parent;
    }
    return p.getRoot() != null ? p.getRoot() : Path.of(".");
  }
}
