package dev.kcshare.host.config;

import dev.kcshare.core.json.JsonInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Maps each client's entry shape onto kcshare's members ({@link Entry}): Zed's three forms, Goose's
 * {@code cmd}/{@code envs}/{@code enabled}, opencode's command array, Codex's {@code enabled},
 * Cline's nested transport, Windsurf's {@code serverUrl}, Gemini's {@code httpUrl}, Continue's
 * named list items. A value of the wrong type is refused with its pointer, as the client refuses
 * it.
 */
final class Shapes {
  /**
   * Goose never passes these from {@code envs} to a server ({@code Envs::DISALLOWED_KEYS}, compared
   * ignoring case).
   */
  static final Set<String> GOOSE_DISALLOWED_ENV =
      Set.of(
          "PATH",
          "PATHEXT",
          "SYSTEMROOT",
          "WINDIR",
          "LD_LIBRARY_PATH",
          "LD_PRELOAD",
          "LD_AUDIT",
          "LD_DEBUG",
          "LD_BIND_NOW",
          "LD_ASSUME_KERNEL",
          "DYLD_LIBRARY_PATH",
          "DYLD_INSERT_LIBRARIES",
          "DYLD_FRAMEWORK_PATH",
          "PYTHONPATH",
          "PYTHONHOME",
          "NODE_OPTIONS",
          "RUBYOPT",
          "GEM_PATH",
          "GEM_HOME",
          "CLASSPATH",
          "GO111MODULE",
          "GOROOT",
          "APPINIT_DLLS",
          "SESSIONNAME",
          "COMSPEC",
          "TEMP",
          "TMP",
          "LOCALAPPDATA",
          "USERPROFILE",
          "HOMEDRIVE",
          "HOMEPATH");

  private Shapes() {}

  /** One mapped entry and the env names whose values kcshare cannot know (Goose's env_keys). */
  record Mapped(Entry entry, List<String> secretEnv) {}

  /**
   * Maps the entry {@code value} named {@code name} at {@code pointer}.
   *
   * @return the entry, or null when the item is not a server definition kcshare can read (a
   *     Continue hub block), with a note in {@code warnings}
   * @throws JsonInputException for a value of the wrong type
   */
  static @Nullable Mapped map(
      ConfigFormat format,
      String name,
      String pointer,
      @Nullable Object value,
      List<String> warnings) {
    if (!(value instanceof Map<?, ?> raw)) {
      throw EntryParser.expected(pointer, "an object", value);
    }
    return switch (format) {
      case CODEX -> plain(codex(name, pointer, raw, warnings));
      case ZED -> plain(zed(name, pointer, raw, warnings));
      case GOOSE -> goose(name, pointer, raw, warnings);
      case OPENCODE -> plain(opencode(name, pointer, raw));
      case CLINE -> plain(cline(name, pointer, raw));
      case WINDSURF -> plain(windsurf(name, pointer, raw));
      case GEMINI -> plain(gemini(name, pointer, raw, warnings));
      case CONTINUE, CONTINUE_BLOCK -> continueItem(pointer, raw, warnings);
      case CONTINUE_JSON -> plain(continueJson(name, pointer, raw, warnings));
      case VSCODE, VSCODE_SETTINGS -> plain(vscode(name, pointer, raw, warnings));
      default -> plain(Entry.standard(name, pointer, raw));
    };
  }

  private static @Nullable Mapped plain(@Nullable Entry e) {
    return e == null ? null : new Mapped(e, List.of());
  }

  private static String at(String pointer, String member) {
    return JsonInputException.child(pointer, member);
  }

