package dev.kcshare.host.config;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.UnresolvedVariable;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.host.records.Fingerprints;
import dev.kcshare.host.records.ServerIdentity;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads the server sections of one file into definitions: each entry mapped by its client, parsed,
 * its variables substituted, its {@code envFile} read, its env adjusted by its client, and its
 * cache identity computed.
 */
final class ServerSections {
  private final ClientHost host;
  private final Fingerprints fingerprints;

  ServerSections(ClientHost host, Fingerprints fingerprints) {
    this.host = host;
    this.fingerprints = fingerprints;
  }

  private Substitution substitution(ClientFamily client, ConfigFormat format) {
    return new Substitution(
        client.substitution(format),
        new Substitution.Values(
            host.env(),
            host.cwd(),
            host.home(),
            host.platform().pathSeparator(),
            client.secrets(host, format)));
  }

  /** An object of named entries ({@code mcpServers}, {@code servers}, ...). */
  void servers(
      FileResult result,
      ClientFamily client,
      ConfigFormat format,
      Map<?, ?> container,
      String base,
      String member) {
    Object section = container.get(member);
    if (section == null) {
      return;
    }
    String sectionPointer = JsonInputException.child(base, member);
    if (!(section instanceof Map<?, ?> byServer)) {
      result.problems.add(EntryParser.expected(sectionPointer, "an object", section).getMessage());
      return;
    }
    Substitution substitution = substitution(client, format);
    Set<String> off = client.disabledOutside(host, container, result.warnings);
    for (Map.Entry<?, ?> e : byServer.entrySet()) {
      String name = String.valueOf(e.getKey());
      String pointer = JsonInputException.child(sectionPointer, name);
      entry(result, client, format, name, pointer, e.getValue(), substitution, off);
    }
  }

  /** Continue's list of named entries. */
  void list(
      FileResult result, ClientFamily client, ConfigFormat format, Map<?, ?> top, String member) {
    Object section = top.get(member);
    if (section == null) {
      return;
    }
    String sectionPointer = JsonInputException.child("", member);
    if (!(section instanceof List<?> items)) {
      result.problems.add(EntryParser.expected(sectionPointer, "an array", section).getMessage());
      return;
    }
    Substitution substitution = substitution(client, format);
    for (int i = 0; i < items.size(); i++) {
      entry(
          result,
          client,
          format,
          "",
          JsonInputException.child(sectionPointer, i),
          items.get(i),
          substitution,
          Set.of());
    }
  }

  private void entry(
      FileResult result,
      ClientFamily client,
      ConfigFormat format,
      String name,
      String pointer,
      @Nullable Object value,
      Substitution substitution,
      Set<String> disabledByList) {
    Shapes.@Nullable Mapped mapped = null;
    EntryParser.Parsed parsed;
    try {
      mapped = Shapes.map(host, client, format, name, pointer, value, result.warnings);
      if (mapped == null) {
        return;
      }
      parsed =
          EntryParser.parse(
              mapped.entry(), substitution, client.envValues(format), result.warnings);
    } catch (JsonInputException ex) {
      substitution.drain();
      String known =
          mapped != null
              ? mapped.entry().name()
              : value instanceof Map<?, ?> raw ? client.nameOf(name, raw) : name;
      result.unusable(known, ex.pointer(), ex.problem());
      return;
    }
    String serverName = mapped.entry().name();
    List<UnresolvedVariable> unresolved = new ArrayList<>();
    List<Substitution.Found> found = new ArrayList<>(mapped.unresolved());
    found.addAll(parsed.unresolved());
    for (Substitution.Found f : found) {
      unresolved.add(
          new Results.UnresolvedVariable(
              serverName, result.display, f.pointer(), f.reference(), f.reason()));
    }
    ServerDefinition definition = parsed.definition();
    Map<String, String> fromFile =
        parsed.envFile() == null ? Map.of() : envFile(result, mapped.entry(), parsed.envFile());
    Map<String, String> env = new LinkedHashMap<>(fromFile);
    env.putAll(definition.env());
    env.keySet().removeAll(definition.unsetEnv());
    client.adjustEnv(host, mapped.entry(), definition.env(), fromFile, env, result.warnings);
    for (int i = 0; i < mapped.secretEnv().size(); i++) {
      unresolved.add(
          new Results.UnresolvedVariable(
              serverName,
              result.display,
              JsonInputException.child(JsonInputException.child(pointer, "env_keys"), i),
              mapped.secretEnv().get(i),
              UnresolvedVariable.Reason.SECRET));
    }
    definition = definition.toBuilder().env(env).inheritedEnv(mapped.inheritedEnv()).build();
    if (disabledByList.contains(serverName) && !definition.disabled()) {
      definition = definition.toBuilder().disabled(true).build();
      result.warnings.add(pointer + ": " + client.disabledOutsideWhy());
    }
    boolean templated = !mapped.templated().isEmpty();
    if (templated) {
      // Rendered per client: what is written is not what runs, so it is never spawned and has
      // no identity a measurement could count for.
      for (Shapes.Held h : mapped.templated()) {
        unresolved.add(
            new Results.UnresolvedVariable(
                serverName,
                result.display,
                h.pointer(),
                h.reference(),
                UnresolvedVariable.Reason.TEMPLATE));
      }
      definition = definition.toBuilder().disabled(true).build();
      result.warnings.add(
          pointer
              + ": a template with variables ("
              + mapped.templated().get(0).reference()
              + "), rendered for each client: it cannot be measured as written and is never"
              + " spawned");
    }
    result.definitions.add(
        new Results.ConfiguredDefinition(
            definition,
            result.display,
            result.path,
            pointer,
            format.id(),
            format.client(),
            definition.isStdio() && !templated ? identity(definition) : null,
            unresolved,
            mapped.envOrigins()));
  }

  /**
   * VS Code's {@code envFile}: its variables, which go under the declared env (a declared name
   * wins). An unreadable file is a note: VS Code would refuse to start the server.
   */
  private Map<String, String> envFile(FileResult result, Entry entry, String file) {
    Path path;
    try {
      path = host.cwd().resolve(host.expandTilde(file)).normalize();
    } catch (InvalidPathException e) {
      result.warnings.add(entry.at("envFile") + ": not a valid path; its variables are not read");
      return Map.of();
    }
    try {
      return EnvFiles.read(path);
    } catch (IOException e) {
      result.warnings.add(
          entry.at("envFile")
              + ": cannot read "
              + host.user(path)
              + ": "
              + e.getMessage()
              + "; VS Code would not start this server, and kcshare reads it without those"
              + " variables");
      return Map.of();
    }
  }

  /** The verdict-cache identity (docs/design.md#cache-identity) of a stdio definition. */
  private String identity(ServerDefinition definition) {
    // The snapshot fingerprints answer a command or argument seen before in this load without
    // touching the file system again.
    String command = definition.command();
    return ServerIdentity.cacheIdentity(
        command == null ? "" : command, definition.args(), definition.env(), fingerprints);
  }
}
