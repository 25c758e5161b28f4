package dev.kcshare.api;

import dev.kcshare.core.json.internal.CodePoints;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One definition of a server name, where it came from, and its execution identity: an element of
 * {@link ConfiguredServer#configured()}. Definitions a gateway hands to {@link
 * dev.kcshare.embed.Shareability#servers(List)} come from {@code <embedded>} (their pointer is
 * their index, their format {@code embedded}); those read from the host's client configs name their
 * file, the JSON pointer of the entry and the file's format. Immutable; kcshare implements it (two
 * are equal when their components are), and later versions may add accessors.
 */
public interface ConfiguredDefinition {
  /**
   * The definition after variable substitution.
   *
   * @return the definition
   */
  ServerDefinition definition();

  /**
   * The file as displayed ({@code ~/.cursor/mcp.json}, {@code <embedded>}).
   *
   * @return the file
   */
  String file();

  /**
   * The file's absolute path (the working directory for an embedded definition).
   *
   * @return the path
   */
  Path path();

  /**
   * JSON pointer of the entry in that file.
   *
   * @return the pointer
   */
  String pointer();

  /**
   * The file's format, as the {@code format} member of {@code kcshare config --json} names it
   * ({@code cursor}, {@code vscode}, ..., {@code embedded}: docs/config.md).
   *
   * @return the format id
   */
  String format();

  /**
   * The client that reads that file, as output names it ({@code Cursor}, {@code VS Code}, ...,
   * {@code the embedding gateway}).
   *
   * @return the client
   */
  String client();

  /**
   * The verdict-cache execution identity (docs/design.md#cache-identity) of a stdio definition.
   *
   * @return the identity; null otherwise, and for a template that cannot be measured as written
   */
  @Nullable String identity();

  /**
   * Variable references left unresolved in it.
   *
   * @return the references
   */
  List<UnresolvedVariable> unresolved();

  /**
   * Where each variable of {@code definition().env()} comes from, by name, when the file's launcher
   * composes the env from more than the entry's own {@code env} (1MCP's {@code serverDefaults.env},
   * a bare name in a list-form {@code env}); names not in it come from the entry's {@code env}.
   *
   * @return the origins (unmodifiable, in order)
   */
  Map<String, String> envOrigins();

  /**
   * Where the variable {@code name} of the env comes from, as docs/config.md names it.
   *
   * @param name a name of {@code definition().env()}
   * @return its origin ({@code env} unless {@link #envOrigins()} says otherwise)
   */
  default String envOrigin(String name) {
    return envOrigins().getOrDefault(name, "env");
  }

  /**
   * Whether the definition launches a process over stdio ({@link ServerDefinition#isStdio}).
   *
   * @return true for a stdio definition
   */
  default boolean isStdio() {
    return definition().isStdio();
  }

  /**
   * Why this definition cannot be measured as written, or null when it can: a template the client
   * renders for each of its clients (an unresolved {@link UnresolvedVariable.Reason#TEMPLATE}
   * variable). Such a definition is also disabled, has no identity and is never spawned.
   *
   * @return the reason, or null
   */
  default @Nullable String unmeasurable() {
    for (UnresolvedVariable u : unresolved()) {
      if (u.reason() == UnresolvedVariable.Reason.TEMPLATE) {
        return "a 1MCP template with variables, rendered for each client: it cannot be measured as"
            + " written";
      }
    }
    return null;
  }

  /**
   * The configured server name.
   *
   * @return the definition's name
   */
  default String name() {
    return definition().name();
  }

  /**
   * The declared env names, sorted by code point. Never the values.
   *
   * @return the names
   */
  default List<String> envNames() {
    List<String> names = new ArrayList<>(definition().env().keySet());
    names.sort(CodePoints.ORDER);
    return List.copyOf(names);
  }
}
