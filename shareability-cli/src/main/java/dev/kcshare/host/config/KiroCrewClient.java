package dev.kcshare.host.config;

import java.util.List;
import java.util.Map;

/**
 * Kiro Crew's configuration ({@code $KIROCREW_HOME/config.json}): its {@code mcp_gateway} section
 * only, the gateway settings (docs/config.md).
 */
final class KiroCrewClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.KIROCREW);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile(
        "kirocrew",
        host.cwd().resolve(KiroCrewConfig.configFile(host.env())).normalize(),
        ConfigFormat.KIROCREW);
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    in.gateway(top);
  }
}
