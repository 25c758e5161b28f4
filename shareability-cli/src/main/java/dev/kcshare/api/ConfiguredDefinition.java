package dev.kcshare.api;

import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.text.IdentityText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One definition of a server name, where it came from, and its execution identity: an element of
 * {@link ConfiguredServer#configured()}. Definitions a gateway hands to {@link
 * dev.kcshare.embed.Shareability#servers(List)} come from {@code <embedded>} (their pointer is
 * their index, their format {@code embedded}); those read from the host's client configs name their
 * file, the JSON pointer of the entry and the file's format. Immutable.
 *
 * @param definition the definition after variable substitution
 * @param file the file as displayed ({@code ~/.cursor/mcp.json}, {@code <embedded>})
 * @param path the file's absolute path (the working directory for an embedded definition)
 * @param pointer JSON pointer of the entry in that file
 * @param format the file's format, as the {@code format} member of {@code kcshare config --json}
 *     names it ({@code cursor}, {@code vscode}, ..., {@code embedded}: docs/config.md)
 * @param client the client that reads that file, as output names it ({@code Cursor}, {@code VS
 *     Code}, ..., {@code the embedding gateway})
 * @param identity the verdict-cache execution identity (docs/design.md#cache-identity) of a stdio
 *     definition; null otherwise, and for a template that cannot be measured as written
 * @param unresolved variable references left unresolved in it
 * @param envOrigins where each variable of {@code definition.env()} comes from, by name, when the
 *     file's launcher composes the env from more than the entry's own {@code env} (1MCP's {@code
 *     serverDefaults.env}, a bare name in a list-form {@code env}); names not in it come from the
 *     entry's {@code env}
 */
public record ConfiguredDefinition(
    ServerDefinition definition,
    String file,
    Path path,
    String pointer,
    String format,
    String client,
    @Nullable String identity,
    List<UnresolvedVariable> unresolved,
    Map<String, String> envOrigins) {

  /**
   * Validates and copies.
   *
   * @param definition the definition after variable substitution
   * @param file the file as displayed ({@code ~/.cursor/mcp.json}, {@code <embedded>})
   * @param path the file's absolute path (the working directory for an embedded definition)
   * @param pointer JSON pointer of the entry in that file
   * @param format the file's format, as the {@code format} member of {@code kcshare config --json}
   *     names it ({@code cursor}, {@code vscode}, ..., {@code embedded}: docs/config.md)
   * @param client the client that reads that file, as output names it ({@code Cursor}, {@code VS
   *     Code}, ..., {@code the embedding gateway})
   * @param identity the verdict-cache execution identity (docs/design.md#cache-identity) of a stdio
   *     definition; null otherwise, and for a template that cannot be measured as written
   * @param unresolved variable references left unresolved in it
   * @param envOrigins where each variable of {@code definition.env()} comes from, by name, when the
   *     file's launcher composes the env from more than the entry's own {@code env} (1MCP's {@code
   *     serverDefaults.env}, a bare name in a list-form {@code env}); names not in it come from the
   *     entry's {@code env}
   * @throws NullPointerException if an argument but {@code identity} is null
   */
  public ConfiguredDefinition {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(client, "client");
    unresolved = List.copyOf(unresolved);
    envOrigins = Collections.unmodifiableMap(new LinkedHashMap<>(envOrigins));
  }

  /**
   * A definition whose env is the entry's own.
   *
   * @param definition the definition after variable substitution
   * @param file the file as displayed ({@code ~/.cursor/mcp.json}, {@code <embedded>})
   * @param path the file's absolute path (the working directory for an embedded definition)
   * @param pointer JSON pointer of the entry in that file
   * @param format the file's format, as the {@code format} member of {@code kcshare config --json}
   *     names it ({@code cursor}, {@code vscode}, ..., {@code embedded}: docs/config.md)
   * @param client the client that reads that file, as output names it ({@code Cursor}, {@code VS
   *     Code}, ..., {@code the embedding gateway})
   * @param identity the verdict-cache execution identity (docs/design.md#cache-identity) of a stdio
   *     definition; null otherwise, and for a template that cannot be measured as written
   * @param unresolved variable references left unresolved in it
   * @throws NullPointerException if an argument but {@code identity} is null
   */
  public ConfiguredDefinition(
      ServerDefinition definition,
      String file,
      Path path,
      String pointer,
      String format,
      String client,
      @Nullable String identity,
      List<UnresolvedVariable> unresolved) {
    this(definition, file, path, pointer, format, client, identity, unresolved, Map.of());
  }

  /**
   * Where the variable {@code name} of the env comes from, as docs/config.md names it.
   *
   * @param name a name of {@code definition().env()}
   * @return its origin ({@code env} unless {@link #envOrigins()} says otherwise)
   */
  public String envOrigin(String name) {
    return envOrigins.getOrDefault(name, "env");
  }

  /** The components, the identity's NUL separators written as {@code \0}. */
  @Override
  public String toString() {
    return "ConfiguredDefinition[definition="
        + definition
        + ", file="
        + file
        + ", path="
        + path
        + ", pointer="
        + pointer
        + ", format="
        + format
        + ", client="
        + client
        + ", identity="
        + IdentityText.shown(identity)
        + ", unresolved="
        + unresolved
        + "]";
  }

  /** Why a 1MCP template is never spawned ({@link #unmeasurable()}). */
  static final String TEMPLATE_REFUSAL =
      "a 1MCP template with variables, rendered for each client: it cannot be measured as written";

  /**
   * Whether the definition launches a process over stdio ({@link ServerDefinition#isStdio}).
   *
   * @return true for a stdio definition
   */
  public boolean isStdio() {
    return definition.isStdio();
  }

  /**
   * Why this definition cannot be measured as written, or null when it can: a template the client
   * renders for each of its clients (an unresolved {@link UnresolvedVariable.Reason#TEMPLATE}
   * variable). Such a definition is also disabled, has no identity and is never spawned.
   *
   * @return the reason, or null
   */
  public @Nullable String unmeasurable() {
    for (UnresolvedVariable u : unresolved) {
      if (u.reason() == UnresolvedVariable.Reason.TEMPLATE) {
        return TEMPLATE_REFUSAL;
      }
    }
    return null;
  }

  /**
   * The configured server name.
   *
   * @return the definition's name
   */
  public String name() {
    return definition.name();
  }

  /**
   * The declared env names, sorted by code point. Never the values.
   *
   * @return the names
   */
  public List<String> envNames() {
    List<String> names = new ArrayList<>(definition.env().keySet());
    names.sort(CodePoints.ORDER);
    return List.copyOf(names);
  }

  /**
   * What two definitions must share to count as the same: the execution identity for stdio
   * definitions; the transport type and URL otherwise.
   */
  String comparisonKey() {
    if (isStdio()) {
      List<String> inherited = definition.inheritedEnv();
      return "stdio\0"
          + identity
          + "\0"
          + String.join("\0", definition.unsetEnv())
          + (inherited == null ? "" : "\0\0inherits\0" + String.join("\0", inherited));
    }
    return "remote\0" + definition.type() + "\0" + definition.url();
  }
}
