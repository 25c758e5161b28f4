package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.internal.Results;
import dev.kcshare.host.config.ConfigFormat;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The advice for a disabled server names the member its own client reads. */
final class EnableHintTest {
  private static ConfiguredDefinition disabled(ConfigFormat format, String file, String pointer) {
    ServerDefinition def = ServerDefinition.builder("off").command("node").disabled(true).build();
    return new Results.ConfiguredDefinition(
        def, file, Path.of("/h/x"), pointer, format.id(), format.client(), "id", List.of());
  }

  @Test
  void clientsThatSayEnabledAreToldToSetItTrue() {
    assertThat(
            ServerNotes.enableHint(
                disabled(ConfigFormat.GOOSE, "~/.config/goose/config.yaml", "/extensions/off")))
        .isEqualTo(
            "set \"enabled\" to true at ~/.config/goose/config.yaml /extensions/off/enabled");
    assertThat(
            ServerNotes.enableHint(
                disabled(ConfigFormat.CODEX, "~/.codex/config.toml", "/mcp_servers/off")))
        .startsWith("set \"enabled\" to true at ~/.codex/config.toml /mcp_servers/off/enabled");
    assertThat(ServerNotes.enableHint(disabled(ConfigFormat.OPENCODE, "o.json", "/mcp/off")))
        .contains("\"enabled\" to true");
    assertThat(ServerNotes.enableHint(disabled(ConfigFormat.ZED, "z.json", "/context_servers/off")))
        .contains("\"enabled\" to true");
  }

  @Test
  void geminiIsToldAboutItsExclusionListsAndAClientWithDisabledAboutThat() {
    assertThat(
            ServerNotes.enableHint(
                disabled(ConfigFormat.GEMINI, "~/.gemini/settings.json", "/mcpServers/off")))
        .contains("\"excluded\"")
        .contains("~/.gemini/settings.json")
        .contains("mcp-server-enablement.json");
    assertThat(
            ServerNotes.enableHint(
                disabled(ConfigFormat.CURSOR, "~/.cursor/mcp.json", "/mcpServers/off")))
        .isEqualTo(
            "set \"disabled\" to false (or remove it) at ~/.cursor/mcp.json /mcpServers/off/disabled");
  }
}
