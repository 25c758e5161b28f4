package dev.kcshare.host.config;

import dev.kcshare.core.json.JsonInputException;
import dev.kcshare.host.prober.ServerDefinition;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads one server entry ({@code {command, args, env, cwd, disabled, url, type}}). Strict on types:
 * a value of the wrong type is refused with its JSON pointer rather than guessed at, because a
 * guessed argument would spawn something the operator did not configure. {@code null} reads as
 * absent for every member; members this reader does not use ({@code autoApprove}, {@code headers},
 * ...) are ignored.
 */
final class EntryParser {
  /** Transport types that make a definition non-stdio even when it names a command. */
  static final Set<String> NON_STDIO_TYPES =
      Set.of("http", "sse", "streamable-http", "streamableHttp", "streamable_http");

  private static final Set<String> KNOWN_TYPES = Set.of("stdio");

  private EntryParser() {}

  /** One parsed entry and the references substitution could not resolve in it. */
  record Parsed(ServerDefinition definition, boolean stdio, List<Substitution.Found> unresolved) {}

  /**
   * @param warnings receives non-fatal notes, pointer first, unescaped; never an env value
   * @throws JsonInputException with the pointer of the first member of the wrong type
   */
  static Parsed parse(
      String name,
      String pointer,
      @Nullable Object value,
      Substitution substitution,
      List<String> warnings) {
    if (!(value instanceof Map<?, ?> entry)) {
      throw expected(pointer, "an object", value);
    }
    String command = string(entry, pointer, "command", substitution);
    List<String> args = new ArrayList<>();
    Object rawArgs = entry.get("args");
    String argsPointer = JsonInputException.child(pointer, "args");
    if (rawArgs instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        String at = JsonInputException.child(argsPointer, i);
        if (!(list.get(i) instanceof String s)) {
          throw expected(at, "a string", list.get(i));
        }
        args.add(substitution.apply(s, at));
      }
    } else if (rawArgs != null) {
      throw expected(argsPointer, "an array of strings", rawArgs);
    }
    Map<String, String> env = env(entry, pointer, substitution, warnings);
    String cwd = string(entry, pointer, "cwd", substitution);
    Object rawDisabled = entry.get("disabled");
    if (rawDisabled != null && !(rawDisabled instanceof Boolean)) {
      throw expected(JsonInputException.child(pointer, "disabled"), "a boolean", rawDisabled);
    }
    String url = string(entry, pointer, "url", substitution);
    String type = string(entry, pointer, "type", Substitution.VERBATIM);
    if (type != null && !NON_STDIO_TYPES.contains(type) && !KNOWN_TYPES.contains(type)) {
      warnings.add(
          JsonInputException.child(pointer, "type")
              + ": unknown transport type '"
              + type
              + "'"
              + (command != null ? "; read as stdio because a command is given" : ""));
    }
    if (command == null && url == null) {
      warnings.add(pointer + ": neither command nor url: nothing to launch or connect to");
    }
    boolean stdio = command != null && (type == null || !NON_STDIO_TYPES.contains(type));
    ServerDefinition definition =
        new ServerDefinition(
            name, command, args, env, cwd, Boolean.TRUE.equals(rawDisabled), url, type);
    return new Parsed(definition, stdio, substitution.drain());
  }

  /**
   * The declared env. Strings are kept; an integer becomes its decimal text and a boolean {@code
   * True}/{@code False}, exactly as the Kiro Crew gateway (Python) converts them, so the env hash
   * and the spawned process agree with the gateway's. Anything else is refused.
   */
  private static Map<String, String> env(
      Map<?, ?> entry, String pointer, Substitution substitution, List<String> warnings) {
    Map<String, String> env = new LinkedHashMap<>();
    Object rawEnv = entry.get("env");
    String envPointer = JsonInputException.child(pointer, "env");
    if (rawEnv == null) {
      return env;
    }
    if (!(rawEnv instanceof Map<?, ?> map)) {
      throw expected(envPointer, "an object", rawEnv);
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = String.valueOf(e.getKey());
      String at = JsonInputException.child(envPointer, key);
      Object v = e.getValue();
      if (v instanceof String s) {
        env.put(key, substitution.apply(s, at));
      } else if (v instanceof Boolean b) {
        env.put(key, b ? "True" : "False");
        warnings.add(at + ": boolean used as True/False, as the Kiro Crew gateway converts it");
      } else if (v instanceof Integer || v instanceof Long || v instanceof BigInteger) {
        env.put(key, v.toString());
        warnings.add(at + ": integer used as its decimal text, as the Kiro Crew gateway does");
      } else if (v instanceof Number) {
        throw new JsonInputException(
            at, "expected a string, an integer or a boolean, got a non-integer number");
      } else {
        throw expected(at, "a string", v);
      }
    }
    return env;
  }

  private static @Nullable String string(
      Map<?, ?> entry, String pointer, String member, Substitution substitution) {
    Object value = entry.get(member);
    String at = JsonInputException.child(pointer, member);
    if (value == null) {
      return null;
    }
    if (value instanceof String s) {
      return substitution.apply(s, at);
    }
    throw expected(at, "a string", value);
  }

  static JsonInputException expected(String pointer, String what, @Nullable Object got) {
    return new JsonInputException(pointer, "expected " + what + ", got " + describe(got));
  }

  static String describe(@Nullable Object value) {
    String type = JsonInputException.typeName(value);
    return switch (type) {
      case "null" -> "null";
      case "object", "array" -> "an " + type;
      default -> "a " + type;
    };
  }
}
