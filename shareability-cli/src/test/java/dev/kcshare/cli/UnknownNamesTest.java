package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name that is not configured: every command that takes one suggests the closest configured name
 * and writes nothing (on {@link OperatorFixture#mixed}).
 */
final class UnknownNamesTest {
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
  void unknownNamesGetTheClosestConfiguredName() {
    OperatorFixture f = OperatorFixture.mixed(root);
    String expected =
        "kcshare: unknown server \"godo\": did you mean \"good\"? (see kcshare config)";
    for (String[] args :
        List.of(
            new String[] {"assess", "godo"},
            new String[] {"measure", "godo"},
            new String[] {"preflight", "godo"},
            new String[] {"identity", "godo"})) {
      CliRun r = f.runPlain(args);
      assertThat(r.exitCode()).as(List.of(args).toString()).isEqualTo(2);
      assertThat(r.stdout()).as(List.of(args).toString()).isEmpty();
      assertThat(r.stderr()).as(List.of(args).toString()).startsWith(expected + "\n");
    }
    // Two unknown names: each is named, with its own hint, or none.
    assertThat(f.runPlain("assess", "godo", "nope-nothing-like-it").stderr())
        .contains(expected + "\n")
        .contains("unknown server \"nope-nothing-like-it\" (see kcshare config)\n");
    assertThat(f.records.resolve("shareability-verdicts.json")).doesNotExist();
  }

  @Test
  void stubAndUnstubOfAnUnconfiguredNameExitTwoAndWriteNothing() throws Exception {
    OperatorFixture f = OperatorFixture.mixed(root);
    byte[] before = Files.readAllBytes(f.config);
    for (String[] args :
        List.of(
            new String[] {"stub", "good", "godo"},
            new String[] {"stub", "--resolve-eligibility", "godo"},
            new String[] {"unstub", "godo"})) {
      CliRun r = f.runPlain(args);
      assertThat(r.exitCode()).as(List.of(args).toString()).isEqualTo(2);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr())
          .contains("unknown server \"godo\": did you mean \"good\"? (see kcshare config)")
          .contains("nothing written");
      assertThat(Files.readAllBytes(f.config)).isEqualTo(before);
      assertThat(f.config.resolveSibling("config.json.bak")).doesNotExist();
    }
    // A name the gateway section already names may be unstubbed after it left the configuration.
    f.writeConfig("{\"mcp_gateway\": {\"stub_servers\": [\"gone\"], \"stub_overrides\": {}}}\n");
    CliRun gone = f.runPlain("unstub", "gone");
    assertThat(gone.exitCode()).as(gone.stderr()).isZero();
    assertThat(f.configText()).contains("\"gone\": false");
  }

  @Test
  void hazardsClearOfANameNobodyKnowsExitsTwoWithTheClosestNameAndStampsNothing() throws Exception {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.hazard("good", "unroutable_server_request");
    byte[] before = Files.readAllBytes(f.records.resolve("observed-hazards.json"));
    CliRun r = f.run("hazards", "clear", "godo");
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .isEqualTo(
            "kcshare: unknown server \"godo\": did you mean \"good\"? (not configured and no"
                + " hazards recorded; --force clears it anyway)\n");
    assertThat(Files.readAllBytes(f.records.resolve("observed-hazards.json"))).isEqualTo(before);
  }

  @Test
  void hazardsClearOfAConfiguredNameWithNothingRecordedIsStampedWithoutAHint() throws Exception {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.hazard("good", "unroutable_server_request");
    // "cursor-only" is configured; the old hint proposed the typed name itself.
    CliRun r = f.run("hazards", "clear", "cursor-only");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr())
        .isEqualTo("No hazards were recorded for \"cursor-only\"; the clear is stamped anyway.\n");
    Map<String, Object> ledger =
        object(OperatorFixture.parse(Files.readString(f.records.resolve("observed-hazards.json"))));
    assertThat(object(ledger.get("cleared"))).containsKey("cursor-only");
    assertThat(object(ledger.get("servers"))).containsKey("good");
  }

  @Test
  void hazardsClearForceClearsANameNoLongerConfigured() throws Exception {
    OperatorFixture f = OperatorFixture.mixed(root);
    f.hazard("good", "unroutable_server_request");
    CliRun r = f.run("hazards", "clear", "retired", "--force");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Object> ledger =
        object(OperatorFixture.parse(Files.readString(f.records.resolve("observed-hazards.json"))));
    assertThat(object(ledger.get("cleared"))).containsKey("retired");
  }
}
