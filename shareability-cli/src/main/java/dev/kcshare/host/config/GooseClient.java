package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.at;
import static dev.kcshare.host.config.Shapes.enabled;

import dev.kcshare.core.json.internal.JsonInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Goose: {@code config.yaml} under {@code $XDG_CONFIG_HOME/goose}; {@code extensions} with {@code
 * cmd}, {@code envs} and a required {@code enabled}; {@code env_keys} live in its secret store;
 * string env values only.
 */
final class GooseClient implements ClientFamily {

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

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.GOOSE);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile("goose", host.xdgConfig().resolve("goose/config.yaml"), ConfigFormat.GOOSE);
  }

  @Override
  public FileSyntax syntax(ConfigFormat format) {
    return FileSyntax.YAML;
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.STRINGS;
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    in.servers(format, top, "", "extensions");
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return goose(name, pointer, raw, warnings);
  }

  /** The entry's {@code name}, else its key, as Goose names it. */
  @Override
  public String nameOf(String key, Map<?, ?> raw) {
    return raw.get("name") instanceof String n ? n : key;
  }

  private static Shapes.Mapped goose(
      String key, String pointer, Map<?, ?> raw, List<String> warnings) {
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
      case "streamable_http", "sse", "websocket" -> {
        if (raw.get("uri") != null) {
          e.put("url", raw.get("uri"), at(pointer, "uri"));
        }
      }
      default ->
          warnings.add(
              pointer + ": a Goose " + t + " extension runs inside Goose: nothing to launch here");
    }
    return new Shapes.Mapped(e, secrets);
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
}
