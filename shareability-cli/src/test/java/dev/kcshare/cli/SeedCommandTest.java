package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.internal.FailedAttempts;
import dev.kcshare.host.records.AttemptStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SeedCommandTest {
  @TempDir Path root;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  /**
   * The docs/design.md#seeding-apply example: x applied, p (stub, share), q (stub), r (no stub).
   */
  private OperatorFixture specExample() {
    OperatorFixture f = OperatorFixture.create(root);
    Map<String, CacheRow> rows = new LinkedHashMap<>();
    rows.put("x", f.declared("x"));
    rows.put("p", f.declared("p"));
    rows.put("q", f.measured("q"));
    f.cache(rows, List.of("x", "e", "h", "s"));
    return f;
  }

  @Test
  void planFollowsTheSpecExampleAndWritesNothing() throws Exception {
    OperatorFixture f = specExample();
    String before = f.configText();
    Path cache = f.records.resolve("shareability-verdicts.json");
    byte[] cacheBefore = Files.readAllBytes(cache);

    CliRun r = f.run("seed", "--plan", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Object> out = object(OperatorFixture.parse(r.stdout()));
    assertThat(object(out.get("plan")))
        .containsEntry("addStub", List.of("q"))
        .containsEntry("markApplied", List.of("p", "q", "r"))
        .containsEntry("wantsShare", List.of("p"));
    assertThat(out)
        .containsEntry("sharingOn", false)
        .containsEntry("applied", false)
        .containsEntry("notMeasured", List.of())
        .containsEntry("config", f.config.toString());

    CliRun human = f.run("seed", "--plan");
    assertThat(human.stdout())
        .contains("Seeding plan for " + f.config + " (nothing written):")
        .contains("  stub (stub_overrides = true): q\n")
        .contains("  mark applied:                 p, q, r\n")
        .contains("  would also share:             p\n")
        .contains("Run kcshare seed --apply to write this.")
        .contains("Sharing is off. To let p share a backend, turn it on yourself");

    assertThat(f.configText()).isEqualTo(before);
    assertThat(Files.readAllBytes(cache)).isEqualTo(cacheBefore);
    assertThat(f.config.resolveSibling("config.json.lock")).doesNotExist();
  }

  @Test
  void applyKeepsTheOperatorsFalseAndStillMarksEverything() throws Exception {
    OperatorFixture f = specExample();
    String before = f.configText();
    FileTime mtime = FileTime.fromMillis(1_600_000_000_000L);
    Files.setLastModifiedTime(f.config, mtime);

    CliRun r = f.run("seed", "--apply", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Object> out = object(OperatorFixture.parse(r.stdout()));
    assertThat(out)
        .containsEntry("applied", true)
        .containsEntry("added", List.of())
        .containsEntry("keptExplicit", List.of("q"))
        .containsEntry("configWritten", false)
        .containsEntry("markersWritten", true);

    // docs/design.md#seeding-apply: the explicit false is never overwritten; the file is not
    // touched at all.
    assertThat(f.configText()).isEqualTo(before);
    assertThat(Files.getLastModifiedTime(f.config)).isEqualTo(mtime);
    assertThat(f.config.resolveSibling("config.json.bak")).doesNotExist();
    assertThat(f.readCache().applied()).containsExactly("e", "h", "p", "q", "r", "s", "x");

    // Once per server: a second apply has nothing to do.
    CliRun again = f.run("seed", "--apply", "--json");
    Map<String, Object> second = object(OperatorFixture.parse(again.stdout()));
    assertThat(object(second.get("plan")))
        .containsEntry("addStub", List.of())
        .containsEntry("markApplied", List.of());
    assertThat(second).containsEntry("markersWritten", false);
  }

  @Test
  void applyWritesOnlyTheStubOverridesValueAndKeepsModeAndBackup() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    Map<String, CacheRow> rows = new LinkedHashMap<>();
    rows.put("x", f.measured("x"));
    rows.put("p", f.declared("p"));
    f.cache(rows, List.of("gone-server"));
    Files.setPosixFilePermissions(f.config, PosixFilePermissions.fromString("rw-r-----"));
    String before = f.configText();

    CliRun r = f.run("seed", "--apply");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains("Seeded " + f.config)
        .contains("  stub (stub_overrides = true): x\n")
        .contains("  mark applied:                 p, r, x\n")
        .contains("  not measured yet (left for a later seed; run kcshare measure): e, h, q, s\n")
        .contains(
            "Wrote stub_overrides in " + f.config + " (previous version in " + f.config + ".bak).");

    String after = f.configText();
    String oldValue = "{\n            \"q\": false\n        }";
    String newValue = "{\n            \"q\": false,\n            \"x\": true\n        }";
    int at = before.indexOf(oldValue);
    assertThat(at).isPositive();
    assertThat(after)
        .isEqualTo(before.substring(0, at) + newValue + before.substring(at + oldValue.length()));
    assertThat(f.config.resolveSibling("config.json.bak")).hasContent(before);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f.config)))
        .isEqualTo("rw-r-----");
    // Markers are persisted, and the marker of a server no longer configured is never pruned.
    assertThat(f.readCache().applied()).containsExactly("gone-server", "p", "r", "x");
    assertThat(f.readCache().rows()).containsKeys("p", "x");

    // s measured later is seeded then; x, already applied, is not revisited.
    rows.put("s", f.measured("s"));
    f.cache(rows, f.readCache().applied());
    CliRun later = f.run("seed", "--plan", "--json");
    assertThat(object(object(OperatorFixture.parse(later.stdout())).get("plan")))
        .containsEntry("addStub", List.of("s"))
        .containsEntry("markApplied", List.of("s"));
  }

  @Test
  void anOperatorsUnstubSurvivesLaterSeeds() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    f.cache(Map.of("x", f.measured("x")), List.of());
    assertThat(f.run("seed", "--apply").exitCode()).isZero();
    // The operator switches x off; a later seed must not switch it back on.
    assertThat(f.runPlain("unstub", "x").exitCode()).isZero();
    String text = f.configText();
    assertThat(f.run("seed", "--apply").exitCode()).isZero();
    assertThat(f.configText()).isEqualTo(text);
    assertThat(f.readCache().applied()).contains("x");
  }

  @Test
  void aServerThatCouldNotRunIsListedWithItsFailuresAndAdviceNotAsNotMeasuredYet()
      throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    Map<String, CacheRow> rows = new LinkedHashMap<>();
    rows.put("x", f.measured("x"));
    rows.put("p", f.declared("p"));
    f.cache(rows, List.of());
    FailedAttempts attempts = FailedAttempts.empty();
    for (int i = 0; i < 7; i++) {
      attempts.recordFailure(
          "q",
          f.identity("q"),
          1_700_000_000.0,
          "no response (process exited with status 1)",
          "exit 1",
          "fixture: FIXTURE_TOKEN is not set\\n");
    }
    AttemptStore.flush(f.records.resolve("kcshare-attempts.json"), attempts);

    CliRun human = f.run("seed", "--plan");
    assertThat(human.exitCode()).as(human.stderr()).isZero();
    assertThat(human.stdout())
        .contains("  not measured yet (left for a later seed; run kcshare measure): e, h, s\n")
        .contains(
            "  could not run (left until it runs; kcshare assess NAME shows the last attempt):\n"
                + "    q: could not run, 7 failures in a row; advice: set the environment variable"
                + " FIXTURE_TOKEN it asks for, in the server's \"env\" in its config file or in the"
                + " environment kcshare runs with (for cron: the crontab), then run `kcshare measure"
                + " q`\n");

    CliRun json = f.run("seed", "--plan", "--json");
    Map<String, Object> out = object(OperatorFixture.parse(json.stdout()));
    assertThat(out).containsEntry("notMeasured", List.of("e", "h", "q", "s"));
    assertThat(object(out.get("couldNotRun"))).containsOnlyKeys("q");
    assertThat(object(object(out.get("couldNotRun")).get("q")))
        .containsEntry("failures", 7)
        .hasEntrySatisfying(
            "advice",
            advice ->
                assertThat((String) advice)
                    .startsWith("set the environment variable FIXTURE_TOKEN it asks for"));
  }

  @Test
  void anUnreadableConfigurationIsBadInputAndNothingIsWritten() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    f.writeConfig("{\"mcp_gateway\": [");
    CliRun r = f.run("seed", "--apply");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(f.configText()).isEqualTo("{\"mcp_gateway\": [");
    assertThat(f.records.resolve("shareability-verdicts.json")).doesNotExist();
  }

  @Test
  void aHostWithoutKiroCrewGetsNoKiroCrewDirectoryWhenNothingIsWritten() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    Files.delete(f.config);
    Files.delete(f.config.getParent());
    CliRun r = f.run("seed", "--apply", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(object(OperatorFixture.parse(r.stdout())))
        .containsEntry("configWritten", false)
        .containsEntry("notMeasured", List.of("e", "h", "p", "q", "s", "x"));
    // Its existence would also switch kcshare's automatic host profile to kirocrew.
    assertThat(f.config.getParent()).doesNotExist();
  }

  @Test
  void seedNeedsPlanOrApply() {
    OperatorFixture f = OperatorFixture.create(root);
    assertThat(f.run("seed").exitCode()).isEqualTo(2);
    assertThat(f.run("seed", "--plan", "--apply").exitCode()).isEqualTo(2);
  }
}
