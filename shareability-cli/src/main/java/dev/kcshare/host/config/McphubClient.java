package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.plain;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * mcphub: its {@code mcp_settings.json} where mcphub finds it ({@link GatewayLocations#mcphub});
 * {@code mcpServers} with {@code type}, {@code command}, {@code args}, {@code env}, {@code url};
 * {@code enabled: false} disables; values verbatim.
 */
final class McphubClient implements ClientFamily {

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
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = new Entry(name, pointer);
    for (String member : List.of("type", "command", "args", "env", "url")) {
      Shapes.putIfPresent(e, raw, pointer, member, member);
    }
    Shapes.enabled(e, raw, pointer, false);
    return plain(e);
  }
}
