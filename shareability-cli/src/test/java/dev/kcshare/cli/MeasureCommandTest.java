package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.host.evaluation.FixtureFleet;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.records.AttemptStore;
import dev.kcshare.host.records.HeldCacheLock;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kcshare measure} end to end, in-process against fixture servers: what each pass spawns and
 * stores, its output on stdout and stderr, and its exit codes. Tests run one at a time and in
 * isolation from every other test class, so that no process of this JVM may outlive any of them.
 */
@Isolated
final class MeasureCommandTest {
  /** A phase's time as -v prints it: milliseconds, or seconds from one second on. */
  private static final String T = "(?:\\d+ ms|\\d+(?:\\.\\d+)? s)";

  private static final List<String> RESULT_KEYS =
      List.of(
          "name",
          "ran",
          "callerSensitive",
          "reasons",
          "detail",
          "era",
          "reportedVersion",
          "stored");

  @TempDir Path dir;
  private FixtureFleet fleet;
  private ch.qos.logback.classic.Level rootLevel;

  @BeforeAll
  static void requireNode() {
    FixtureFleet.assumeNode();
  }

  @BeforeEach
  void rememberLogLevel() {
    rootLevel =
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME))
            .getLevel();
  }

  @AfterEach
  void nothingOutlivesTheTest() throws Exception {
    // -v and -q set the process-wide log level; give the next test the configured one.
    ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME))
        .setLevel(rootLevel);
    if (fleet != null) {
      fleet.assertAllGone();
    }
    FixtureFleet.assertNoDescendantRuns();
  }

  private FixtureFleet fleet() {
    fleet = new FixtureFleet(dir);
    return fleet;
  }

  private static Map<String, String> env(String... pairs) {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("KCSHARE_STDERR_TTY");
    env.remove("KCSHARE_STDOUT_TTY");
    env.remove("KCSHARE_RECORDS_DIR");
    env.remove("FIXTURE_TOKEN");
    env.remove("TERM");
    env.remove("NO_COLOR");
    env.remove("COLUMNS");
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  private CliRun measure(Map<String, String> env, String... args) throws Exception {
    fleet.write();
    List<String> all = new ArrayList<>(List.of("measure"));
    all.addAll(List.of(args));
    all.addAll(List.of("--config", "cfg.json", "--records-dir", "records"));
    return CliRun.run(dir, "", env, all.toArray(String[]::new));
  }

  private CliRun measure(String... args) throws Exception {
    return measure(env(), args);
  }

  private CliRun measure(MutableClock clock, Map<String, String> env, String... args)
      throws Exception {
    fleet.write();
    List<String> all = new ArrayList<>(List.of("measure"));
    all.addAll(List.of(args));
    all.addAll(List.of("--config", "cfg.json", "--records-dir", "records"));
    return CliRun.run(dir, "", env, clock, all.toArray(String[]::new));
  }

  /** The attempts file as stored now. */
  private Map<String, AttemptRecord> attempts() {
    return AttemptStore.read(fleet.records().resolve("kcshare-attempts.json")).servers();
  }

  /** Parses stdout, which must be exactly one JSON array of result objects. */
  private static List<Map<String, Object>> results(CliRun r) throws Exception {
    Object parsed = JsonReader.withDepthLimit(100).parse(r.stdout());
    assertThat(parsed).as("stdout: %s", r.stdout()).isInstanceOf(List.class);
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object o : (List<?>) parsed) {
      Map<String, Object> m = new LinkedHashMap<>();
      ((Map<?, ?>) o).forEach((k, v) -> m.put((String) k, v));
      List<String> keys = new ArrayList<>(RESULT_KEYS);
      if (Boolean.FALSE.equals(m.get("ran"))) {
        keys.addAll(List.of("stderrTail", "exitStatus"));
      }
      assertThat(new ArrayList<Object>(m.keySet())).isEqualTo(keys);
      out.add(m);
    }
    return out;
  }

  private static List<Object> names(List<Map<String, Object>> results) {
    return results.stream().map(m -> m.get("name")).toList();
  }

  private static Map<String, Object> result(List<Map<String, Object>> results, String name) {
    return results.stream()
        .filter(m -> name.equals(m.get("name")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no result for " + name + ": " + results));
  }

  private void disabledAndRemote() {
    Map<String, Object> disabled = new LinkedHashMap<>();
    disabled.put("command", "node");
    disabled.put("args", fleet.args("off", "stable"));
    disabled.put("disabled", true);
    fleet.entry("off", disabled);
    Map<String, Object> remote = new LinkedHashMap<>();
    remote.put("type", "http");
    remote.put("url", "https://remote.example.invalid/mcp");
    fleet.entry("remote", remote);
  }

  // ------------------------------------------------------------------ selection end to end

  @Test
  void measureAllStoresNeverMeasuredServersThenSkipsCleanHitsAndRepeatsDivergentOnes()
      throws Exception {
    fleet()
        .fixture("clean", "stable", "--version", "4.5.6")
        .fixture("divergent", "sensitive-tools");
    disabledAndRemote();
    fleet.fixture("broken", "exit-early");

    MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_800_000_000L, 250_000_000L));
    CliRun first = measure(clock, env(), "--all", "--json");
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    assertThat(first.stderr())
        .isEqualTo("Measured 2 of 3 server(s); 1 could not run (not stored).\n");
    List<Map<String, Object>> results = results(first);
    assertThat(names(results)).containsExactly("clean", "divergent", "broken");
    assertThat(result(results, "clean"))
        .containsEntry("ran", true)
        .containsEntry("callerSensitive", false)
        .containsEntry("era", "legacy")
        .containsEntry("reportedVersion", "4.5.6")
        .containsEntry("stored", true);
    assertThat(result(results, "divergent"))
        .containsEntry("callerSensitive", true)
        .containsEntry("detail", "tools_shape_differs")
        .containsEntry("stored", true);
    assertThat(result(results, "broken"))
        .containsEntry("ran", false)
        .containsEntry("detail", "no response (process exited with status 1)")
        .containsEntry("stored", false);
    fleet.assertSpawns(Map.of("clean", 2, "divergent", 2, "off", 0, "remote", 0, "broken", 2));

    CacheRow clean = fleet.storedRow("clean");
    assertThat(clean.ran()).isTrue();
    assertThat(clean.evaluatedAt()).isEqualTo(1_800_000_000.25); // the context's clock
    assertThat(clean.identity())
        .isEqualTo(
            FixtureFleet.load(dir.resolve("cfg.json"), env())
                .serverNamed("clean")
                .first()
                .identity());
    assertThat(clean.reportedVersion()).isEqualTo("4.5.6");
    assertThat(clean.handshake()).isNotNull();
    assertThat(fleet.storedCache().serverNames()).containsExactly("clean", "divergent");

    CliRun second = measure(clock, env(), "--all", "--json");
    assertThat(second.exitCode()).as(second.stderr()).isZero();
    assertThat(names(results(second))).containsExactly("divergent", "broken");
    fleet.assertSpawns(Map.of("clean", 2, "divergent", 4, "off", 0, "remote", 0, "broken", 4));
    assertThat(fleet.storedRow("clean")).isEqualTo(clean);
  }

  @Test
  void identityChangeMakesAServerDueAndItsOldRowStaysUntilOverwritten() throws Exception {
    fleet().fixture("a", "stable");
    assertThat(measure("--all").exitCode()).isZero();
    CacheRow original = fleet.storedRow("a");
    assertThat(original).isNotNull();

    // Edited args: a new identity, so due again; this measurement fails, and the old row stays.
    fleet.fixture("a", "exit-early");
    CliRun failed = measure("--all", "--json");
    assertThat(results(failed))
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.get("ran")).isEqualTo(false);
              assertThat(m.get("stored")).isEqualTo(false);
            });
    assertThat(fleet.storedRow("a")).isEqualTo(original);
    fleet.assertSpawns(Map.of("a", 4));

    // Edited again and measurable: the row is overwritten under the new identity.
    fleet.fixture("a", "stable", "--delay-ms", "1");
    CliRun measured = measure("--all", "--json");
    assertThat(names(results(measured))).containsExactly("a");
    CacheRow replaced = fleet.storedRow("a");
    assertThat(replaced.identity()).isNotEqualTo(original.identity());
    assertThat(replaced.identity())
        .isEqualTo(
            FixtureFleet.load(dir.resolve("cfg.json"), env()).serverNamed("a").first().identity());
    fleet.assertSpawns(Map.of("a", 6));

    assertThat(results(measure("--all", "--json"))).isEmpty();
    fleet.assertSpawns(Map.of("a", 6));
  }

  @Test
  void namedServerIsMeasuredDespiteACleanHitAndAFailedMeasurementKeepsItsRow() throws Exception {
    fleet().fixture("billing", "needs-env").fixture("other", "stable");
    CliRun first = measure(env("FIXTURE_TOKEN", "t"), "billing", "--json");
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    assertThat(names(results(first))).containsExactly("billing");
    CacheRow row = fleet.storedRow("billing");
    assertThat(row).isNotNull();
    fleet.assertSpawns(Map.of("billing", 2, "other", 0));

    // Same identity (the token is inherited, not declared), now failing: reported, not stored.
    CliRun again = measure(env(), "billing", "--json");
    assertThat(again.exitCode()).as(again.stderr()).isZero();
    assertThat(results(again))
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.get("ran")).isEqualTo(false);
              assertThat(m.get("stored")).isEqualTo(false);
              assertThat(m.get("reasons")).isEqualTo(List.of("preflight_unavailable"));
            });
    assertThat(fleet.storedRow("billing")).isEqualTo(row);
    fleet.assertSpawns(Map.of("billing", 4, "other", 0));

    // The clean hit is not due for --all; only the never-measured server is.
    assertThat(names(results(measure(env(), "--all", "--json")))).containsExactly("other");
    fleet.assertSpawns(Map.of("billing", 4, "other", 2));
  }

  @Test
  void namedDisabledOrRemoteServerIsRefusedAndNeverSpawned() throws Exception {
    fleet();
    disabledAndRemote();
    // docs/config.md: measure NAME refuses a server a pass would not spawn (exit 2, each reason).
    CliRun r = measure("off", "remote", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .contains("kcshare: cannot measure \"off\": it is disabled")
        .contains(
            "cannot measure \"remote\": it is not a stdio server (kcshare measures only the"
                + " servers it starts itself)");
    fleet.assertSpawns(Map.of("off", 0, "remote", 0));
    assertThat(fleet.cacheFile()).doesNotExist();
    // --all skips them quietly, as before.
    CliRun pass = measure("--all", "--json");
    assertThat(pass.exitCode()).as(pass.stderr()).isZero();
    assertThat(names(results(pass))).doesNotContain("off", "remote");
    fleet.assertSpawns(Map.of("off", 0, "remote", 0));
  }

  @Test
  void usageErrorsExitTwoWithNothingOnStdout() throws Exception {
    fleet().fixture("a", "stable");
    for (String[] args :
        List.of(
            new String[] {"nope"},
            new String[] {"--all", "a"},
            new String[] {},
            new String[] {"--all", "--jobs", "0"},
            new String[] {"--all", "--timeout", "4"},
            new String[] {"--all", "--timeout", "121"})) {
      CliRun r = measure(args);
      assertThat(r.exitCode()).as("%s: %s", List.of(args), r.stderr()).isEqualTo(2);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr()).startsWith("kcshare: ");
    }
    assertThat(measure("nope").stderr()).contains("unknown server \"nope\"");
    fleet.assertSpawns(Map.of("a", 0));
  }

  // ------------------------------------------------------------------ the lock

  @Test
  void noWaitExitsZeroWhileAnotherPassRuns() throws Exception {
    fleet().fixture("a", "stable");
    fleet.write();
    HeldCacheLock lock = HeldCacheLock.hold(fleet.cacheFile());
    try {
      CliRun json = measure("--all", "--no-wait", "--json");
      assertThat(json.exitCode()).isZero();
      assertThat(json.stdout().strip()).isEqualTo("[]");
      assertThat(json.stderr()).contains("another measure pass is running");
      CliRun human = measure("--all", "--no-wait");
      assertThat(human.exitCode()).isZero();
      assertThat(human.stdout()).isEmpty();
      assertThat(human.stderr()).contains("another measure pass is running");
    } finally {
      lock.close();
    }
    fleet.assertSpawns(Map.of("a", 0));
  }

  @Test
  void secondMeasureAllWaitsForTheFirstAndBothPassesRowsSurvive() throws Exception {
    fleet().fixture("slow", "stable", "--delay-ms", "400");
    fleet.write("first.json");
    fleet.remove("slow").fixture("quick", "stable");
    fleet.write("second.json");
    CliRun[] runs = new CliRun[2];
    Thread one =
        new Thread(
            () ->
                runs[0] =
                    CliRun.run(
                        dir,
                        "",
                        env(),
                        "measure",
                        "--all",
                        "--config",
                        "first.json",
                        "--records-dir",
                        "records",
                        "--json"));
    one.start();
    // The first pass holds the lock once its server was spawned.
    Path pids = fleet.pidDir("slow").resolve("pids");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(pids) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    CliRun second =
        CliRun.run(
            dir,
            "",
            env(),
            "measure",
            "--all",
            "--config",
            "second.json",
            "--records-dir",
            "records",
            "--json");
    one.join(30_000);
    assertThat(runs[0].exitCode()).as(runs[0].stderr()).isZero();
    assertThat(second.exitCode()).as(second.stderr()).isZero();
    assertThat(names(results(runs[0]))).containsExactly("slow");
    assertThat(names(results(second))).containsExactly("quick");
    // The waiting pass read the cache after the first flushed, so neither dropped the other's row.
    assertThat(fleet.storedCache().serverNames()).containsExactly("quick", "slow");
    assertThat(fleet.storedRow("quick").evaluatedAt())
        .isGreaterThanOrEqualTo(fleet.storedRow("slow").evaluatedAt());
  }

  // ------------------------------------------------------------------ progress and chattiness

  @Test
  void progressLineOnlyOnATerminalAndNeverWithJsonAndTheSummaryAlways() throws Exception {
    fleet().fixture("a", "stable").fixture("b", "stable");
    CliRun tty = measure(env("KCSHARE_STDERR_TTY", "1"), "--all");
    assertThat(tty.exitCode()).isZero();
    assertThat(tty.stdout()).isEmpty();
    assertThat(tty.stderr())
        .contains("measuring: 1/2 done, 1 measured")
        .contains("measuring: 2/2 done, 2 measured")
        .contains("a: handshake reproducible, stored")
        .contains("Measured 2 of 2 server(s).");

    fleet.fixture("a", "stable", "--delay-ms", "1").fixture("b", "stable", "--delay-ms", "1");
    CliRun json = measure(env("KCSHARE_STDERR_TTY", "1"), "--all", "--json");
    assertThat(json.stderr()).doesNotContain("measuring:").doesNotContain("\u001b");
    assertThat(names(results(json))).containsExactly("a", "b");

    fleet.fixture("a", "stable", "--delay-ms", "2").fixture("b", "stable", "--delay-ms", "2");
    CliRun quiet = measure(env("KCSHARE_STDERR_TTY", "0"), "--all");
    assertThat(quiet.exitCode()).isZero();
    assertThat(quiet.stdout()).isEmpty();
    assertThat(quiet.stderr())
        .as("off a terminal: the summary alone")
        .isEqualTo("Measured 2 of 2 server(s).\n");

    fleet.fixture("a", "stable", "--delay-ms", "3").fixture("b", "exit-early");
    CliRun verbose = measure(env(), "-v", "--all");
    assertThat(verbose.stderr())
        .doesNotContain("measuring:")
        .contains("b: could not run: no response")
        .contains("Measured 1 of 2 server(s); 1 could not run (not stored).");
    assertThat(fleet.storedCache().size()).isEqualTo(2);
  }

  @Test
  void verbosityCountsWhereverItIsGivenAndQuietSilencesTheTerminal() throws Exception {
    fleet().fixture("a", "stable");
    fleet.write();
    CliRun global =
        CliRun.run(
            dir,
            "",
            env(),
            "-v",
            "measure",
            "--all",
            "--config",
            "cfg.json",
            "--records-dir",
            "records");
    assertThat(global.exitCode()).as(global.stderr()).isZero();
    assertThat(global.stderr())
        .contains("a: handshake reproducible, stored")
        .contains("Measured 1 of 1");

    fleet.fixture("a", "stable", "--delay-ms", "1");
    CliRun quiet = measure(env("KCSHARE_STDERR_TTY", "1"), "-q", "--all");
    assertThat(quiet.exitCode()).isZero();
    assertThat(quiet.stderr()).isEmpty();
    fleet.assertSpawns(Map.of("a", 4));
  }

  @Test
  void aPassThatMeasuredNothingStillEndsWithItsSummary() throws Exception {
    fleet().fixture("a", "exit-early").fixture("b", "exit-early");
    CliRun r = measure(env("KCSHARE_STDERR_TTY", "1"), "--all");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stderr())
        .contains("measuring: 2/2 done, 0 measured")
        .contains("a: could not run: no response")
        .endsWith("Measured 0 of 2 server(s); 2 could not run (not stored).\n");
    assertThat(fleet.cacheFile()).doesNotExist();

    // Off a terminal, as from cron: one line says the pass ran and what it found.
    fleet.fixture("a", "stable").fixture("b", "stable");
    assertThat(measure(env(), "--all").stderr()).isEqualTo("Measured 2 of 2 server(s).\n");
    CliRun again = measure(env(), "--all", "--json");
    assertThat(again.stderr()).isEqualTo("Nothing due.\n");
    assertThat(results(again)).isEmpty();
    assertThat(measure(env(), "-q", "--all").stderr()).isEmpty();
  }

  @Test
  void serverProvidedStringsAreEscapedOnTheTerminal() throws Exception {
    fleet().fixture("evil\u001b[31m\nname", "exit-early");
    CliRun r = measure(env("KCSHARE_STDERR_TTY", "1"), "--all");
    assertThat(r.exitCode()).isZero();
    String withoutProgress = r.stderr().replace("\r\u001b[K", "");
    assertThat(withoutProgress)
        .doesNotContain("\u001b")
        .contains("evil\\x1b[31m\\nname: could not run");
    // The fixture's stderr (ANSI colours) is shown escaped too.
    assertThat(withoutProgress).contains("\\x1b[31mfixture: BRAVE_API_KEY is not set");
  }

  // ------------------------------------------------------------------ the shipped example

  @Test
  void theExampleFleetIsMeasuredAndAssessed() throws Exception {
    fleet = null; // the example's fixtures carry no tag; the descendant check still runs
    Path repo = FixtureFleet.SCRIPT.getParent().getParent().getParent();
    Path records = dir.resolve("records");
    CliRun m =
        CliRun.run(
            repo,
            "",
            env(),
            "measure",
            "--all",
            "--config",
            "examples/fleet.json",
            "--records-dir",
            records.toString(),
            "--json");
    assertThat(m.exitCode()).as(m.stderr()).isZero();
    List<Map<String, Object>> results = results(m);
    assertThat(names(results)).containsExactly("notes", "calendar", "tickets", "search", "billing");
    assertThat(result(results, "billing")).containsEntry("stored", false);

    CliRun a =
        CliRun.run(
            repo,
            "",
            env(),
            "assess",
            "--all",
            "--config",
            "examples/fleet.json",
            "--records-dir",
            records.toString(),
            "--json");
    assertThat(a.exitCode()).as(a.stderr()).isZero();
    Map<Object, Object> strengths = new LinkedHashMap<>();
    for (Object o : (List<?>) JsonReader.withDepthLimit(100).parse(a.stdout())) {
      strengths.put(((Map<?, ?>) o).get("name"), ((Map<?, ?>) o).get("strength"));
    }
    assertThat(strengths)
        .containsExactly(
            Map.entry("notes", "measured"),
            Map.entry("calendar", "declared"),
            Map.entry("tickets", "measured"),
            Map.entry("search", "no_objection"),
            Map.entry("billing", "unknown"),
            Map.entry("docs", "disqualified"),
            Map.entry("archive", "unknown"));
  }

  // ------------------------------------------------------------------ failures remembered

  @Test
  void aServerThatKeepsFailingIsRememberedBackedOffAndTriedAgainWhenAsked() throws Exception {
    MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_800_000_000L));
    fleet().fixture("needs-env", "needs-env").fixture("ok", "stable");
    CliRun first = measure(clock, env(), "--all", "--json");
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    assertThat(result(results(first), "needs-env"))
        .containsEntry("detail", "no response (process exited with status 1)")
        .containsEntry("stderrTail", "fixture: FIXTURE_TOKEN is not set\n")
        .containsEntry("exitStatus", "exit 1");
    String identity =
        FixtureFleet.load(dir.resolve("cfg.json"), env())
            .serverNamed("needs-env")
            .first()
            .identity();
    assertThat(attempts())
        .containsExactly(
            Map.entry(
                "needs-env",
                new AttemptRecord(
                    1_800_000_000.0,
                    identity,
                    "no response (process exited with status 1)",
                    "exit 1",
                    "fixture: FIXTURE_TOKEN is not set\\n",
                    1)));
    assertThat(fleet.storedCache().serverNames()).containsExactly("ok");

    clock.advance(Duration.ofMinutes(10));
    CliRun second = measure(clock, env(), "--all", "-v");
    assertThat(second.stderr())
        .contains("needs-env: could not run")
        .contains("  2 failures in a row: `measure --all` skips it for 1h");
    assertThat(attempts().get("needs-env").failures()).isEqualTo(2);
    fleet.assertSpawns(Map.of("needs-env", 4, "ok", 2));

    clock.advance(Duration.ofMinutes(59));
    CliRun skipped = measure(clock, env(), "--all", "-v");
    assertThat(skipped.exitCode()).isZero();
    assertThat(skipped.stderr())
        .contains(
            "Nothing due. Skipped 1 server(s) whose pre-flight kept failing (needs-env);"
                + " --retry-failed tries them now.\n")
        .doesNotContain("Measured");
    fleet.assertSpawns(Map.of("needs-env", 4));

    CliRun retried = measure(clock, env(), "--all", "--retry-failed", "--json");
    assertThat(names(results(retried))).containsExactly("needs-env");
    assertThat(attempts().get("needs-env").failures()).isEqualTo(3);
    fleet.assertSpawns(Map.of("needs-env", 6));

    // Named measures while the operator debugs it do not lengthen the backoff.
    AttemptRecord beforeManual = attempts().get("needs-env");
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofMinutes(1));
      assertThat(names(results(measure(clock, env(), "needs-env", "--json"))))
          .containsExactly("needs-env");
    }
    assertThat(attempts().get("needs-env")).isEqualTo(beforeManual);
    fleet.assertSpawns(Map.of("needs-env", 12));

    clock.advance(Duration.ofMinutes(57)); // 3 failures: 2 h after the last counted one
    assertThat(results(measure(clock, env(), "--all", "--json"))).isEmpty();
    clock.advance(Duration.ofHours(1));
    assertThat(names(results(measure(clock, env(), "--all", "--json"))))
        .containsExactly("needs-env");
    assertThat(attempts().get("needs-env").failures()).isEqualTo(4);
    fleet.assertSpawns(Map.of("needs-env", 14, "ok", 2));

    // The operator sets the variable (in kcshare's environment: the identity stays): a named
    // measure tries at once, succeeds, and the failures are forgotten.
    CliRun fixed = measure(clock, env("FIXTURE_TOKEN", "t0ken"), "needs-env", "--json");
    assertThat(result(results(fixed), "needs-env")).containsEntry("stored", true);
    assertThat(attempts()).isEmpty();
  }

  @Test
  void metricsDescribeEachCompletedPassOnTheCommandsClockWithoutAName() throws Exception {
    MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_800_000_000L));
    fleet().fixture("needs-env-secret-name", "needs-env").fixture("ok-inventory-name", "stable");
    Files.createDirectories(dir.resolve("textfile"));
    CliRun first = measure(clock, env(), "--all", "--metrics", "textfile/kcshare-pass.prom");
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    Path prom = dir.resolve("textfile/kcshare-pass.prom");
    // The clock stands still: the whole pass took no time on it.
    assertThat(Files.readString(prom))
        .contains("kcshare_last_pass_timestamp_seconds 1800000000.000\n")
        .contains("kcshare_last_pass_duration_seconds 0.000\n")
        .contains("kcshare_last_pass_servers_due 2\n")
        .contains("kcshare_last_pass_servers_measured 1\n")
        .contains("kcshare_last_pass_servers_could_not_run 1\n")
        .contains("kcshare_last_pass_servers_skipped_for_backoff 0\n")
        .doesNotContain("needs-env")
        .doesNotContain("inventory")
        .doesNotContain("kcshare_servers");

    clock.advance(Duration.ofMinutes(10));
    measure(clock, env(), "--all");
    clock.advance(Duration.ofMinutes(59));
    CliRun skipped = measure(clock, env(), "--all", "--metrics", "textfile/kcshare-pass.prom");
    assertThat(skipped.exitCode()).as(skipped.stderr()).isZero();
    assertThat(Files.readString(prom))
        .contains("kcshare_last_pass_timestamp_seconds 1800004140.000\n")
        .contains("kcshare_last_pass_servers_measured 0\n")
        .contains("kcshare_last_pass_servers_could_not_run 0\n")
        .contains("kcshare_last_pass_servers_skipped_for_backoff 1\n");
    fleet.assertSpawns(Map.of("needs-env-secret-name", 4, "ok-inventory-name", 2));
  }

  @Test
  void aMetricsFileThatCannotBeWrittenFailsBeforeThePassSpawnsAnything() throws Exception {
    fleet().fixture("a", "stable");
    for (String[] args :
        List.of(
            new String[] {"--all", "--metrics", "no/such/dir/kcshare-pass.prom"},
            new String[] {"a", "--json", "--metrics", "no/such/dir/kcshare-pass.prom"})) {
      CliRun r = measure(args);
      assertThat(r.exitCode()).as(r.stderr()).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr())
          .isEqualTo(
              "kcshare: cannot write metrics to "
                  + dir.resolve("no/such/dir/kcshare-pass.prom")
                  + ": "
                  + dir.resolve("no/such/dir")
                  + ": no such directory\n");
    }
    fleet.assertSpawns(Map.of("a", 0));
  }

  @Test
  void quietPrintsNothingButErrorsEvenWhenAnotherPassRuns() throws Exception {
    fleet().fixture("a", "exit-early");
    fleet.write();
    HeldCacheLock lock = HeldCacheLock.hold(fleet.cacheFile());
    try {
      CliRun quiet = measure(env("KCSHARE_STDERR_TTY", "1"), "--all", "--no-wait", "-q");
      assertThat(quiet.exitCode()).isZero();
      assertThat(quiet.stdout()).isEmpty();
      assertThat(quiet.stderr()).isEmpty();
    } finally {
      lock.close();
    }
    CliRun failing = measure(env("KCSHARE_STDERR_TTY", "1"), "-q", "--all");
    assertThat(failing.exitCode()).isZero();
    assertThat(failing.stderr()).as("a server that could not run is not an error").isEmpty();
  }

  @Test
  void waitingForAnotherPassOnATerminalSaysForWhichProcess() throws Exception {
    fleet().fixture("a", "stable");
    fleet.write();
    HeldCacheLock lock = HeldCacheLock.hold(fleet.cacheFile());
    StringWriter err = new StringWriter();
    CliRun[] run = new CliRun[1];
    Thread waiter =
        new Thread(
            () ->
                run[0] =
                    CliRun.run(
                        dir,
                        "",
                        env("KCSHARE_STDERR_TTY", "1", "TERM", "dumb"),
                        java.time.Clock.systemUTC(),
                        err,
                        "measure",
                        "--all",
                        "--config",
                        "cfg.json",
                        "--records-dir",
                        "records"));
    waiter.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!err.toString().contains("waiting for") && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(err.toString())
          .startsWith("waiting for process " + ProcessHandle.current().pid() + " (")
          .contains("to finish its pass on these records...");
      fleet.assertSpawns(Map.of("a", 0));
    } finally {
      lock.close();
      waiter.join(30_000);
    }
    assertThat(run[0].exitCode()).isZero();
    assertThat(run[0].stderr()).contains("a: handshake reproducible, stored");
  }

  @Test
  void verboseShowsHowEachServerWasStartedWithoutEnvValues() throws Exception {
    fleet().fixture("early", "exit-early");
    Map<String, Object> def = new LinkedHashMap<>();
    def.put("command", "node");
    def.put("args", fleet.args("early", "exit-early"));
    def.put("env", Map.of("API_KEY", "s3cret-value"));
    def.put("cwd", dir.toString());
    fleet.entry("early", def);
    CliRun r = measure("-v", "--all");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr())
        .contains("early: could not run: no response (process exited with status 1)")
        .containsPattern(
            "  command: \\S*/node "
                + java.util.regex.Pattern.quote(FixtureFleet.SCRIPT.toString())
                + " exit-early ")
        .contains("  env: API_KEY declared (values not shown), over kcshare's own environment")
        .contains("  working directory: " + dir)
        .containsPattern(
            "  A: spawn " + T + " -> initialize - -> exit " + T + "; exit 1; failed: no response")
        .containsPattern(
            "  B: spawn " + T + " -> initialize - -> exit " + T + "; exit 1; failed: no response")
        .doesNotContain("s3cret-value");

    fleet.fixture("early", "stable");
    CliRun ok = measure("-v", "--all");
    assertThat(ok.stderr())
        .contains("early: handshake reproducible, stored")
        .containsPattern(
            "  A: spawn "
                + T
                + " -> initialize "
                + T
                + " -> tools/list "
                + T
                + " -> exit "
                + T
                + "; exit 0;"
                + " answered")
        .contains("  env: none declared (kcshare's own environment)");
  }

  @Test
  void aTimeoutInABusyPassIsRetriedAloneWithTwiceTheTimeoutAndCounted() throws Exception {
    Path state = Files.createDirectories(dir.resolve("slow-state"));
    fleet()
        .fixture("slow", "stable", "--slow-first-ms", "7000", "--state", state.toString())
        .fixture("quick", "stable");
    CliRun r =
        measure(
            env("KCSHARE_STDERR_TTY", "1", "TERM", "dumb"),
            "--all",
            "--timeout",
            "5",
            "--jobs",
            "4");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr())
        .contains(
            "slow: timed out while other servers were measured; trying it again alone with a 10 s"
                + " timeout")
        .contains("slow: handshake reproducible, stored")
        .contains("Measured 2 of 2 server(s); 1 retried alone after timing out.")
        .doesNotContain("could not run");
    fleet.assertSpawns(Map.of("slow", 4, "quick", 2));
    assertThat(fleet.storedCache().serverNames()).containsExactly("quick", "slow");
    assertThat(attempts()).isEmpty();
  }

  @Test
  void aDumbTerminalOrNoColorGetsWholeLinesAndNoControlCodes() throws Exception {
    fleet().fixture("a", "stable").fixture("b", "exit-early");
    for (Map<String, String> env :
        List.of(
            env("KCSHARE_STDERR_TTY", "1", "TERM", "dumb"),
            env("KCSHARE_STDERR_TTY", "1", "NO_COLOR", "1"))) {
      fleet.fixture("a", "stable", "--delay-ms", Integer.toString(env.hashCode() & 0xff));
      CliRun r = measure(env, "--all");
      assertThat(r.exitCode()).isZero();
      assertThat(r.stderr())
          .contains("a: handshake reproducible, stored\n")
          .contains("b: could not run: no response")
          .doesNotContain("\u001b")
          .doesNotContain("\r")
          .doesNotContain("measuring:");
    }
  }

  @Test
  void theDefaultJobsFollowTheCpuCount() throws Exception {
    fleet().fixture("a", "stable");
    CliRun help = CliRun.run(dir, "", env(), "measure", "--help");
    int expected =
        dev.kcshare.core.policy.internal.Selection.defaultProcessCeiling(
            Runtime.getRuntime().availableProcessors());
    assertThat(help.stdout().replaceAll("\\s+", " "))
        .contains("one per CPU, from 2 to 8; " + expected + " here");
  }
}
