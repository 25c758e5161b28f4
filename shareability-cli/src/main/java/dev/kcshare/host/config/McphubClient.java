package dev.kcshare.host.config;

import dev.kcshare.api.UnresolvedVariable;
import dev.kcshare.core.json.internal.JsonInputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * mcphub: its {@code mcp_settings.json} where mcphub finds it ({@link GatewayLocations#mcphub});
 * {@code mcpServers} with {@code type}, {@code command}, {@code args}, {@code env}, {@code url};
 * only {@code enabled: false} disables. Each entry is read as mcphub launches it
 * (docs/config.md#mcphub): {@code ${VAR}} and {@code $VAR} expanded ({@code src/config/index.ts},
 * {@code expandEnvVars}; {@code src/services/serverConfigEnvironment.ts}), its own {@code PATH}
 * replaced by mcphub's ({@code src/services/mcpService.ts}, {@code createTransportFromConfig}).
 */
final class McphubClient implements ClientFamily {
  private static final String ADMINS_MEMO = "mcphub.admins";

  /** Compiled when an mcphub file is read, not whenever the client families are listed. */
  private static final class Patterns {
    static final Pattern UPPER_NAME = Pattern.compile("\\$([A-Z_][A-Z0-9_]*)");

    private Patterns() {}
  }

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.MCPHUB);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    Path file = GatewayLocations.mcphub(host.env(), host.cwd());
    if (file.equals(host.cwd().resolve(file.getFileName()))) {
      at.workspaceFile("mcphub", file.getFileName().toString(), ConfigFormat.MCPHUB);
    } else {
      at.userFile("mcphub", file, ConfigFormat.MCPHUB);
    }
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    Map<String, Boolean> admins = new HashMap<>();
    if (top.get("users") instanceof List<?> users) {
      for (Object u : users) {
        if (u instanceof Map<?, ?> user && user.get("username") instanceof String name) {
          admins.put(name, Boolean.TRUE.equals(user.get("isAdmin")));
        }
      }
    }
    in.host().remember(ADMINS_MEMO, admins);
    in.servers(format, top, "", "mcpServers");
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ClientHost host,
      ConfigFormat format,
      String name,
      String pointer,
      Map<?, ?> raw,
      List<String> warnings) {
    Object recalled = host.recalled(ADMINS_MEMO);
    Map<?, ?> admins = recalled instanceof Map<?, ?> m ? m : Map.of();
    // getServerEnvironment: mcphub's own environment is visible only to a server without an owner
    // or owned by an administrator.
    Object owner = raw.get("owner");
    boolean trusted = owner == null || Boolean.TRUE.equals(admins.get(owner));
    Map<String, String> source = trusted ? host.env() : Map.of();
    Expansion x = new Expansion();
    Entry e = new Entry(name, pointer);
    Map<String, Object> env = new LinkedHashMap<>();
    Object rawEnv = raw.get("env");
    String envAt = Shapes.at(pointer, "env");
    if (rawEnv instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> v : map.entrySet()) {
        String key = String.valueOf(v.getKey());
        Object value = v.getValue();
        // expanded once by expandServerConfig, once more by getServerEnvironment
        env.put(
            key,
            value instanceof String s
                ? x.expand(
                    x.expand(s, source, JsonInputException.child(envAt, key)),
                    source,
                    JsonInputException.child(envAt, key))
                : value);
      }
      e.put("env", env, envAt);
    } else if (rawEnv != null) {
      e.put("env", rawEnv, envAt);
    }
    Map<String, String> lookup = new LinkedHashMap<>(source);
    for (Map.Entry<String, Object> v : env.entrySet()) {
      if (v.getValue() instanceof String s) {
        lookup.put(v.getKey(), s);
      }
    }
    for (String member : List.of("type", "command", "url")) {
      Object value = raw.get(member);
      String at = Shapes.at(pointer, member);
      if (value instanceof String s) {
        e.put(member, x.expand(s, lookup, at), at);
      } else if (value != null) {
        e.put(member, value, at);
      }
    }
    Object rawArgs = raw.get("args");
    String argsAt = Shapes.at(pointer, "args");
    if (rawArgs instanceof List<?> list) {
      List<Object> args = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        String at = JsonInputException.child(argsAt, i);
        // expanded by expandServerConfig, then again by createTransportFromConfig
        args.add(
            list.get(i) instanceof String s
                ? x.expand(x.expand(s, lookup, at), lookup, at)
                : list.get(i));
      }
      e.put("args", args, argsAt);
    } else if (rawArgs != null) {
      e.put("args", rawArgs, argsAt);
    }
    if (e.get("command") != null && env.remove("PATH") != null) {
      warnings.add(
          JsonInputException.child(envAt, "PATH")
              + ": mcphub starts a stdio server with its own PATH instead; so does kcshare");
    }
    Object enabled = raw.get("enabled");
    if (Boolean.FALSE.equals(enabled)) {
      e.put("disabled", true, Shapes.at(pointer, "enabled"));
    } else if (enabled != null && !(enabled instanceof Boolean)) {
      warnings.add(
          Shapes.at(pointer, "enabled")
              + ": not a boolean; mcphub turns a server off only for false, so it is enabled");
    }
    List<String> inherited =
        trusted || e.get("command") == null ? null : OneMcpClient.SDK_DEFAULT_ENV;
    return new Shapes.Mapped(e, List.of(), List.of(), x.found, Map.of(), inherited);
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    throw new IllegalStateException("mcphub entries are read with the host");
  }

  /** {@code expandEnvVars}: an unset or empty variable becomes the empty string; trimmed. */
  static final class Expansion {
    final List<Substitution.Found> found = new ArrayList<>();

    String expand(String value, Map<String, String> env, String at) {
      if (value.indexOf('$') < 0) {
        return value.strip();
      }
      StringBuilder out = new StringBuilder(value.length());
      int i = 0;
      while (i < value.length()) {
        if (value.charAt(i) == '$' && i + 1 < value.length() && value.charAt(i + 1) == '{') {
          int close = value.indexOf('}', i + 2);
          if (close > i + 2) {
            String key = value.substring(i + 2, close);
            out.append(lookup(env, key, value.substring(i, close + 1), at));
            i = close + 1;
            continue;
          }
        }
        out.append(value.charAt(i));
        i++;
      }
      Matcher m = Patterns.UPPER_NAME.matcher(out);
      StringBuilder second = new StringBuilder(out.length());
      while (m.find()) {
        m.appendReplacement(
            second, Matcher.quoteReplacement(lookup(env, m.group(1), m.group(), at)));
      }
      m.appendTail(second);
      return jsTrim(second.toString());
    }

    private String lookup(Map<String, String> env, String key, String reference, String at) {
      String v = env.get(key);
      if (v == null) {
        found.add(new Substitution.Found(at, reference, UnresolvedVariable.Reason.UNSET));
        return "";
      }
      return v;
    }
  }

  /** JavaScript's {@code String.prototype.trim} for the white space a config value holds. */
  private static String jsTrim(String s) {
    return s.strip();
  }
}
