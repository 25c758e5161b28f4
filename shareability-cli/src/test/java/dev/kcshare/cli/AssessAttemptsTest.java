package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.records.internal.FailedAttempts;
import dev.kcshare.host.evaluation.FixtureFleet;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.records.AttemptStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kcshare assess} shows the last pre-flight that could not run (kcshare-attempts.json): in
 * the table instead of a bare not_probed, in the detail with its stderr tail and advice, and in
 * JSON as {@code lastAttempt}; the verdict itself does not change. Never spawns.
 */
final class AssessAttemptsTest {
  private static final double NOW = 1_800_010_800.0;
  private static final double THREE_HOURS_AGO = NOW - 3 * 3600 - 5;

  @TempDir Path dir;
  private FixtureFleet fleet;
  private final MutableClock clock = new MutableClock(Instant.ofEpochMilli((long) (NOW * 1000)));

  @BeforeEach
  void fleet() throws Exception {
    fleet = new FixtureFleet(dir);
    fleet.fixture("needs-env", "needs-env").fixture("other", "stable").fixture("edited", "stable");
    fleet.write();
  }

  @AfterEach
  void neverSpawns() throws Exception {
    fleet.assertSpawns(Map.of("needs-env", 0, "other", 0, "edited", 0));
  }

  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("KCSHARE_STDOUT_TTY");
    env.remove("KCSHARE_RECORDS_DIR");
    return env;
  }

  private String identity(String name) {
    return FixtureFleet.load(dir.resolve("cfg.json"), env()).serverNamed(name).first().identity();
  }

  private void remember(int failures) throws Exception {
    FailedAttempts attempts = FailedAttempts.empty();
    for (int i = 0; i < failures; i++) {
      attempts.recordFailure(
          "needs-env",
          identity("needs-env"),
          THREE_HOURS_AGO,
          "no response (process exited with status 1)",
          "exit 1",
          "fixture: FIXTURE_TOKEN is not set\\n");
    }
    // An attempt under an identity the definition no longer has: not shown.
    attempts.recordFailure(
        "edited", "old\u0000identity\u0000x\u00002", THREE_HOURS_AGO, "timeout", null, "");
    AttemptStore.flush(attemptsFile(), attempts);
  }

  private Path attemptsFile() {
    return fleet.records().resolve("kcshare-attempts.json");
  }

  private CliRun assess(String... args) {
    List<String> all = new ArrayList<>(List.of("assess"));
    all.addAll(List.of(args));
    all.addAll(List.of("--config", "cfg.json", "--records-dir", "records"));
    return CliRun.run(dir, "", env(), clock, all.toArray(String[]::new));
  }

  @Test
  void theTableSaysCouldNotRunAndHowLongAgo() throws Exception {
    CliRun before = assess("--all");
    remember(1);
    CliRun r = assess("--all");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    List<String> lines = r.stdout().lines().toList();
    assertThat(lines.get(1).split(" {2,}"))
        .containsExactly("needs-env", "unknown", "no", "no", "-", "-", "could not run 3h ago");
    assertThat(lines.get(2)).endsWith("not_probed");
    assertThat(lines.get(3))
        .as("another identity's failure is not this one's")
        .endsWith("not_probed");
    assertThat(before.stdout().lines().toList().get(1)).endsWith("not_probed");
  }

  @Test
  void theDetailShowsWhatFailedTheStderrTailAndTheAdviceThatFits() throws Exception {
    remember(2);
    CliRun r = assess("needs-env");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .startsWith("needs-env: unknown (nothing observed yet)\n")
        .contains(
            "  last attempt: could not run 3h ago ("
                + HumanTime.format(THREE_HOURS_AGO)
                + "), 2 failures in a row\n")
        .contains("    detail: no response (process exited with status 1)\n")
        .contains("    exit status: exit 1\n")
        .contains("    stderr: fixture: FIXTURE_TOKEN is not set\\n\n")
        .contains(
            "    advice: set the environment variable FIXTURE_TOKEN it asks for, in the server's"
                + " \"env\" in its config file or in the environment kcshare runs with (for cron:"
                + " the crontab), then run `kcshare measure needs-env`\n")
        .doesNotContain("next try:");

    clock.advance(java.time.Duration.ofHours(-3)); // 5 s after the attempt
    assertThat(assess("needs-env").stdout())
        .contains("could not run just now")
        .contains(
            "    next try: `kcshare measure --all` skips it until "
                + HumanTime.format(THREE_HOURS_AGO + 3600)
                + "; `kcshare measure needs-env` tries it now\n");
    assertThat(assess("edited").stdout()).doesNotContain("last attempt");
  }

  @Test
  void jsonAddsLastAttemptAfterTheExistingMembersAndTheVerdictStaysTheEngines() throws Exception {
    Map<Object, Object> before = byName(assess("--all", "--json"));
    remember(3);
    CliRun r = assess("--all", "--json");
    Map<Object, Object> after = byName(r);
    Map<?, ?> failing = (Map<?, ?>) after.get("needs-env");
    assertThat(new ArrayList<Object>(failing.keySet()))
        .containsExactly(
            "name",
            "strength",
            "recommendStub",
            "recommendShare",
            "reasons",
            "sources",
            "identity",
            "identitiesAgree",
            "measuredAt",
            "lastAttempt");
    Map<?, ?> last = (Map<?, ?>) failing.get("lastAttempt");
    assertThat(new ArrayList<Object>(last.keySet()))
        .containsExactly("at", "detail", "exitStatus", "stderrTail", "failures");
    assertThat(last.get("at")).isEqualTo(THREE_HOURS_AGO);
    assertThat(last.get("detail")).isEqualTo("no response (process exited with status 1)");
    assertThat(last.get("exitStatus")).isEqualTo("exit 1");
    assertThat(last.get("stderrTail")).isEqualTo("fixture: FIXTURE_TOKEN is not set\n");
    assertThat(((Number) last.get("failures")).intValue()).isEqualTo(3);
    assertThat(((Map<?, ?>) after.get("other")).containsKey("lastAttempt")).isFalse();
    assertThat(((Map<?, ?>) after.get("edited")).containsKey("lastAttempt")).isFalse();
    // The verdict is the engine's, attempt or not.
    Map<String, Object> withoutAttempt = new LinkedHashMap<>();
    ((Map<?, ?>) after.get("needs-env"))
        .forEach(
            (k, v) -> {
              if (!k.equals("lastAttempt")) withoutAttempt.put((String) k, v);
            });
    assertThat(withoutAttempt).isEqualTo(before.get("needs-env"));
  }

  @Test
  void aCorruptAttemptsFileIsNoAttemptsAndNeverACrash() throws Exception {
    Files.createDirectories(fleet.records());
    for (String text : List.of("{", "[1,2]", "{\"schema\": 1, \"servers\": {\"needs-env\": 7}}")) {
      Files.writeString(attemptsFile(), text);
      CliRun r = assess("--all", "--json");
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(r.stdout()).doesNotContain("lastAttempt");
      assertThat(assess("needs-env").stdout()).doesNotContain("last attempt");
    }
  }

  @Test
  void aHandEditedTailIsShownEscaped() throws Exception {
    Files.createDirectories(fleet.records());
    Files.writeString(
        attemptsFile(),
        "{\"schema\": 1, \"servers\": {\"needs-env\": {\"at\": "
            + THREE_HOURS_AGO
            + ", \"identity\": "
            + dev.kcshare.core.json.JsonWriter.compact(identity("needs-env"))
            + ", \"detail\": \"x\\u001b[2J\", \"exitStatus\": null, \"stderrTail\": \"evil\\u001b[31m\\nline\", \"failures\": 1}}}");
    CliRun r = assess("needs-env");
    assertThat(r.stdout())
        .doesNotContain("\u001b")
        .contains("    detail: x\\x1b[2J\n")
        .contains("    stderr: evil\\x1b[31m\\nline\n")
        .doesNotContain("exit status:");
    AttemptRecord stored = AttemptStore.read(attemptsFile()).servers().get("needs-env");
    assertThat(stored.stderrTail()).isEqualTo("evil\\x1b[31m\\nline");
  }

  private static Map<Object, Object> byName(CliRun r) throws Exception {
    Map<Object, Object> out = new LinkedHashMap<>();
    for (Object o : (List<?>) JsonReader.withDepthLimit(100).parse(r.stdout())) {
      out.put(((Map<?, ?>) o).get("name"), o);
    }
    return out;
  }
}
