package dev.kcshare.cli.preflight;

import dev.kcshare.cli.BadInputException;
import dev.kcshare.core.json.JsonInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads the common {@code {"mcpServers": {name: {command, args, env, cwd, disabled, url, type}}}}
 * host-config format (VS Code's top-level {@code servers} is accepted too). Other members are
 * ignored. Strict on types: a value of the wrong type is refused with its JSON pointer rather than
 * guessed at, because a guessed argument or env value would spawn something the operator did not
 * configure. {@code null} reads as absent for every optional member.
 */
public final class McpServersConfig {
  private McpServersConfig() {}

  /**
   * The servers of a parsed config document, in document order.
   *
   * @param root the parsed JSON document
   * @param source how the document is named in messages (a file name)
   * @throws BadInputException naming {@code source}, the JSON pointer and the expected type
   */
  public static List<ServerDefinition> parse(@Nullable Object root, String source) {
    if (!(root instanceof Map<?, ?> top)) {
      throw bad(source, "", "expected an object", root);
    }
    String section = top.containsKey("mcpServers") ? "mcpServers" : "servers";
    if (!top.containsKey(section)) {
      throw new BadInputException(
          source + ": (root): expected an \"mcpServers\" (or \"servers\") object, got nothing");
    }
    String sectionPointer = JsonInputException.child("", section);
    Object servers = top.get(section);
    if (!(servers instanceof Map<?, ?> byName)) {
      throw bad(source, sectionPointer, "expected an object", servers);
    }
    List<ServerDefinition> out = new ArrayList<>(byName.size());
    for (Map.Entry<?, ?> entry : byName.entrySet()) {
      String name = (String) entry.getKey();
      out.add(
          server(source, JsonInputException.child(sectionPointer, name), name, entry.getValue()));
    }
    return out;
  }

  private static ServerDefinition server(
      String source, String pointer, String name, @Nullable Object value) {
    if (!(value instanceof Map<?, ?> def)) {
      throw bad(source, pointer, "expected an object", value);
    }
    String command = string(source, pointer, def, "command");
    List<String> args = new ArrayList<>();
    Object rawArgs = def.get("args");
    String argsPointer = JsonInputException.child(pointer, "args");
    if (rawArgs instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        if (!(list.get(i) instanceof String s)) {
          throw bad(
              source, JsonInputException.child(argsPointer, i), "expected a string", list.get(i));
        }
        args.add(s);
      }
    } else if (rawArgs != null) {
      throw bad(source, argsPointer, "expected an array of strings", rawArgs);
    }
    Map<String, String> env = new LinkedHashMap<>();
    Object rawEnv = def.get("env");
    String envPointer = JsonInputException.child(pointer, "env");
    if (rawEnv instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = (String) e.getKey();
        if (!(e.getValue() instanceof String s)) {
          throw bad(
              source, JsonInputException.child(envPointer, key), "expected a string", e.getValue());
        }
        env.put(key, s);
      }
    } else if (rawEnv != null) {
      throw bad(source, envPointer, "expected an object of strings", rawEnv);
    }
    String cwd = string(source, pointer, def, "cwd");
    Object rawDisabled = def.get("disabled");
    if (rawDisabled != null && !(rawDisabled instanceof Boolean)) {
      throw bad(
          source, JsonInputException.child(pointer, "disabled"), "expected a boolean", rawDisabled);
    }
    return new ServerDefinition(
        name,
        command,
        args,
        env,
        cwd,
        Boolean.TRUE.equals(rawDisabled),
        string(source, pointer, def, "url"),
        string(source, pointer, def, "type"));
  }

  private static @Nullable String string(
      String source, String pointer, Map<?, ?> def, String member) {
    Object value = def.get(member);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    throw bad(source, JsonInputException.child(pointer, member), "expected a string", value);
  }

  private static BadInputException bad(
      String source, String pointer, String expected, @Nullable Object got) {
    return new BadInputException(
        source
            + ": "
            + (pointer.isEmpty() ? "(root)" : pointer)
            + ": "
            + expected
            + ", got "
            + describe(got));
  }

  private static String describe(@Nullable Object value) {
    String type = JsonInputException.typeName(value);
    return switch (type) {
      case "null" -> "null";
      case "object", "array" -> "an " + type;
      default -> "a " + type;
    };
  }
}