  /** {@code enabled} (default true) as kcshare's {@code disabled}. */
  private static void enabled(Entry e, Map<?, ?> raw, String pointer, boolean required) {
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
  private static void ignored(
      Entry e, Map<?, ?> raw, String pointer, String member, String why, List<String> warnings) {
    if (raw.get(member) != null) {
      e.remove(member);
      warnings.add(at(pointer, member) + ": " + why);
    }
  }

  // ---------------------------------------------------------------- clients

  private static Entry vscode(String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    ignored(
        e,
        raw,
        pointer,
        "disabled",
        "ignored: VS Code has no such member and starts this server (it is disabled in VS Code's"
            + " own view)",
        warnings);
    return e;
  }

  private static Entry codex(String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    e.remove("disabled").remove("type").remove("envFile");
    enabled(e, raw, pointer, false);
    if (raw.get("command") == null && raw.get("url") != null) {
      e.put("type", "streamable_http", at(pointer, "url"));
    }
    if (raw.get("command") == null && raw.get("url") == null) {
      throw new JsonInputException(
          pointer, "expected a command or a url (Codex: invalid transport)");
    }
    Object forwarded = raw.get("env_vars");
    if (forwarded != null) {
      if (!(forwarded instanceof List<?> names)) {
        throw EntryParser.expected(at(pointer, "env_vars"), "an array of strings", forwarded);
      }
      for (int i = 0; i < names.size(); i++) {
        if (!(names.get(i) instanceof String)) {
          throw EntryParser.expected(
              JsonInputException.child(at(pointer, "env_vars"), i), "a string", names.get(i));
        }
      }
      warnings.add(
          at(pointer, "env_vars")
              + ": forwarded from the environment Codex runs in; kcshare's pre-flight gives the"
              + " server its whole environment");
    }
    return e;
  }

  private static @Nullable Entry zed(
      String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = new Entry(name, pointer);
    enabled(e, raw, pointer, false);
    Object command = raw.get("command");
    Object source = raw.get("source");
    if (command instanceof Map<?, ?> nested) {
      // The earliest form: {"command": {"path", "args", "env"}, "settings": {}}.
      String c = at(pointer, "command");
      putIfPresent(e, nested, c, "path", "command");
      putIfPresent(e, nested, c, "args", "args");
      putIfPresent(e, nested, c, "env", "env");
      return e;
    }
    if (command != null) {
      e.put("command", command, at(pointer, "command"));
      putIfPresent(e, raw, pointer, "args", "args");
      putIfPresent(e, raw, pointer, "env", "env");
      return e;
    }
    if (raw.get("url") != null) {
      e.put("url", raw.get("url"), at(pointer, "url"));
      e.put("type", "http", at(pointer, "url"));
      return e;
    }
    if ("extension".equals(source) || raw.containsKey("settings")) {
      e.put("type", "extension", at(pointer, source != null ? "source" : "settings"));
      warnings.add(
          pointer
              + ": provided by a Zed extension: its command is not in this file, so kcshare"
              + " cannot start it");
      return e;
    }
    return e;
  }

  private static void putIfPresent(
      Entry e, Map<?, ?> raw, String pointer, String member, String as) {
    if (raw.get(member) != null) {
      e.put(as, raw.get(member), at(pointer, member));
    }
  }

  private static Mapped goose(String key, String pointer, Map<?, ?> raw, List<String> warnings) {
    Object rawName = raw.get("name");
    if (rawName != null && !(rawName instanceof String)) {
      throw EntryParser.expected(at(pointer, "name"), "a string", rawName);
    }
    String name = rawName == null ? key : (String) rawName;
    Entry e = new Entry(name, pointer);
    enabled(e, raw, pointer, true);
    Object type = raw.get("type");
    if (!(type instanceof String t)) {
      throw EntryParser.expected(at(pointer, "type"), "a string", type);
    }
    e.put("type", t, at(pointer, "type"));
    List<String> secrets = new ArrayList<>();
    switch (t) {
      case "stdio" -> {
        if (raw.get("cmd") == null) {
          throw new JsonInputException(at(pointer, "cmd"), "expected a string, got nothing");
        }
        e.put("command", raw.get("cmd"), at(pointer, "cmd"));
        if (raw.get("args") == null) {
          throw new JsonInputException(
              at(pointer, "args"), "expected an array of strings, got nothing");
        }
        e.put("args", raw.get("args"), at(pointer, "args"));
        gooseEnv(e, raw, pointer, warnings);
        secrets.addAll(envKeys(raw, pointer));
      }
      case "streamable_http", "sse" -> {
        if (raw.get("uri") != null) {
          e.put("url", raw.get("uri"), at(pointer, "uri"));
        }
      }
      default ->
          warnings.add(
              pointer + ": a Goose " + t + " extension runs inside Goose: nothing to launch here");
    }
    return new Mapped(e, secrets);
  }

  private static void gooseEnv(Entry e, Map<?, ?> raw, String pointer, List<String> warnings) {
    Object envs = raw.get("envs");
    if (envs == null) {
      return;
    }
    String envsPointer = at(pointer, "envs");
    if (!(envs instanceof Map<?, ?> map)) {
      throw EntryParser.expected(envsPointer, "an object", envs);
    }
    Map<String, Object> kept = new LinkedHashMap<>();
    for (Map.Entry<?, ?> v : map.entrySet()) {
      String key = String.valueOf(v.getKey());
      if (GOOSE_DISALLOWED_ENV.contains(key.toUpperCase(Locale.ROOT))) {
        warnings.add(
            JsonInputException.child(envsPointer, key)
                + ": skipped, as Goose never lets an extension override it");
        continue;
      }
      kept.put(key, v.getValue());
    }
    e.put("env", kept, envsPointer);
  }

  private static List<String> envKeys(Map<?, ?> raw, String pointer) {
    Object keys = raw.get("env_keys");
    if (keys == null) {
      return List.of();
    }
    String p = at(pointer, "env_keys");
    if (!(keys instanceof List<?> list)) {
      throw EntryParser.expected(p, "an array of strings", keys);
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String s)) {
        throw EntryParser.expected(JsonInputException.child(p, i), "a string", list.get(i));
      }
      out.add(s);
    }
    return out;
  }

  private static Entry opencode(String name, String pointer, Map<?, ?> raw) {
    Entry e = new Entry(name, pointer);
    enabled(e, raw, pointer, false);
    Object type = raw.get("type");
    if (type != null && !(type instanceof String)) {
      throw EntryParser.expected(at(pointer, "type"), "a string", type);
    }
    if (type != null) {
      e.put("type", type, at(pointer, "type"));
    }
    if ("remote".equals(type)) {
      putIfPresent(e, raw, pointer, "url", "url");
      return e;
    }
    Object command = raw.get("command");
    String c = at(pointer, "command");
    if (command != null) {
      if (!(command instanceof List<?> list)) {
        throw EntryParser.expected(c, "an array of strings", command);
      }
      if (list.isEmpty()) {
        throw new JsonInputException(c, "expected an array of strings with the executable first");
      }
      e.put("command", list.get(0), JsonInputException.child(c, 0));
      e.putArgs(list, 1, c);
    }
    putIfPresent(e, raw, pointer, "environment", "env");
    return e;
  }

  private static Entry cline(String name, String pointer, Map<?, ?> raw) {
    Object transport = raw.get("transport");
    Entry e;
    if (transport instanceof Map<?, ?> nested) {
      e = Entry.standard(name, pointer, Map.of());
      String t = at(pointer, "transport");
      for (String member : List.of("type", "command", "args", "cwd", "env", "url")) {
        putIfPresent(e, nested, t, member, member);
      }
      putIfPresent(e, raw, pointer, "disabled", "disabled");
      return e;
    }
    if (transport != null) {
      throw EntryParser.expected(at(pointer, "transport"), "an object", transport);
    }
    e = Entry.standard(name, pointer, raw);
    if (raw.get("type") == null && raw.get("transportType") != null) {
      e.put("type", raw.get("transportType"), at(pointer, "transportType"));
    }
    return e;
  }

  private static Entry windsurf(String name, String pointer, Map<?, ?> raw) {
    Entry e = Entry.standard(name, pointer, raw);
    if (raw.get("url") == null && raw.get("serverUrl") != null) {
      e.put("url", raw.get("serverUrl"), at(pointer, "serverUrl"));
    }
    return e;
  }

  private static Entry gemini(String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    ignored(
        e,
        raw,
        pointer,
        "disabled",
        "ignored: Gemini CLI disables a server through mcp.excluded or /mcp disable, not here",
        warnings);
    e.remove("envFile");
    if (raw.get("command") == null) {
      if (raw.get("httpUrl") != null) {
        e.put("url", raw.get("httpUrl"), at(pointer, "httpUrl"));
        e.put("type", "http", at(pointer, "httpUrl"));
      } else if (raw.get("url") != null && raw.get("type") == null) {
        e.put("type", "sse", at(pointer, "url"));
      } else if (raw.get("tcp") != null) {
        e.put("url", raw.get("tcp"), at(pointer, "tcp"));
        e.put("type", "tcp", at(pointer, "tcp"));
      }
    }
    return e;
  }

  private static @Nullable Mapped continueItem(
      String pointer, Map<?, ?> raw, List<String> warnings) {
    if (raw.get("uses") != null) {
      warnings.add(
          pointer
              + ": a hub block ("
              + (raw.get("uses") instanceof String s ? "uses " + s : "uses")
              + "): its definition is not in this file, so kcshare cannot read it");
      return null;
    }
    Object name = raw.get("name");
    if (!(name instanceof String n)) {
      throw EntryParser.expected(at(pointer, "name"), "a string", name);
    }
    Entry e = Entry.standard(n, pointer, raw);
    ignored(e, raw, pointer, "disabled", "ignored: Continue has no such member", warnings);
    e.remove("envFile");
    return new Mapped(e, List.of());
  }

  private static Entry continueJson(
      String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    ignored(e, raw, pointer, "envFile", "ignored, as Continue ignores it", warnings);
    return e;
  }
}
