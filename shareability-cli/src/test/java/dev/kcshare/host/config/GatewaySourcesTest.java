package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which files' servers the Kiro Crew gateway fronts. */
final class GatewaySourcesTest {
  @TempDir Path root;

  @Test
  void kiroUserSettingsAndAgentFilesOnly() throws Exception {
    Path home = Files.createDirectories(root.resolve("home"));
    GatewaySources g = GatewaySources.under(home);
    assertThat(g.isSource(home.resolve(".kiro/settings/mcp.json"))).isTrue();
    assertThat(g.isSource(home.resolve(".kiro/agents/kirocrew.json"))).isTrue();
    assertThat(g.isSource(home.resolve(".kiro/agents/../agents/reviewer.json"))).isTrue();
    for (String other :
        new String[] {
          ".kiro/agents/sub/x.json",
          ".kiro/agents/README.md",
          ".kiro/crew/config.json",
          ".kiro/settings/other.json",
          ".cursor/mcp.json",
          ".claude.json",
          ".config/Claude/claude_desktop_config.json",
          "work/.kiro/settings/mcp.json",
          "work/.vscode/mcp.json"
        }) {
      assertThat(g.isSource(home.resolve(other))).as(other).isFalse();
    }
  }

  @Test
  void aLinkCountsAsTheFileItPointsTo() throws Exception {
    Path home = Files.createDirectories(root.resolve("home"));
    Path settings = home.resolve(".kiro/settings/mcp.json");
    Files.createDirectories(settings.getParent());
    Files.writeString(settings, "{}");
    Path link = Files.createSymbolicLink(root.resolve("kiro-link.json"), settings);
    assertThat(GatewaySources.under(home).isSource(link)).isTrue();
    // A dotfiles manager linking the Kiro file elsewhere: the link in the Kiro place counts.
    Path dotfiles = Files.writeString(root.resolve("dotfiles-mcp.json"), "{}");
    Path agents = Files.createDirectories(home.resolve(".kiro/agents"));
    Path agentLink = Files.createSymbolicLink(agents.resolve("mine.json"), dotfiles);
    assertThat(GatewaySources.under(home).isSource(agentLink)).isTrue();
    assertThat(GatewaySources.under(home).isSource(dotfiles)).isFalse();
  }
}
