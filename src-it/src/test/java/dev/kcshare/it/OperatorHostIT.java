package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.IdentityHashes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What kcshare tells an operator about each server, through the packaged launcher on a fake home: a
 * server in Kiro ({@code good}), a name defined differently in Kiro and Cursor ({@code dup}), a
 * disabled Kiro server ({@code off}), a server only in Cursor ({@code cursor-only}), and a Kiro
 * Crew configuration, all with the default records directory.
 */
final class OperatorHostIT {
  @TempDir Path root;
  private Path home;
  private Path work;
  private String fixture;

  @BeforeEach
  void host() throws Exception {
    Assumptions.assumeTrue(RealServers.nodeOnPath().isPresent(), "node is not installed");
    home = Files.createDirectories(root.resolve("home"));
    work = Files.createDirectories(root.resolve("work"));
    fixture = ItProcesses.fixture().toString();
    Map<String, Object> kiro = new LinkedHashMap<>();
    kiro.put("good", server("stable"));
    kiro.put("dup", server("stable"));
    Map<String, Object> off = new LinkedHashMap<>(server("stable"));
    off.put("disabled", true);
    kiro.put("off", off);
    write(".kiro/settings/mcp.json", Map.of("mcpServers", kiro));
    Map<String, Object> cursor = new LinkedHashMap<>();
    cursor.put("dup", server("stable", "--delay-ms", "5"));
    cursor.put("cursor-only", server("stable"));
    write(".cursor/mcp.json", Map.of("mcpServers", cursor));
  }

  private Map<String, Object> server(String mode, String... flags) {
    List<String> args = new java.util.ArrayList<>(List.of(fixture, mode));
    args.addAll(List.of(flags));
    return Map.of("command", "node", "args", args);
  }

  private Path write(String relative, Object json) throws Exception {
    Path p = home.resolve(relative);
    Files.createDirectories(p.getParent());
    return Files.writeString(p, Json.write(json), StandardCharsets.UTF_8);
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    // Empty counts as unset: the test's own environment must not choose another Kiro Crew home,
    // records directory or Claude Desktop directory.
    env.put("KIROCREW_HOME", "");
    env.put("KCSHARE_RECORDS_DIR", "");
    env.put("XDG_CONFIG_HOME", "");
    return Kcshare.run(work, env, "", args);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  @Test
  void aMessyKiroCrewHost() throws Exception {
    Path config = write(".kiro/crew/config.json", Map.of("agent", Map.of("model", "m")));

    Kcshare.Result cfg = kcshare("config");
    assertThat(cfg.exitCode()).as(cfg.stderr()).isZero();
    assertThat(cfg.stdout())
        .startsWith("Profile: kirocrew (because ~/.kiro/crew exists)\n  rule: ")
        .contains("  dup: definitions resolve to different execution identities\n");

    // The conflicting name: assess explains it, measure refuses it, --all skips it.
    Kcshare.Result dup = kcshare("assess", "dup");
    assertThat(dup.stdout())
        .contains("what would change it: make its definitions agree (see below)")
        .contains("    ~/.kiro/settings/mcp.json /mcpServers/dup: node ")
        .contains("    ~/.cursor/mcp.json /mcpServers/dup: node ")
        .contains("--config FILE to read only the file whose definition you mean");
    Kcshare.Result refused = kcshare("measure", "dup");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.stderr())
        .startsWith("kcshare: cannot measure \"dup\": its definitions conflict");
    Kcshare.Result pass = kcshare("measure", "--all", "-v");
    assertThat(pass.exitCode()).as(pass.stderr()).isZero();
    assertThat(pass.stderr())
        .contains("skipped dup: its definitions conflict (see kcshare assess dup)")
        .contains("good: handshake reproducible, stored")
        .contains("cursor-only: handshake reproducible, stored")
        .doesNotContain("dup: handshake");

    // The disabled server: never spawned, and where to enable it.
    assertThat(kcshare("assess", "off").stdout())
        .contains("what would change it: enable it (see below), then run `kcshare measure off`")
        .contains(
            "set \"disabled\" to false (or remove it) at ~/.kiro/settings/mcp.json"
                + " /mcpServers/off/disabled");
    assertThat(kcshare("assess", "--all").stdout())
        .containsPattern("\ndup +unknown .*not_probed: conflicting definitions\n")
        .containsPattern("\noff +unknown .*not_probed: disabled\n")
        .containsPattern("\ngood +measured ");

    // A typo.
    Kcshare.Result typo = kcshare("assess", "godo");
    assertThat(typo.exitCode()).isEqualTo(2);
    assertThat(typo.stderr())
        .isEqualTo(
            "kcshare: unknown server \"godo\": did you mean \"good\"? (see kcshare config)\n");

    // Seeding: only the server the gateway fronts, the others listed for what they are.
    Map<String, Object> plan = object(Json.parse(kcshare("seed", "--plan", "--json").stdout()));
    assertThat(object(plan.get("plan")).get("addStub")).isEqualTo(List.of("good"));
    assertThat(plan)
        .containsEntry("conflicting", List.of("dup"))
        .containsEntry("disabled", List.of("off"))
        .containsEntry("notServed", List.of("cursor-only"))
        .containsEntry("notMeasured", List.of());
    Kcshare.Result seeded = kcshare("seed", "--apply");
    assertThat(seeded.exitCode()).as(seeded.stderr()).isZero();
    assertThat(seeded.stdout())
        .contains(
            "Wrote stub_overrides in " + config + " (previous version in " + config + ".bak)");
    assertThat(config.resolveSibling("config.json.bak")).exists();
    Map<String, Object> section =
        object(object(Json.parse(Files.readString(config))).get("mcp_gateway"));
    assertThat(object(section.get("stub_overrides"))).isEqualTo(Map.of("good", true));

    // Stubbing: a server only in Cursor is skipped; a name not configured is an error.
    String before = Files.readString(config);
    Map<String, Object> stub =
        object(Json.parse(kcshare("stub", "cursor-only", "--json").stdout()));
    assertThat(stub)
        .containsEntry("stubbed", List.of())
        .containsEntry("skipped", List.of(Map.of("name", "cursor-only", "reason", "not_served")))
        .containsEntry("written", false);
    for (String command : List.of("stub", "unstub")) {
      Kcshare.Result r = kcshare(command, "godo");
      assertThat(r.exitCode()).as(command).isEqualTo(2);
      assertThat(r.stderr()).as(command).contains("did you mean \"good\"?");
    }
    assertThat(Files.readString(config)).isEqualTo(before);

    // hazards clear of a name nobody knows: refused with the closest name, nothing stamped.
    Kcshare.Result clear = kcshare("hazards", "clear", "godo");
    assertThat(clear.exitCode()).isEqualTo(2);
    assertThat(clear.stdout()).isEmpty();
    assertThat(clear.stderr())
        .isEqualTo(
            "kcshare: unknown server \"godo\": did you mean \"good\"? (not configured and no"
                + " hazards recorded; --force clears it anyway)\n");

    // identity: any argument value, and a configured server's definitions.
    Map<String, Object> id =
        object(
            Json.parse(
                kcshare(
                        "identity",
                        "--command",
                        "node",
                        "--arg=-v",
                        "--arg",
                        "--",
                        "--arg=--json",
                        "--json")
                    .stdout()));
    assertThat(id.get("commandArgsHash"))
        .isEqualTo(IdentityHashes.commandArgsHash("node", List.of("-v", "--", "--json")));
    Map<String, Object> ofDup = object(Json.parse(kcshare("identity", "dup", "--json").stdout()));
    assertThat(ofDup).containsEntry("name", "dup").containsEntry("identitiesAgree", false);
    assertThat((List<?>) ofDup.get("definitions")).hasSize(2);
  }

