package dev.kcshare.host.seeding;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.UnresolvedVariable;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.policy.internal.GatewaySeeding;
import dev.kcshare.core.policy.internal.GatewaySeeding.Gateway;
import dev.kcshare.core.policy.internal.GatewaySeeding.Kind;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.HostContext;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.ConfigFormat;
import dev.kcshare.host.config.GatewayLocations;
import dev.kcshare.host.config.HostConfigLoader;
import dev.kcshare.host.config.KiroCrewConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An mcphub or 1MCP file as seeding reads it: where the gateway finds it, its entries, and where
 * each entry's isolation switch goes (docs/seeding.md, Other gateways).
 */
public final class GatewayFile {
  static final String SERVERS = "mcpServers";
  static final String TEMPLATES = "mcpTemplates";

  private GatewayFile() {}

  /**
   * One entry with what seeding and the verdict lookup need.
   *
   * @param entry the entry for the seeding policy
   * @param command its command, or null
   * @param args its arguments (strings only)
   * @param value the entry's parsed value
   */
  public record Parsed(
      GatewaySeeding.Entry entry,
      @Nullable String command,
      List<String> args,
      Map<String, @Nullable Object> value) {}

  /**
   * The file the gateway reads, where the gateway finds it ({@link GatewayLocations#mcphub}, {@link
   * GatewayLocations#oneMcp}).
   */
  public static Path locate(Gateway gateway, Map<String, String> env, Path cwd) {
    if (gateway == Gateway.MCPHUB) {
      return GatewayLocations.mcphub(env, cwd);
    }
    return GatewayLocations.oneMcp(env, cwd, KiroCrewConfig.userHome(env));
  }

  /**
   * The entries of the document, in file order.
   *
   * @throws BadInputException naming the file when {@code mcpServers} or {@code mcpTemplates} is
   *     not an object, an entry is not an object, or a name is defined twice (in one object, or in
   *     both)
   */
  public static List<Parsed> entries(Gateway gateway, ConfigEditor.Document doc, HostContext ctx) {
    if (!(doc.root() instanceof Map<?, ?> root)) {
      throw new BadInputException(doc.file() + ": the document is not a JSON object");
    }
    List<String> sections =
        gateway == Gateway.MCPHUB ? List.of(SERVERS) : List.of(SERVERS, TEMPLATES);
    Map<String, ConfiguredDefinition> launches =
        HostConfigLoader.gatewayEntries(
            ctx,
            doc.file(),
            root,
            gateway == Gateway.ONE_MCP ? ConfigFormat.ONE_MCP : ConfigFormat.MCPHUB);
    List<Parsed> out = new ArrayList<>();
    Map<String, String> where = new LinkedHashMap<>();
    for (String section : sections) {
      Object value = root.get(section);
      if (value == null) {
        continue;
      }
      if (!(value instanceof Map<?, ?> map)) {
        throw new BadInputException(doc.file() + ": " + section + " is not an object");
      }
      List<String> repeated = ConfigEditor.repeatedMembers(doc, List.of(section));
      if (!repeated.isEmpty()) {
        throw new BadInputException(
            doc.file() + ": " + section + " defines \"" + repeated.get(0) + "\" more than once");
      }
      Kind kind = section.equals(SERVERS) ? Kind.SERVER : Kind.TEMPLATE;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String name = String.valueOf(e.getKey());
        String before = where.put(name, section);
        if (before != null) {
          throw new BadInputException(
              doc.file() + ": \"" + name + "\" is defined in both " + before + " and " + section);
        }
        if (!(e.getValue() instanceof Map<?, ?> entry)) {
          throw new BadInputException(
              doc.file() + ": " + section + "." + name + " is not an object");
        }
        String pointer = JsonInputException.child(JsonInputException.child("", section), name);
        out.add(parse(gateway, kind, name, copy(entry), launches.get(pointer)));
      }
    }
    return out;
  }

  /**
   * One entry: its launch as discovery read it (null when discovery cannot use the entry: then it
   * is never seeded, and the configuration listing says why).
   */
  private static Parsed parse(
      Gateway gateway,
      Kind kind,
      String name,
      Map<String, @Nullable Object> entry,
      @Nullable ConfiguredDefinition launch) {
    String command = null;
    List<String> args = List.of();
    boolean stdio = false;
    boolean templated = false;
    if (launch != null) {
      ServerDefinition d = launch.definition();
      command = d.command();
      args = d.args();
      stdio = launch.isStdio() && command != null && !command.isEmpty();
      for (UnresolvedVariable u : launch.unresolved()) {
        templated |= u.reason() == UnresolvedVariable.Reason.TEMPLATE;
      }
    }
    boolean explicit;
    if (gateway == Gateway.MCPHUB) {
      explicit = entry.containsKey("perSessionClient");
    } else {
      explicit =
          entry.get("template") instanceof Map<?, ?> t
              && (t.containsKey("perClient") || t.containsKey("shareable"));
    }
    return new Parsed(
        new GatewaySeeding.Entry(name, kind, stdio, kind == Kind.TEMPLATE && templated, explicit),
        command,
        List.copyOf(args),
        entry);
  }

  /** Whether a value holds a Handlebars variable ({@link GatewayLocations#holdsVariable}). */
  static boolean holdsVariable(@Nullable Object value) {
    return GatewayLocations.holdsVariable(value);
  }

  /** Where the entry's isolation switch goes: the object path and the member name. */
  public static List<String> switchPath(Gateway gateway, GatewaySeeding.Entry entry) {
    return gateway == Gateway.MCPHUB
        ? List.of(SERVERS, entry.name())
        : List.of(TEMPLATES, entry.name(), "template");
  }

  /** The switch's member name. */
  public static String switchKey(Gateway gateway) {
    return gateway == Gateway.MCPHUB ? "perSessionClient" : "perClient";
  }

  /**
   * The {@code mcpTemplates} entry that would isolate a 1MCP static server: its own members plus
   * {@code template.perClient: true}.
   */
  public static Map<String, @Nullable Object> isolatingTemplate(Parsed p) {
    Map<String, @Nullable Object> t = new LinkedHashMap<>(p.value());
    Map<String, @Nullable Object> template = new LinkedHashMap<>();
    if (t.get("template") instanceof Map<?, ?> old) {
      template.putAll(copy(old));
    }
    template.put("perClient", true);
    t.put("template", template);
    return t;
  }

  private static Map<String, @Nullable Object> copy(Map<?, ?> m) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      out.put(String.valueOf(e.getKey()), e.getValue());
    }
    return out;
  }
}
