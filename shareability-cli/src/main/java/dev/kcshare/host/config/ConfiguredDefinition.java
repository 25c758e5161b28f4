package dev.kcshare.host.config;

import dev.kcshare.core.json.host.CodePoints;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One definition of a server name, where it came from, and its execution identity.
 *
 * @param definition the definition after variable substitution
 * @param file the file as displayed
 * @param path the file's absolute path
 * @param pointer JSON pointer of the entry in that file
 * @param format the file's format
 * @param identity the verdict-cache execution identity (docs/design.md#cache-identity) for a stdio
 *     definition; null otherwise
 * @param unresolved variable references left unresolved in it
 */
public record ConfiguredDefinition(
    ServerDefinition definition,
    String file,
    Path path,
    String pointer,
    ConfigFormat format,
    @Nullable String identity,
    List<UnresolvedVariable> unresolved) {

  /** Validates and copies. */
  public ConfiguredDefinition {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(format, "format");
    unresolved = List.copyOf(unresolved);
  }

  /**
   * Whether the definition launches a process over stdio ({@link ServerDefinition#isStdio}): it has
   * a {@code command} and its {@code type} names no other transport.
   */
  public boolean stdio() {
    return definition.isStdio();
  }

  /** Why this definition is never spawned (a 1MCP template with variables). */
  static final String TEMPLATE_REFUSAL =
      "a 1MCP template with variables, rendered for each client: it cannot be measured as written";

  /**
   * Why this definition cannot be measured as written, or null when it can: a template the client
   * renders for each of its clients (an unresolved {@code template} variable). Such a definition is
   * also disabled, has no identity and is never spawned.
   */
  public @Nullable String unmeasurable() {
    for (UnresolvedVariable u : unresolved) {
      if (u.reason() == UnresolvedVariable.Reason.TEMPLATE) {
        return TEMPLATE_REFUSAL;
      }
    }
    return null;
  }

  /** The configured server name. */
  public String name() {
    return definition.name();
  }

  /** The declared env names, sorted by code point. Never the values. */
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
    if (stdio()) {
      return "stdio\0" + identity + "\0" + String.join("\0", definition.unsetEnv());
    }
    return "remote\0" + definition.type() + "\0" + definition.url();
  }
}
