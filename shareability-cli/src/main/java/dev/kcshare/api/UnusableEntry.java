package dev.kcshare.api;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A server entry of a configuration file that kcshare cannot use (a shape it does not read, a blank
 * command or name, a member of the wrong type): it is left out on its own, and every other entry of
 * its file is read as usual ({@link ConfigFile#unusableEntries()}). Obtained with {@link #of};
 * immutable.
 */
public final class UnusableEntry {
  private final String server;
  private final String file;
  private final String pointer;
  private final String problem;

  private UnusableEntry(String server, String file, String pointer, String problem) {
    this.server = server;
    this.file = file;
    this.pointer = pointer;
    this.problem = problem;
  }

  /**
   * An unusable entry.
   *
   * @param server the server name as far as it could be read (the entry's key, or its {@code name}
   *     member where the client names servers that way); empty when there is none
   * @param file the file as displayed
   * @param pointer JSON pointer of the value at fault ({@code /mcpServers/x/command})
   * @param problem why it cannot be used ({@code expected a string, got a number})
   * @return the entry
   * @throws NullPointerException if an argument is null
   */
  public static UnusableEntry of(String server, String file, String pointer, String problem) {
    return new UnusableEntry(
        Objects.requireNonNull(server, "server"),
        Objects.requireNonNull(file, "file"),
        Objects.requireNonNull(pointer, "pointer"),
        Objects.requireNonNull(problem, "problem"));
  }

  /**
   * The server name as far as it could be read; empty when the entry has none.
   *
   * @return the name
   */
  public String server() {
    return server;
  }

  /**
   * The file as displayed.
   *
   * @return the file
   */
  public String file() {
    return file;
  }

  /**
   * JSON pointer of the value at fault.
   *
   * @return the pointer, {@code ""} for the whole document
   */
  public String pointer() {
    return pointer;
  }

  /**
   * Why the entry cannot be used, in plain words; config text (names) unescaped, never an env
   * value.
   *
   * @return the problem
   */
  public String problem() {
    return problem;
  }

  /**
   * The line kcshare prints for it: {@code file: /pointer: problem}, unescaped.
   *
   * @return the line
   */
  public String describe() {
    return file + ": " + (pointer.isEmpty() ? "(root)" : pointer) + ": " + problem;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof UnusableEntry u
        && server.equals(u.server)
        && file.equals(u.file)
        && pointer.equals(u.pointer)
        && problem.equals(u.problem);
  }

  @Override
  public int hashCode() {
    return Objects.hash(server, file, pointer, problem);
  }

  @Override
  public String toString() {
    return "UnusableEntry[server=" + server + ", " + describe() + "]";
  }
}
