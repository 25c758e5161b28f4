package dev.kcshare.host.config;

import dev.kcshare.api.UnresolvedVariable;
import dev.kcshare.core.json.internal.JsonInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * 1MCP: its {@code mcp.json} where 1MCP finds it ({@link GatewayLocations#oneMcp}); static {@code
 * mcpServers} and {@code mcpTemplates}, each with {@code type}, {@code command}, {@code args},
 * {@code env}, {@code cwd}, {@code url}, {@code disabled}, {@code inheritParentEnv} and {@code
 * envFilter} ({@code src/core/types/transport.ts}, {@code transportConfigSchema}), and the file's
 * {@code serverDefaults}. Each entry is read as 1MCP launches it (docs/config.md#1mcp): {@code
 * serverDefaults} merged in ({@code src/config/mcpConfigMerge.ts}), a list-form {@code env} parsed
 * and {@code ${VAR}}/{@code $VAR} substituted from the environment ({@code
 * src/config/envProcessor.ts}, {@code src/transport/transportFactory.ts}), the inherited
 * environment cut to what 1MCP passes, and {@code disabled} read as 1MCP reads it. A template whose
 * launch holds a Handlebars variable is rendered per client: it cannot be measured as written.
 */
final class OneMcpClient implements ClientFamily {
  private static final String TEMPLATES = "mcpTemplates";
  private static final String DEFAULTS = "serverDefaults";
  private static final String DEFAULTS_MEMO = "1mcp.serverDefaults";

  /** Compiled when a 1MCP file is read, not whenever the client families are listed. */
  private static final class Patterns {
    static final Pattern VARIABLE = Pattern.compile("\\{\\{.*?(\\}\\}|$)");

    /** {@code substituteEnvVars}: {@code ${anything but a brace}} (trimmed) or {@code $NAME}. */
    static final Pattern REFERENCE =
        Pattern.compile("\\$\\{([^}]+)\\}|\\$([A-Za-z_][A-Za-z0-9_]*)");

    private Patterns() {}
  }

  /**
   * The variables the MCP TypeScript SDK passes a stdio server whatever it is given ({@code
   * getDefaultEnvironment}, {@code DEFAULT_INHERITED_ENV_VARS} on POSIX).
   */
  static final List<String> SDK_DEFAULT_ENV =
      List.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER");

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.ONE_MCP);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile(
        "1mcp", GatewayLocations.oneMcp(host.env(), host.cwd(), host.home()), ConfigFormat.ONE_MCP);
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    in.host().remember(DEFAULTS_MEMO, defaults(top.get(DEFAULTS), in));
    in.servers(format, top, "", "mcpServers");
    in.servers(format, top, "", TEMPLATES);
  }

  /**
   * The file's {@code serverDefaults}, or an empty map: 1MCP ignores one that does not validate,
   * with a warning ({@code src/config/configLoader.ts}).
   */
  private static Map<?, ?> defaults(@Nullable Object value, Sections in) {
    if (value == null) {
      return Map.of();
    }
    String at = JsonInputException.child("", DEFAULTS);
    try {
      if (!(value instanceof Map<?, ?> map)) {
        throw EntryParser.expected(at, "an object", value);
      }
      env(map.get("env"), Shapes.at(at, "env"));
      bool(map.get("inheritParentEnv"), Shapes.at(at, "inheritParentEnv"));
      strings(map.get("envFilter"), Shapes.at(at, "envFilter"));
      return map;
    } catch (JsonInputException e) {
      in.warning(e.getMessage() + "; 1MCP ignores the whole serverDefaults, and so does kcshare");
      return Map.of();
    }
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ClientHost host,
      ConfigFormat format,
      String name,
      String pointer,
      Map<?, ?> raw,
      List<String> warnings) {
    boolean template = pointer.startsWith(JsonInputException.child("", TEMPLATES) + "/");
    Object recalled = host.recalled(DEFAULTS_MEMO);
    Map<?, ?> defaults = recalled instanceof Map<?, ?> m ? m : Map.of();
    Launch launch = new Launch(host.env(), pointer);
    Entry e = launch.read(name, raw, defaults, template, warnings);
    List<Shapes.Held> held = new ArrayList<>();
    if (template) {
      for (String member : List.of("command", "args", "cwd")) {
        collect(raw.get(member), Shapes.at(pointer, member), held);
      }
      // A list-form env is not rendered (handlebarsTemplateRenderer.ts renders object values).
      if (raw.get("env") instanceof Map<?, ?>) {
        collect(raw.get("env"), Shapes.at(pointer, "env"), held);
      }
    }
    return new Shapes.Mapped(
        e, List.of(), held, launch.found, launch.origins, launch.inherited(raw, defaults));
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    throw new IllegalStateException("1MCP entries are read with the host");
  }

  /** One entry as 1MCP launches it, against kcshare's environment standing in for 1MCP's. */
  static final class Launch {
    private final Map<String, String> hostEnv;
    private final String pointer;
    final List<Substitution.Found> found = new ArrayList<>();
    final Map<String, String> origins = new LinkedHashMap<>();

    Launch(Map<String, String> hostEnv, String pointer) {
      this.hostEnv = hostEnv;
      this.pointer = pointer;
    }

    /**
     * The entry's members after {@code serverDefaults} and substitution.
     *
     * @throws JsonInputException for a member 1MCP's schema refuses (1MCP then skips the server)
     */
    Entry read(
        String name, Map<?, ?> raw, Map<?, ?> defaults, boolean template, List<String> warnings) {
      Entry e = new Entry(name, pointer);
      for (String member : List.of("type", "url")) {
        Shapes.putIfPresent(e, raw, pointer, member, member);
      }
      Object command = raw.get("command");
      string(command, Shapes.at(pointer, "command"));
      List<String> args = strings(raw.get("args"), Shapes.at(pointer, "args"));
      string(raw.get("cwd"), Shapes.at(pointer, "cwd"));
      Object ownEnv = raw.get("env");
      env(ownEnv, Shapes.at(pointer, "env"));
      bool(raw.get("inheritParentEnv"), Shapes.at(pointer, "inheritParentEnv"));
      strings(raw.get("envFilter"), Shapes.at(pointer, "envFilter"));
      disabled(e, raw.get("disabled"), template, warnings);

      boolean stdio = stdio(raw);
      List<String> filter = stdio ? filter(raw, defaults) : List.of();
      Map<String, String> combined = combined(raw, defaults, filter);
      Map<String, String> custom = new LinkedHashMap<>();
      Map<String, String> at = new LinkedHashMap<>();
      Object envValue = ownEnv;
      boolean fromDefaults = false;
      Object defaultEnv = defaults.get("env");
      if (envValue == null && defaultEnv != null) {
        envValue = defaultEnv;
        fromDefaults = true;
      } else if (envValue instanceof Map<?, ?> && defaultEnv instanceof Map<?, ?> d) {
        parse(d, JsonInputException.child("", DEFAULTS) + "/env", custom, at, true);
      }
      parse(
          envValue,
          fromDefaults
              ? JsonInputException.child("", DEFAULTS) + "/env"
              : Shapes.at(pointer, "env"),
          custom,
          at,
          fromDefaults);
      // envProcessor.ts: each custom value is substituted in file order, its own name standing for
      // the parent's value, earlier names for their substituted values.
      Map<String, String> lookup = new LinkedHashMap<>(combined);
      lookup.putAll(hostEnv);
      lookup.putAll(custom);
      for (Map.Entry<String, String> c : custom.entrySet()) {
        String key = c.getKey();
        String parent = hostEnv.containsKey(key) ? hostEnv.get(key) : combined.get(key);
        if (parent == null) {
          lookup.remove(key);
        } else {
          lookup.put(key, parent);
        }
        String value = substitute(c.getValue(), lookup, at.get(key));
        c.setValue(value);
        lookup.put(key, value);
      }
      if (ownEnv != null || defaultEnv != null) {
        e.put("env", custom, Shapes.at(pointer, "env"));
      }
      // transportFactory.ts: command, args and cwd see the server's final env, over the gateway's
      // own unless an envFilter is given.
      Map<String, String> processed = new LinkedHashMap<>(combined);
      processed.putAll(custom);
      Map<String, String> launchLookup;
      if (filter.isEmpty()) {
        launchLookup = new LinkedHashMap<>(hostEnv);
        launchLookup.putAll(processed);
      } else {
        launchLookup = processed;
      }
      if (command instanceof String c) {
        String commandAt = Shapes.at(pointer, "command");
        e.put("command", substitute(c, launchLookup, commandAt), commandAt);
      }
      if (raw.get("args") != null) {
        List<String> resolved = new ArrayList<>(args.size());
        String argsAt = Shapes.at(pointer, "args");
        for (int i = 0; i < args.size(); i++) {
          resolved.add(substitute(args.get(i), launchLookup, JsonInputException.child(argsAt, i)));
        }
        e.put("args", resolved, argsAt);
      }
      if (raw.get("cwd") instanceof String cwd) {
        String cwdAt = Shapes.at(pointer, "cwd");
        e.put("cwd", substitute(cwd, launchLookup, cwdAt), cwdAt);
      }
      return e;
    }

    /**
     * The inherited names the server receives, or null for the whole environment: the SDK's
     * defaults, and with {@code inheritParentEnv} the rest of the gateway's environment that passes
     * {@code envFilter} (without exported shell functions).
     */
    @Nullable List<String> inherited(Map<?, ?> raw, Map<?, ?> defaults) {
      if (!stdio(raw)) {
        return null;
      }
      List<String> filter = filter(raw, defaults);
      if (!inheritParentEnv(raw, defaults)) {
        return SDK_DEFAULT_ENV;
      }
      boolean functions = false;
      Set<String> names = new LinkedHashSet<>(SDK_DEFAULT_ENV);
      for (Map.Entry<String, String> v : hostEnv.entrySet()) {
        if (v.getValue().startsWith("()")) {
          functions = true;
        } else if (filter.isEmpty() || matches(v.getKey(), filter)) {
          names.add(v.getKey());
        }
      }
      return filter.isEmpty() && !functions ? null : List.copyOf(names);
    }

    /** The SDK's defaults and, with {@code inheritParentEnv}, the gateway's env, filtered. */
    private Map<String, String> combined(Map<?, ?> raw, Map<?, ?> defaults, List<String> filter) {
      Map<String, String> combined = new LinkedHashMap<>();
      for (String name : SDK_DEFAULT_ENV) {
        String v = hostEnv.get(name);
        if (v != null && !v.startsWith("()")) {
          combined.put(name, v);
        }
      }
      if (inheritParentEnv(raw, defaults)) {
        for (Map.Entry<String, String> v : hostEnv.entrySet()) {
          if (!v.getValue().startsWith("()")) {
            combined.put(v.getKey(), v.getValue());
          }
        }
      }
      if (!filter.isEmpty()) {
        combined.keySet().removeIf(k -> !matches(k, filter));
      }
      return combined;
    }

    private static boolean inheritParentEnv(Map<?, ?> raw, Map<?, ?> defaults) {
      Object own = raw.get("inheritParentEnv");
      if (own != null) {
        return Boolean.TRUE.equals(own);
      }
      // mcpConfigMerge.ts: the default does not reach a server typed http, sse or streamableHttp.
      return Boolean.TRUE.equals(defaults.get("inheritParentEnv"));
    }

    /** mcpConfigMerge.ts: the defaults' filter, then the server's, without repeats. */
    private static List<String> filter(Map<?, ?> raw, Map<?, ?> defaults) {
      Set<String> out = new LinkedHashSet<>();
      for (Object source : List.of(defaults, raw)) {
        if (((Map<?, ?>) source).get("envFilter") instanceof List<?> list) {
          for (Object o : list) {
            out.add((String) o);
          }
        }
      }
      return List.copyOf(out);
    }

    /**
     * envProcessor.ts {@code matchesEnvPattern}: exact names or a trailing {@code *}; a {@code !}
     * pattern that matches always wins; with any allowing pattern, a name must match one.
     */
    static boolean matches(String key, List<String> patterns) {
      boolean allowed = false;
      boolean hasAllow = false;
      for (String p : patterns) {
        if (p.startsWith("!")) {
          if (glob(key, p.substring(1))) {
            return false;
          }
        } else {
          hasAllow = true;
          allowed |= glob(key, p);
        }
      }
      return allowed || !hasAllow;
    }

    private static boolean glob(String text, String pattern) {
      if (pattern.equals(text)) {
        return true;
      }
      return pattern.endsWith("*") && text.startsWith(pattern.substring(0, pattern.length() - 1));
    }

    /**
     * Reads an env value into {@code out}: an object of strings, or {@code parseEnvArray}'s list
     * (split at the first {@code =}, the name trimmed; a bare name copies the gateway's variable;
     * the last of a repeated name wins).
     */
    private void parse(
        @Nullable Object value,
        String envAt,
        Map<String, String> out,
        Map<String, String> at,
        boolean fromDefaults) {
      String origin = fromDefaults ? "serverDefaults.env" : "env";
      if (value instanceof Map<?, ?> map) {
        for (Map.Entry<?, ?> v : map.entrySet()) {
          String key = String.valueOf(v.getKey());
          out.put(key, (String) v.getValue());
          at.put(key, JsonInputException.child(envAt, key));
          setOrigin(key, origin);
        }
      } else if (value instanceof List<?> list) {
        for (int i = 0; i < list.size(); i++) {
          String item = (String) list.get(i);
          String itemAt = JsonInputException.child(envAt, i);
          int eq = item.indexOf('=');
          if (eq < 0) {
            String key = item.trim();
            String inherited = hostEnv.get(key);
            if (inherited != null) {
              out.put(key, inherited);
              at.put(key, itemAt);
              setOrigin(key, origin + " (a bare name: kcshare's environment)");
            }
          } else {
            String key = item.substring(0, eq).trim();
            out.put(key, item.substring(eq + 1));
            at.put(key, itemAt);
            setOrigin(key, origin);
          }
        }
      }
    }

    private void setOrigin(String key, String origin) {
      if (origin.equals("env")) {
        origins.remove(key);
      } else {
        origins.put(key, origin);
      }
    }

    /** envProcessor.ts {@code substituteEnvVars}: an unset variable stays as written. */
    String substitute(String value, Map<String, String> lookup, @Nullable String at) {
      if (value.indexOf('$') < 0) {
        return value;
      }
      Matcher m = Patterns.REFERENCE.matcher(value);
      StringBuilder out = new StringBuilder(value.length());
      while (m.find()) {
        String name = (m.group(1) != null ? m.group(1) : m.group(2)).trim();
        String set = lookup.get(name);
        if (set == null) {
          found.add(
              new Substitution.Found(
                  at == null ? pointer : at, m.group(), UnresolvedVariable.Reason.UNSET));
          set = m.group();
        }
        m.appendReplacement(out, Matcher.quoteReplacement(set));
      }
      m.appendTail(out);
      return out.toString();
    }
  }

  /** transport.ts / mcpConfigMerge.ts: typed stdio, or untyped with a command. */
  private static boolean stdio(Map<?, ?> raw) {
    Object type = raw.get("type");
    return "stdio".equals(type) || (type == null && raw.get("command") != null);
  }

  /**
   * Static servers: JavaScript truthiness ({@code if (config.disabled)}); templates: a string is
   * rendered, then disabled only for {@code true}, {@code 1} or {@code yes} ({@code
   * handlebarsTemplateRenderer.ts}, {@code stringToBoolean}).
   */
  private static void disabled(Entry e, @Nullable Object value, boolean template, List<String> w) {
    String at = Shapes.at(e.pointer(), "disabled");
    if (value == null) {
      return;
    }
    if (value instanceof Boolean b) {
      e.put("disabled", b, at);
      return;
    }
    if (!(value instanceof String s)) {
      throw EntryParser.expected(at, "a boolean or a string", value);
    }
    if (!template) {
      e.put("disabled", !s.isEmpty(), at);
      w.add(
          at
              + ": a string in a static server, which 1MCP reads as "
              + (s.isEmpty() ? "false (empty)" : "true (not empty): the server is off"));
      return;
    }
    if (s.contains("{{")) {
      e.put("disabled", false, at);
      w.add(
          at
              + ": rendered for each client; kcshare reads it as enabled, as it is for a client"
              + " whose context turns it on");
      return;
    }
    String t = s.trim().toLowerCase(java.util.Locale.ROOT);
    e.put("disabled", t.equals("true") || t.equals("1") || t.equals("yes"), at);
  }

  private static void string(@Nullable Object value, String at) {
    if (value != null && !(value instanceof String)) {
      throw EntryParser.expected(at, "a string", value);
    }
  }

  private static void bool(@Nullable Object value, String at) {
    if (value != null && !(value instanceof Boolean)) {
      throw EntryParser.expected(at, "a boolean", value);
    }
  }

  private static List<String> strings(@Nullable Object value, String at) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> list)) {
      throw EntryParser.expected(at, "an array of strings", value);
    }
    List<String> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String s)) {
        throw EntryParser.expected(JsonInputException.child(at, i), "a string", list.get(i));
      }
      out.add(s);
    }
    return out;
  }

  /** transport.ts: an object of strings or an array of {@code KEY=VALUE} strings. */
  private static void env(@Nullable Object value, String at) {
    if (value == null) {
      return;
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> v : map.entrySet()) {
        if (!(v.getValue() instanceof String)) {
          throw EntryParser.expected(
              JsonInputException.child(at, String.valueOf(v.getKey())), "a string", v.getValue());
        }
      }
      return;
    }
    if (value instanceof List<?>) {
      strings(value, at);
      return;
    }
    throw EntryParser.expected(at, "an object or an array of KEY=VALUE strings", value);
  }

  private static void collect(@Nullable Object value, String pointer, List<Shapes.Held> out) {
    if (value instanceof String s) {
      if (GatewayLocations.holdsVariable(s)) {
        Matcher m = Patterns.VARIABLE.matcher(s);
        out.add(new Shapes.Held(pointer, m.find() ? m.group() : s));
      }
    } else if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        collect(list.get(i), JsonInputException.child(pointer, i), out);
      }
    } else if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> m : map.entrySet()) {
        collect(m.getValue(), JsonInputException.child(pointer, String.valueOf(m.getKey())), out);
      }
    }
  }
}
