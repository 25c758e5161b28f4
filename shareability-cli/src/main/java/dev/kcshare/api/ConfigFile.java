package dev.kcshare.api;

import dev.kcshare.core.text.ProblemLines;
import java.nio.file.Path;
import java.util.List;

/**
 * One file kcshare looked at when reading the host's client configs ({@link HostServers#files()}),
 * and what came of it. Immutable; kcshare implements it (two are equal when their components are),
 * and later versions may add accessors.
 */
public interface ConfigFile {
  /**
   * The file as shown to the operator: as given for {@code --config}, else relative to the
   * workspace or as {@code ~/...}.
   *
   * @return the file as displayed
   */
  String display();

  /**
   * The absolute path.
   *
   * @return the path
   */
  Path path();

  /**
   * Which source slot it filled: {@code config} (named with {@code --config}) or a discovery slot
   * such as {@code kiro-user} (see {@code docs/config.md}).
   *
   * @return the slot
   */
  String origin();

  /**
   * The ids of the formats read from it, as the {@code format} member of {@code kcshare config
   * --json} names them (an explicit file can be both an {@code mcpServers} file and a Kiro Crew
   * configuration).
   *
   * @return the ids; empty when it was not read
   */
  List<String> formats();

  /**
   * The outcome.
   *
   * @return the status
   */
  Status status();

  /**
   * What made it an error or made kcshare skip it, each {@code pointer: problem} or {@code
   * line:column: problem}; never an env value, but config text (names, pointers) unescaped: escape
   * before printing.
   *
   * @return the problems
   */
  List<String> problems();

  /**
   * Non-fatal notes in the form of {@link #problems()}.
   *
   * @return the warnings
   */
  List<String> warnings();

  /**
   * How many server definitions it contributed.
   *
   * @return the count
   */
  int servers();

  /**
   * The server entries kcshare could not use, each left out on its own while the file's other
   * entries are read: of a file that was read (a named file with any is an {@link Status#ERROR},
   * and its {@code problems} repeat them).
   *
   * @return the entries; empty for a file skipped whole
   */
  List<UnusableEntry> unusableEntries();

  /**
   * One problem of this file as printed: {@code file: /pointer: problem}, or {@code
   * file:line:column: problem} for a syntax error.
   *
   * @param problem one of {@link #problems()} or {@link #warnings()}
   * @return the line, unescaped
   */
  default String describe(String problem) {
    return ProblemLines.located(display(), problem);
  }

  /** What happened to a file. */
  enum Status {
    /**
     * Read; its servers (if any) are listed. A discovered file can be read with {@link
     * #unusableEntries()}: those entries are left out and warned about, the others count.
     */
    READ("read"),
    /** A discovered file that does not exist: skipped silently. */
    MISSING("missing"),
    /**
     * A file named with {@code --config} that is missing, unreadable, not valid JSON(C), TOML or
     * YAML, or has a member of the wrong type or an unusable entry. Its usable entries are still
     * listed, but commands that need the configuration refuse to run (exit 2).
     */
    ERROR("error"),
    /**
     * A discovered file that exists but cannot be used at all (unreadable, not valid JSON(C), TOML
     * or YAML, a top level or server section of the wrong shape, bad Kiro Crew gateway settings):
     * its servers are left out, the reason is listed and warned about once, and every other file
     * still counts.
     */
    SKIPPED("skipped"),
    /** The same file was already read through an earlier slot; not read twice. */
    DUPLICATE("duplicate");

    private final String id;

    Status(String id) {
      this.id = id;
    }

    /**
     * The stable name used in output ({@code read}, {@code skipped}, ...).
     *
     * @return the id
     */
    public String id() {
      return id;
    }
  }
}
