package dev.kcshare.host.config;

import dev.kcshare.core.json.internal.JsonInputException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Maps an entry onto kcshare's members ({@link Entry}) through its client's {@link
 * ClientFamily#map}, and the helpers the clients' mappings share. A value of the wrong type is
 * refused with its pointer, as the client refuses it.
 */
final class Shapes {
  private Shapes() {}

  /**
   * One mapped entry, the env names whose values kcshare cannot know (Goose's env_keys), and the
   * template variables the client renders per client context (1MCP's templates): an entry with any
   * cannot be measured as written, so it is never spawned and gets no execution identity. A gateway
   * that composes the launch itself (1MCP, mcphub) also hands over the references it could not
   * resolve, where each env variable comes from, and which inherited names the server receives
   * (null: all of them).
   */
  record Mapped(
      Entry entry,
      List<String> secretEnv,
      List<Held> templated,
      List<Substitution.Found> unresolved,
      Map<String, String> envOrigins,
      @Nullable List<String> inheritedEnv) {
    Mapped {
      secretEnv = List.copyOf(secretEnv);
      templated = List.copyOf(templated);
      unresolved = List.copyOf(unresolved);
      envOrigins = Map.copyOf(envOrigins);
      inheritedEnv = inheritedEnv == null ? null : List.copyOf(inheritedEnv);
    }

    Mapped(Entry entry, List<String> secretEnv, List<Held> templated) {
      this(entry, secretEnv, templated, List.of(), Map.of(), null);
    }

    Mapped(Entry entry, List<String> secretEnv) {
      this(entry, secretEnv, List.of());
    }
  }

  /**
   * A string the client renders per client context.
   *
   * @param pointer where it is
   * @param reference the first variable in it, as written ({@code {{project.path}}})
   */
  record Held(String pointer, String reference) {}

  /**
   * Maps the entry {@code value} named {@code name} at {@code pointer}.
   *
   * @return the entry, or null when the item is not a server definition kcshare can read (a
   *     Continue hub block), with a note in {@code warnings}
   * @throws JsonInputException for a value of the wrong type
   */
  static @Nullable Mapped map(
      ClientHost host,
      ClientFamily client,
      ConfigFormat format,
      String name,
      String pointer,
      @Nullable Object value,
      List<String> warnings) {
    if (!(value instanceof Map<?, ?> raw)) {
      throw EntryParser.expected(pointer, "an object", value);
    }
    return client.map(host, format, name, pointer, raw, warnings);
  }

  static @Nullable Mapped plain(@Nullable Entry e) {
    return e == null ? null : new Mapped(e, List.of());
  }

  static String at(String pointer, String member) {
    return JsonInputException.child(pointer, member);
  }

  /** {@code enabled} (default true) as kcshare's {@code disabled}. */
  static void enabled(Entry e, Map<?, ?> raw, String pointer, boolean required) {
    Object enabled = raw.get("enabled");
    if (enabled == null) {
      if (required) {
        throw new JsonInputException(at(pointer, "enabled"), "expected a boolean, got nothing");
      }
      return;
    }
    if (!(enabled instanceof Boolean b)) {
      throw EntryParser.expected(at(pointer, "enabled"), "a boolean", enabled);
    }
    e.put("disabled", !b, at(pointer, "enabled"));
  }

  /** A member the client does not read: dropped, with a note when it says something. */
  static void ignored(
      Entry e, Map<?, ?> raw, String pointer, String member, String why, List<String> warnings) {
    if (raw.get(member) != null) {
      e.remove(member);
      warnings.add(at(pointer, member) + ": " + why);
    }
  }

  static void putIfPresent(Entry e, Map<?, ?> raw, String pointer, String member, String as) {
    if (raw.get(member) != null) {
      e.put(as, raw.get(member), at(pointer, member));
    }
  }
}
