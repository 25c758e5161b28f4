package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host without Kiro Crew: what seeding creates, that it says so truthfully, and that creating
 * {@code ~/.kiro/crew} does not switch the host profile.
 */
final class KiroCrewAbsentTest {
  @TempDir Path root;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  @Test
  void seedApplyOnAHostWithoutKiroCrewSaysWhatItCreatedAndKeepsTheProfile() throws Exception {
    OperatorFixture f = OperatorFixture.mixed(root);
    Files.delete(f.config);
    Files.delete(f.config.getParent());
    assertThat(
            object(
                object(OperatorFixture.parse(f.runPlain("config", "--json").stdout()))
                    .get("profile")))
        .containsEntry("name", "default");
    f.measuredRows("good");

    CliRun plan = f.run("seed", "--plan");
    assertThat(plan.stdout())
        .startsWith(
            "Seeding plan for "
                + f.config
                + " (nothing written; it does not exist, --apply creates it when there is"
                + " something to stub):\n");

    CliRun r = f.run("seed", "--apply");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains(
            "  Created the directory "
                + f.config.getParent()
                + " and "
                + f.config
                + " in it with stub_overrides: there was no Kiro Crew configuration.\n")
        .contains(
            "  Host profile: default (~/.kiro/crew holds only files kcshare wrote there, not a"
                + " Kiro Crew installation).\n")
        .doesNotContain(".bak");
    assertThat(f.config.resolveSibling("config.json.bak")).doesNotExist();
    Map<String, Object> json =
        object(OperatorFixture.parse(f.run("seed", "--plan", "--json").stdout()));
    assertThat(json).containsEntry("configExists", true);

    // The next runs choose the same profile, with the records in their default place too.
    CliRun config = f.runPlain("config");
    assertThat(config.stdout())
        .startsWith(
            "Profile: default (because ~/.kiro/crew holds only files kcshare wrote there, not a"
                + " Kiro Crew installation)\n  rule: ");
    assertThat(f.runPlain("seed", "--apply").exitCode()).isZero();
    assertThat(f.config.getParent().resolve("mcp-gateway/shareability-verdicts.json")).exists();
    assertThat(f.runPlain("config").stdout()).startsWith("Profile: default (");

    // Once Kiro Crew itself lives there, it is a Kiro Crew home.
    f.homeFile(".kiro/crew/mcp.json", "{\"mcpServers\": {}}\n");
    assertThat(f.runPlain("config").stdout())
        .startsWith("Profile: kirocrew (because ~/.kiro/crew exists)\n");
  }

  @Test
  void stubCreatingTheConfigurationKeepsTheProfileToo() throws Exception {
    OperatorFixture f = OperatorFixture.mixed(root);
    Files.delete(f.config);
    Files.delete(f.config.getParent());
    CliRun r = f.run("stub", "good");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains(
            "Created the directory "
                + f.config.getParent()
                + " and "
                + f.config
                + " in it with stub_overrides: there was no Kiro Crew configuration.\n")
        .contains(
            "Host profile: default (~/.kiro/crew holds only files kcshare wrote there, not a"
                + " Kiro Crew installation).\n");
    // unstub edits it again (now with a backup); still only kcshare's files.
    assertThat(f.runPlain("unstub", "good").stdout())
        .contains("(previous version in " + f.config + ".bak)");
    assertThat(
            object(
                object(OperatorFixture.parse(f.runPlain("config", "--json").stdout()))
                    .get("profile")))
        .containsEntry("name", "default");
    // An operator's own member in the file: now it is a Kiro Crew configuration.
    f.writeConfig("{\"mcp_gateway\": {\"enabled\": false, \"stub_overrides\": {}}}\n");
    assertThat(
            object(
                object(OperatorFixture.parse(f.runPlain("config", "--json").stdout()))
                    .get("profile")))
        .containsEntry("name", "kirocrew")
        .containsEntry("reason", "~/.kiro/crew exists");
  }
}
