package dev.kcshare.host.config;

import dev.kcshare.core.json.host.JsonInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * 1MCP: its {@code mcp.json} where 1MCP finds it ({@link GatewayLocations#oneMcp}); static {@code
 * mcpServers} and {@code mcpTemplates}, each with {@code type}, {@code command}, {@code args},
 * {@code env}, {@code cwd}, {@code url} and {@code disabled} ({@code src/core/types/transport.ts},
 * {@code transportConfigSchema}). A template whose launch ({@code command}, {@code args}, {@code
 * env}, {@code cwd}) holds a Handlebars variable is rendered per client: it cannot be measured as
 * written.
 */
final class OneMcpClient implements ClientFamily {
  private static final String TEMPLATES = "mcpTemplates";
  private static final Pattern VARIABLE = Pattern.compile("\\{\\{.*?(\\}\\}|$)");

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
    in.servers(format, top, "", "mcpServers");
    in.servers(format, top, "", TEMPLATES);
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    Object disabled = raw.get("disabled");
    if (disabled instanceof String) {
      // 1MCP evaluates a string as a template; kcshare cannot, and never spawns what may be off.
      e.put("disabled", true, Shapes.at(pointer, "disabled"));
      warnings.add(
          Shapes.at(pointer, "disabled")
              + ": a string that 1MCP evaluates; kcshare reads it as disabled and never spawns it");
    }
    List<Shapes.Held> held = new ArrayList<>();
    if (pointer.startsWith(JsonInputException.child("", TEMPLATES) + "/")) {
      for (String member : List.of("command", "args", "env", "cwd")) {
        collect(raw.get(member), Shapes.at(pointer, member), held);
      }
    }
    return new Shapes.Mapped(e, List.of(), held);
  }

  private static void collect(@Nullable Object value, String pointer, List<Shapes.Held> out) {
    if (value instanceof String s) {
      if (GatewayLocations.holdsVariable(s)) {
        Matcher m = VARIABLE.matcher(s);
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
