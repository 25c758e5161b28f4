package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.at;
import static dev.kcshare.host.config.Shapes.enabled;
import static dev.kcshare.host.config.Shapes.plain;
import static dev.kcshare.host.config.Shapes.putIfPresent;

import dev.kcshare.core.json.internal.JsonInputException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * opencode: {@code config.json}, {@code opencode.json} and {@code opencode.jsonc} under {@code
 * $XDG_CONFIG_HOME/opencode}, {@code $OPENCODE_CONFIG}, and the project's {@code opencode.json(c)}
 * and {@code .opencode/opencode.json(c)}; {@code mcp} with a command array, {@code environment} and
 * {@code enabled}; {@code {env:NAME}}; string env values only.
 */
final class OpencodeClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.OPENCODE);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    Path opencode = host.xdgConfig().resolve("opencode");
    for (String name : List.of("config.json", "opencode.json", "opencode.jsonc")) {
      at.userFile("opencode-user", opencode.resolve(name), ConfigFormat.OPENCODE);
    }
    String custom = ClientHost.nonEmpty(host.env().get("OPENCODE_CONFIG"));
    if (custom != null) {
      at.userFile(
          "opencode-user", host.cwd().resolve(host.expandTilde(custom)), ConfigFormat.OPENCODE);
    }
    for (String name :
        List.of(
            "opencode.json",
            "opencode.jsonc",
            ".opencode/opencode.json",
            ".opencode/opencode.jsonc")) {
      at.workspaceFile("opencode-project", name, ConfigFormat.OPENCODE);
    }
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return Substitution.Style.OPENCODE;
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.STRINGS;
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    in.servers(format, top, "", "mcp");
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return plain(opencode(name, pointer, raw));
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
}
