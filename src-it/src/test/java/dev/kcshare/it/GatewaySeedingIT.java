package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged launcher seeds mcphub and 1MCP files found where those gateways look for them
 * (docs/seeding.md, Other gateways): the minimal edit, a {@code .bak}, nothing the second time, and
 * bad input as exit 2 with nothing written.
 */
final class GatewaySeedingIT {
  @TempDir Path dir;

  private static final String MCPHUB =
      "{\n"
          + "  \"mcpServers\": {\n"
          + "    \"browser\": {\n"
          + "      \"command\": \"npx\",\n"
          + "      \"args\": [\"@playwright/mcp@latest\", \"--headless\"]\n"
          + "    },\n"
          + "    \"docs\": {\"type\": \"streamable-http\", \"url\": \"https://docs.example/mcp\"}\n"
          + "  },\n"
          + "  \"users\": [{\"username\": \"admin\", \"isAdmin\": true}]\n"
          + "}\n";

  private static final String ONE_MCP =
      "{\n"
          + "  \"mcpTemplates\": {\n"
          + "    \"browser\": {\"command\": \"npx\", \"args\": [\"@playwright/mcp@latest\"]},\n"
          + "    \"repo\": {\"command\": \"node\", \"args\": [\"{{project.path}}/srv.js\"]}\n"
          + "  }\n"
          + "}\n";

  private Kcshare.Result kcshare(Path cwd, String... args) throws Exception {
    Map<String, String> env =
        Map.of(
            "HOME", dir.resolve("home").toString(),
            "KCSHARE_RECORDS_DIR", dir.resolve("records").toString());
    return Kcshare.run(cwd, env, "", args);
  }

  @Test
  void mcphubFileInTheWorkingDirectoryIsSeededOnce() throws Exception {
    Path work = Files.createDirectories(dir.resolve("mcphub"));
    Path file = work.resolve("mcp_settings.json");
    Files.writeString(file, MCPHUB, StandardCharsets.UTF_8);

    Kcshare.Result plan = kcshare(work, "seed", "--gateway", "mcphub", "--plan");
    assertThat(plan.exitCode()).as(plan.stderr()).isZero();
    assertThat(plan.stdout()).contains("browser").contains("not stdio servers");
    assertThat(Files.readString(file)).isEqualTo(MCPHUB);

    Kcshare.Result apply = kcshare(work, "seed", "--gateway", "mcphub", "--apply");
    assertThat(apply.exitCode()).as(apply.stderr()).isZero();
    assertThat(Files.readString(file))
        .isEqualTo(
            MCPHUB.replace(
                "\"--headless\"]\n", "\"--headless\"],\n      \"perSessionClient\": true\n"));
    assertThat(Files.readString(work.resolve("mcp_settings.json.bak"))).isEqualTo(MCPHUB);
    String seeded = Files.readString(file);

    Kcshare.Result again = kcshare(work, "seed", "--gateway", "mcphub", "--apply");
    assertThat(again.exitCode()).as(again.stderr()).isZero();
    assertThat(again.stdout()).contains("unchanged");
    assertThat(Files.readString(file)).isEqualTo(seeded);
  }

  @Test
  void oneMcpDefaultFileIsSeededAndItsTemplatedEntryLeftAlone() throws Exception {
    Path file = dir.resolve("home/.config/1mcp/mcp.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, ONE_MCP, StandardCharsets.UTF_8);

    Kcshare.Result apply = kcshare(dir, "seed", "--gateway", "1mcp", "--apply");

    assertThat(apply.exitCode()).as(apply.stderr()).isZero();
    assertThat(apply.stdout()).contains("cannot be measured as written").contains("repo");
    assertThat(Files.readString(file))
        .isEqualTo(
            ONE_MCP.replace(
                "[\"@playwright/mcp@latest\"]}",
                "[\"@playwright/mcp@latest\"], \"template\": {\"perClient\": true}}"));
  }

  @Test
  void aMissingGatewayFileIsExit2AndNothingIsWritten() throws Exception {
    Path work = Files.createDirectories(dir.resolve("empty"));

    Kcshare.Result r = kcshare(work, "seed", "--gateway", "mcphub", "--apply");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .contains(work.resolve("mcp_settings.json") + ": does not exist")
        .doesNotContain("Exception");
    assertThat(dir.resolve("records/kcshare-seeded-mcphub.json")).doesNotExist();
  }
}