  @Test
  void aHostWithoutKiroCrew() throws Exception {
    assertThat(kcshare("config").stdout())
        .startsWith(
            "Profile: default (because KIROCREW_HOME is unset and ~/.kiro/crew does not exist)\n");
    // The first pass puts the records in their default place, ~/.kiro/crew/mcp-gateway.
    Kcshare.Result pass = kcshare("measure", "--all");
    assertThat(pass.exitCode()).as(pass.stderr()).isZero();
    Path crew = home.resolve(".kiro/crew");
    assertThat(crew.resolve("mcp-gateway/shareability-verdicts.json")).exists();

    Kcshare.Result seeded = kcshare("seed", "--apply");
    assertThat(seeded.exitCode()).as(seeded.stderr()).isZero();
    Path config = crew.resolve("config.json");
    assertThat(seeded.stdout())
        .contains(
            "Created " + config + " with stub_overrides: there was no Kiro Crew configuration.")
        .contains("Host profile: default (")
        .doesNotContain(".bak");
    assertThat(config.resolveSibling("config.json.bak")).doesNotExist();
    assertThat(object(object(Json.parse(Files.readString(config))).get("mcp_gateway")))
        .isEqualTo(Map.of("stub_overrides", Map.of("good", true)));

    // ~/.kiro/crew exists now, but holds only what kcshare wrote: the profile did not flip.
    assertThat(kcshare("config").stdout())
        .startsWith(
            "Profile: default (because ~/.kiro/crew holds only files kcshare wrote there, not a"
                + " Kiro Crew installation)\n");
  }

  @Test
  void aServerThatAlwaysFailsForLackOfAVariable() throws Exception {
    Assumptions.assumeTrue(System.getenv("FIXTURE_TOKEN") == null, "FIXTURE_TOKEN is set");
    Map<String, Object> cursor = new LinkedHashMap<>();
    cursor.put("dup", server("stable", "--delay-ms", "5"));
    cursor.put("cursor-only", server("stable"));
    cursor.put("needs-token", server("needs-env"));
    write(".cursor/mcp.json", Map.of("mcpServers", cursor));

    Kcshare.Result first = kcshare("measure", "--all", "-v");
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    assertThat(first.stderr())
        .contains("needs-token: could not run: no response (process exited with status 1)")
        .contains("  stderr: fixture: FIXTURE_TOKEN is not set\\n")
        .contains("Measured 2 of 3 server(s); 1 could not run (not stored).");
    Path records = home.resolve(".kiro/crew/mcp-gateway");
    assertThat(records.resolve("kcshare-attempts.json")).exists();
    assertThat(
            object(object(Json.read(records.resolve("shareability-verdicts.json"))).get("entries")))
        .doesNotContainKey("needs-token");
    assertThat(kcshare("assess", "--all").stdout())
        .containsPattern("\nneeds-token +unknown +no +no +- +- +could not run just now\n");
    assertThat(kcshare("assess", "needs-token").stdout())
        .contains("    advice: set the environment variable FIXTURE_TOKEN it asks for");

    // The second failure in a row: the next pass leaves it alone, and says so.
    assertThat(kcshare("measure", "--all").exitCode()).isZero();
    Kcshare.Result third = kcshare("measure", "--all", "-v");
    assertThat(third.stderr())
        .contains("Skipped 1 server(s) whose pre-flight kept failing (needs-token)")
        .doesNotContain("needs-token: could not run");
  }
}
