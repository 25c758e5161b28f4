package dev.kcshare.api;

import dev.kcshare.core.text.ProblemLines;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One file kcshare looked at when reading the host's client configs ({@link HostServers#files()}),
 * and what came of it.
 *
 * @param display the file as shown to the operator: as given for {@code --config}, else relative to
 *     the workspace or as {@code ~/...}
 * @param path the absolute path
 * @param origin which source slot it filled: {@code config} (named with {@code --config}) or a
 *     discovery slot such as {@code kiro-user} (see {@code docs/config.md})
 * @param formats the ids of the formats read from it, as the {@code format} member of {@code
 *     kcshare config --json} names them (an explicit file can be both an {@code mcpServers} file
 *     and a Kiro Crew configuration); empty when it was not read
 * @param status the outcome
 * @param problems what made it an error or made kcshare skip it, each {@code pointer: problem} or
 *     {@code line:column: problem}; never an env value, but config text (names, pointers)
 *     unescaped: escape before printing
 * @param warnings non-fatal notes in the same form
 * @param servers how many server definitions it contributed
 * @param unusableEntries the server entries kcshare could not use, each left out on its own while
 *     the file's other entries are read: of a file that was read (a named file with any is an
 *     {@link Status#ERROR}, and its {@code problems} repeat them); empty for a file skipped whole
 */
public record ConfigFile(
    String display,
    Path path,
    String origin,
    List<String> formats,
    Status status,
    List<String> problems,
    List<String> warnings,
    int servers,
    List<UnusableEntry> unusableEntries) {

  /**
   * Validates and copies the lists.
   *
   * @param display the file as shown to the operator: as given for {@code --config}, else relative
   *     to the workspace or as {@code ~/...}
   * @param path the absolute path
   * @param origin which source slot it filled: {@code config} (named with {@code --config}) or a
   *     discovery slot such as {@code kiro-user} (see {@code docs/config.md})
   * @param formats the ids of the formats read from it, as the {@code format} member of {@code
   *     kcshare config --json} names them (an explicit file can be both an {@code mcpServers} file
   *     and a Kiro Crew configuration); empty when it was not read
   * @param status the outcome
   * @param problems what made it an error or made kcshare skip it, each {@code pointer: problem} or
   *     {@code line:column: problem}; never an env value, but config text (names, pointers)
   *     unescaped: escape before printing
   * @param warnings non-fatal notes in the same form
   * @param servers how many server definitions it contributed
   * @param unusableEntries the server entries kcshare could not use, each left out on its own while
   *     the file's other entries are read: of a file that was read (a named file with any is an
   *     {@link Status#ERROR}, and its {@code problems} repeat them); empty for a file skipped whole
   * @throws NullPointerException if an argument or an element of a list is null
   */
  public ConfigFile {
    Objects.requireNonNull(display, "display");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(origin, "origin");
    formats = List.copyOf(formats);
    Objects.requireNonNull(status, "status");
    problems = List.copyOf(problems);
    warnings = List.copyOf(warnings);
    unusableEntries = List.copyOf(unusableEntries);
  }

  /**
   * A file without unusable entries.
   *
   * @param display the file as shown to the operator: as given for {@code --config}, else relative
   *     to the workspace or as {@code ~/...}
   * @param path the absolute path
   * @param origin which source slot it filled: {@code config} (named with {@code --config}) or a
   *     discovery slot such as {@code kiro-user} (see {@code docs/config.md})
   * @param formats the ids of the formats read from it, as the {@code format} member of {@code
   *     kcshare config --json} names them (an explicit file can be both an {@code mcpServers} file
   *     and a Kiro Crew configuration); empty when it was not read
   * @param status the outcome
   * @param problems what made it an error or made kcshare skip it, each {@code pointer: problem} or
   *     {@code line:column: problem}; never an env value, but config text (names, pointers)
   *     unescaped: escape before printing
   * @param warnings non-fatal notes in the same form
   * @param servers how many server definitions it contributed
   * @throws NullPointerException if an argument or an element of a list is null
   */
  public ConfigFile(
      String display,
      Path path,
      String origin,
      List<String> formats,
      Status status,
      List<String> problems,
      List<String> warnings,
      int servers) {
    this(display, path, origin, formats, status, problems, warnings, servers, List.of());
  }

  /**
   * One problem of this file as printed: {@code file: /pointer: problem}, or {@code
   * file:line:column: problem} for a syntax error.
   *
   * @param problem one of {@link #problems()} or {@link #warnings()}
   * @return the line, unescaped
   */
  public String describe(String problem) {
    return ProblemLines.located(display, problem);
  }

  /** What happened to a file. */
  public enum Status {
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
