package dev.kcshare.host.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.prober.TestProbers;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.HeldCacheLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

/**
 * Evaluation passes against real fixture servers (docs/design.md#evaluation-passes,
 * docs/design.md#version-re-check): what is due, what is stored, the lock, progress, the version
 * re-check, failure isolation and cancellation. Tests run one at a time and in isolation from every
 * other test class, so that no process of this JVM may outlive any of them.
 */
@Isolated
final class EvaluationRunnerTest {
  private static final double T1 = 1_800_000_000.25;
  private static final double T2 = 1_800_000_100.5;

  @TempDir Path dir;
  private FixtureFleet fleet;
  private final AtomicReference<Double> now = new AtomicReference<>(T1);
  private final DoubleSupplier clock = () -> now.get();

  @BeforeAll
  static void requireNode() {
    FixtureFleet.assumeNode();
  }

  @AfterEach
  void nothingOutlivesTheTest() throws Exception {
    if (fleet != null) {
      fleet.assertAllGone();
    }
    FixtureFleet.assertNoDescendantRuns();
  }

  private FixtureFleet fleet() {
    fleet = new FixtureFleet(dir);
    return fleet;
  }

  private EvaluationRunner runner() {
    return runner(TestProbers.prober(System.getenv(), dir, 15, 8));
  }

  private EvaluationRunner runner(StdioProber prober) {
    return new EvaluationRunner(prober, 4, clock);
  }

  private PassResult pass(PassOptions options) throws Exception {
    return pass(runner(), options, p -> {});
  }

  private PassResult pass(
      EvaluationRunner runner, PassOptions options, PassProgress.Listener listener)
      throws Exception {
    return runner.run(fleet.servers(), fleet.cacheFile(), options, listener);
  }

  private static Map<String, PreflightResult> fresh(PassResult r) {
    Map<String, PreflightResult> out = new LinkedHashMap<>();
    for (PassResult.Measured s : r.fresh()) {
      out.put(s.name(), s.result());
    }
    return out;
  }

  private static Map<String, Boolean> storedFlags(PassResult r) {
    Map<String, Boolean> out = new HashMap<>();
    for (PassResult.Measured s : r.fresh()) {
      out.put(s.name(), s.stored());
    }
    return out;
  }

  private static String identity(List<ConfiguredServer> servers, String name) {
    for (ConfiguredServer s : servers) {
      if (s.name().equals(name)) {
        return s.first().identity();
      }
    }
    throw new AssertionError("no server " + name);
  }

  /** Writes rows for the given servers under their current identities, as a finished pass would. */
  private void seed(Map<String, Boolean> callerSensitive) throws Exception {
    List<ConfiguredServer> servers = fleet.servers();
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      for (Map.Entry<String, Boolean> e : callerSensitive.entrySet()) {
        s.cache().put(e.getKey(), row(identity(servers, e.getKey()), e.getValue(), "1.2.3"));
      }
      s.flush();
    }
  }

  private static CacheRow row(String identity, boolean sensitive, String version) {
    return new CacheRow(
        true,
        sensitive,
        sensitive ? List.of(PreflightResult.HANDSHAKE_NOT_REPRODUCIBLE) : List.of(),
        42.0,
        identity,
        version,
        Era.LEGACY,
        null);
  }

  // ------------------------------------------------------------------ rows and counters

  @Test
  void uncappedPassStoresEveryRanResultWithItsIdentityVersionEraHandshakeAndClock()
      throws Exception {
    fleet()
        .fixture("clean", "stable", "--version", "2.0.1", "--name", "clean-server")
        .fixture("divergent", "sensitive-tools")
        .fixture("modern", "modern-only", "--version", "7.0.0")
        .fixture("broken", "exit-early");
    List<PassProgress> reports = Collections.synchronizedList(new ArrayList<>());
    PassResult r = pass(runner(), PassOptions.uncapped(), reports::add);

    assertThat(r.outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(fresh(r)).containsOnlyKeys("clean", "divergent", "modern", "broken");
    assertThat(storedFlags(r))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("clean", true, "divergent", true, "modern", true, "broken", false));
    assertThat(fresh(r).get("broken").detail())
        .isEqualTo("no response (process exited with status 1)");
    assertThat(r.stored()).isEmpty();
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 4, 3, 4));
    assertThat(reports).extracting(PassProgress::done).containsExactly(1, 2, 3, 4, 4);
    assertThat(reports.subList(0, 4)).allMatch(PassProgress::running);
    assertThat(reports.get(4).running()).isFalse();
    assertThat(reports).extracting(PassProgress::total).containsOnly(4);

    List<ConfiguredServer> servers = fleet.servers();
    CacheRow clean = fleet.storedRow("clean");
    assertThat(clean).isNotNull();
    assertThat(clean.ran()).isTrue();
    assertThat(clean.callerSensitive()).isFalse();
    assertThat(clean.reasons()).isEmpty();
    assertThat(clean.evaluatedAt()).isEqualTo(T1);
    assertThat(clean.identity()).isEqualTo(identity(servers, "clean"));
    assertThat(clean.reportedVersion()).isEqualTo("2.0.1");
    assertThat(clean.era()).isEqualTo(Era.LEGACY);
    assertThat(clean.handshake()).isNotNull();
    assertThat(clean.handshake().serverInfo().get("name")).isEqualTo("clean-server");
    assertThat(clean.handshake().serverInfo().get("version")).isEqualTo("2.0.1");
    assertThat(clean.handshake().protocolVersion()).isEqualTo("2024-11-05");
    assertThat(clean.handshake().hasTools()).isTrue();

    CacheRow divergent = fleet.storedRow("divergent");
    assertThat(divergent.callerSensitive()).isTrue();
    assertThat(divergent.reasons()).containsExactly(PreflightResult.HANDSHAKE_NOT_REPRODUCIBLE);
    assertThat(divergent.identity()).isEqualTo(identity(servers, "divergent"));

    CacheRow modern = fleet.storedRow("modern");
    assertThat(modern.era()).isEqualTo(Era.MODERN);
    assertThat(modern.reportedVersion()).isEqualTo("7.0.0");

    assertThat(fleet.storedRow("broken")).isNull();
    assertThat(fleet.storedCache().size()).isEqualTo(3);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fleet.cacheFile())))
        .isEqualTo("rw-------");
  }

  @Test
  void passWhereNothingCouldRunCountsEveryAttemptAndMeasuresNothingAndWritesNoFile()
      throws Exception {
    fleet().fixture("a", "exit-early").fixture("b", "exit-early");
    List<PassProgress> reports = Collections.synchronizedList(new ArrayList<>());
    PassResult r = pass(runner(), PassOptions.uncapped(), reports::add);
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 2, 0, 2));
    assertThat(reports)
        .containsExactly(
            new Results.PassProgress(true, 1, 0, 2),
            new Results.PassProgress(true, 2, 0, 2),
            new Results.PassProgress(false, 2, 0, 2));
    assertThat(fleet.cacheFile()).doesNotExist();
  }

  @Test
  void failingProgressListenerIsIgnored() throws Exception {
    fleet().fixture("a", "stable").fixture("b", "stable");
    AtomicInteger calls = new AtomicInteger();
    PassResult r =
        pass(
            runner(),
            PassOptions.uncapped(),
            p -> {
              calls.incrementAndGet();
              throw new IllegalStateException("listener broke");
            });
    assertThat(calls).hasValue(3);
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 2, 2, 2));
    assertThat(fleet.storedCache().serverNames()).containsExactly("a", "b");
  }

  // ------------------------------------------------------------------ what is due

  @Test
  void budgetedPassMeasuresNeverMeasuredFirstThenDivergentInConfigOrder() throws Exception {
    // The spec's example: a clean hit, b no row, c divergent hit, d disabled, e no row.
    fleet().fixture("a", "stable").fixture("b", "stable").fixture("c", "sensitive-tools");
    Map<String, Object> disabled = new LinkedHashMap<>();
    disabled.put("command", "node");
    disabled.put("args", fleet.args("d", "stable"));
    disabled.put("disabled", true);
    fleet.entry("d", disabled).fixture("e", "stable");
    seed(Map.of("a", false, "c", true));
    String before = Files.readString(fleet.cacheFile());
    assertThat(before).contains("\"a\"").contains("\"c\"");

    PassResult r = pass(PassOptions.budgeted(2));
    assertThat(r.outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(fresh(r)).containsOnlyKeys("b", "e");
    assertThat(r.stored()).containsOnlyKeys("a", "c");
    assertThat(new ArrayList<>(r.stored().keySet())).containsExactly("a", "c");
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 2, 2, 2));
    fleet.assertSpawns(Map.of("a", 0, "b", 2, "c", 0, "d", 0, "e", 2));

    // Now nothing is never-measured: the divergent c is due, a and the fresh b, e are done.
    PassResult again = pass(PassOptions.budgeted(2));
    assertThat(fresh(again)).containsOnlyKeys("c");
    assertThat(again.stored()).containsOnlyKeys("a", "b", "c", "e");
    fleet.assertSpawns(Map.of("a", 0, "b", 2, "c", 2, "d", 0, "e", 2));
  }

  @Test
  void budgetOfOneTakesTheFirstNeverMeasuredInConfigOrder() throws Exception {
    fleet().fixture("a", "sensitive-tools").fixture("b", "stable").fixture("c", "stable");
    seed(Map.of("a", true));
    PassResult r = pass(PassOptions.budgeted(1));
    assertThat(fresh(r)).containsOnlyKeys("b");
    fleet.assertSpawns(Map.of("a", 0, "b", 2, "c", 0));
  }

  @Test
  void uncappedPassMeasuresEveryCandidateButNeverADisabledOrCommandlessServer() throws Exception {
    fleet().fixture("a", "stable").fixture("b", "stable").fixture("c", "sensitive-tools");
    Map<String, Object> disabled = new LinkedHashMap<>();
    disabled.put("command", "node");
    disabled.put("args", fleet.args("d", "stable"));
    disabled.put("disabled", true);
    fleet.entry("d", disabled);
    Map<String, Object> remote = new LinkedHashMap<>();
    remote.put("type", "http");
    remote.put("url", "https://remote.example.invalid/mcp");
    remote.put("command", "node"); // a url server is never spawned, whatever else it carries
    remote.put("args", fleet.args("r", "stable"));
    fleet.entry("r", remote);
    fleet.fixture("e", "stable");
    seed(Map.of("a", false, "c", true));
    PassResult r = pass(PassOptions.uncapped());
    assertThat(fresh(r)).containsOnlyKeys("b", "e", "c");
    fleet.assertSpawns(Map.of("a", 0, "b", 2, "c", 2, "d", 0, "r", 0, "e", 2));
  }

  @Test
  void forcedPassNeverSpawnsADisabledOrCommandlessServerButReportsIt() throws Exception {
    fleet().fixture("a", "stable");
    Map<String, Object> disabled = new LinkedHashMap<>();
    disabled.put("command", "node");
    disabled.put("args", fleet.args("d", "stable"));
    disabled.put("disabled", true);
    fleet.entry("d", disabled);
    Map<String, Object> remote = new LinkedHashMap<>();
    remote.put("type", "http");
    remote.put("url", "https://remote.example.invalid/mcp");
    remote.put("command", "node");
    remote.put("args", fleet.args("r", "stable"));
    fleet.entry("r", remote);
    seed(Map.of("a", false));
    PassResult r = pass(PassOptions.named());
    assertThat(fresh(r)).containsOnlyKeys("a", "d", "r");
    assertThat(fresh(r).get("a").ran()).isTrue();
    assertThat(fresh(r).get("d").ran()).isFalse();
    assertThat(fresh(r).get("d").detail()).isEqualTo("disabled");
    assertThat(fresh(r).get("r").ran()).isFalse();
    assertThat(fresh(r).get("r").detail()).isEqualTo("no command");
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 3, 1, 3));
    fleet.assertSpawns(Map.of("a", 2, "d", 0, "r", 0));
    assertThat(fleet.storedCache().serverNames()).containsExactly("a");
    assertThat(fleet.storedRow("a").evaluatedAt()).isEqualTo(T1);
  }

  // ------------------------------------------------------------------ one pass at a time

  @Test
  void budgetedPassYieldsToARunningPassAndServesStoredRowsByName() throws Exception {
    fleet().fixture("a", "stable").fixture("b", "stable").fixture("c", "stable");
    seed(Map.of("a", false));
    // b's row was measured under another identity: read BY NAME it is still served.
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      s.cache().put("b", row("other-identity\u00002", true, "0.1"));
      s.flush();
    }
    List<ConfiguredServer> servers = fleet.servers();
    HeldCacheLock lock = HeldCacheLock.hold(fleet.cacheFile());
    try {
      List<PassProgress> reports = new ArrayList<>();
      PassResult r =
          runner().run(servers, fleet.cacheFile(), PassOptions.budgeted(2), reports::add);
      assertThat(r.outcome()).isEqualTo(PassResult.Outcome.YIELDED);
      assertThat(r.fresh()).isEmpty();
      assertThat(r.stored()).containsOnlyKeys("a", "b");
      assertThat(r.stored().get("b").identity()).isEqualTo("other-identity\u00002");
      assertThat(r.progress().measured()).isZero();

      PassResult busy =
          runner()
              .run(
                  servers,
                  fleet.cacheFile(),
                  PassOptions.uncapped().waitForLock(false),
                  reports::add);
      assertThat(busy.outcome()).isEqualTo(PassResult.Outcome.BUSY);
      assertThat(busy.fresh()).isEmpty();
      assertThat(busy.stored()).isEmpty();
      assertThat(reports).isEmpty();
    } finally {
      lock.close();
    }
    fleet.assertSpawns(Map.of("a", 0, "b", 0, "c", 0));
  }

  @Test
  void budgetedPassOnTheThreadThatHoldsTheLockYieldsInsteadOfFailing() throws Exception {
    fleet().fixture("a", "stable");
    seed(Map.of("a", false));
    List<ConfiguredServer> servers = fleet.servers();
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      PassResult r = runner().run(servers, fleet.cacheFile(), PassOptions.budgeted(2), p -> {});
      assertThat(r.outcome()).isEqualTo(PassResult.Outcome.YIELDED);
      assertThat(r.stored()).containsOnlyKeys("a");
      PassResult busy =
          runner()
              .run(servers, fleet.cacheFile(), PassOptions.uncapped().waitForLock(false), p -> {});
      assertThat(busy.outcome()).isEqualTo(PassResult.Outcome.BUSY);
    }
    fleet.assertSpawns(Map.of("a", 0));
  }

  @Test
  void waitingPassRunsAfterTheRunningOneAndBothPassesRowsSurvive() throws Exception {
    fleet().fixture("slow", "stable", "--delay-ms", "400");
    Path first = fleet.write("first.json");
    List<ConfiguredServer> firstServers = FixtureFleet.load(first, System.getenv()).servers();
    fleet.remove("slow").fixture("quick", "stable");
    List<ConfiguredServer> secondServers = fleet.servers();

    List<String> events = Collections.synchronizedList(new ArrayList<>());
    AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
    Thread one =
        new Thread(
            () -> {
              try {
                runner()
                    .run(
                        firstServers,
                        fleet.cacheFile(),
                        PassOptions.uncapped(),
                        p -> events.add("first " + (p.running() ? "progress" : "end")));
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    one.start();
    // The first pass holds the lock once its server was spawned.
    awaitFile(fleet.pidDir("slow").resolve("pids"));
    Thread two =
        new Thread(
            () -> {
              try {
                runner()
                    .run(
                        secondServers,
                        fleet.cacheFile(),
                        PassOptions.uncapped(),
                        p -> events.add("second " + (p.running() ? "progress" : "end")));
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    two.start();
    one.join(30_000);
    two.join(30_000);
    assertThat(failure.get()).isNull();
    assertThat(events)
        .containsExactly("first progress", "first end", "second progress", "second end");
    assertThat(fleet.storedCache().serverNames()).containsExactly("quick", "slow");
  }

  private static void awaitFile(Path file) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(file)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never appeared: " + file);
      }
      Thread.sleep(10);
    }
  }

  // ------------------------------------------------------------------ version re-check

  /**
   * A server launched through a wrapper named {@code npx} (runtime-resolved): it runs the fixture
   * in the mode written in {@code mode}, with the version written in {@code version} and the extra
   * flags written in {@code extra}, so a test changes what the server reports without changing its
   * execution identity.
   */
  private Map<String, String> npxServer(String name) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path npx = bin.resolve("npx");
    String control = dir.resolve("control").toString();
    Files.createDirectories(dir.resolve("control"));
    control(name, "stable", "1.0.0", "");
    String script =
        "#!/bin/sh\n"
            + "c='"
            + control
            + "'\n"
            + "exec node '"
            + FixtureFleet.SCRIPT
            + "' \"$(cat \"$c/mode\")\" --version \"$(cat \"$c/version\")\" $(cat \"$c/extra\")"
            + " "
            + String.join(
                " ", fleet.args(name, "x").subList(2, 6).stream().map(a -> "'" + a + "'").toList())
            + "\n";
    Files.writeString(npx, script, StandardCharsets.UTF_8);
    npx.toFile().setExecutable(true);
    Map<String, Object> def = new LinkedHashMap<>();
    def.put("command", "npx");
    def.put("args", List.of("-y", "fixture-server@latest"));
    fleet.entry(name, def);
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("PATH", bin + ":" + System.getenv("PATH"));
    return env;
  }

  private void control(String name, String mode, String version, String extra) throws Exception {
    Path c = dir.resolve("control");
    Files.writeString(c.resolve("mode"), mode);
    Files.writeString(c.resolve("version"), version);
    Files.writeString(c.resolve("extra"), extra);
  }

  private PassResult pass(Map<String, String> env, PassOptions options) throws Exception {
    List<ConfiguredServer> servers = FixtureFleet.load(fleet.write(), env).servers();
    return new EvaluationRunner(TestProbers.prober(env, dir, 15, 8), 4, clock)
        .run(servers, fleet.cacheFile(), options, p -> {});
  }

  @Test
  void runtimeResolvedServerIsRecheckedOnceAndReMeasuredWhenItsVersionChanged() throws Exception {
    fleet().fixture("plain", "stable");
    Map<String, String> env = npxServer("rr");
    ListAppender<ILoggingEvent> logs = captureRunnerLog();
    try {
      // Pass 1: never measured, so measured (2 spawns); no re-check without a stored hit.
      PassResult first = pass(env, PassOptions.uncapped());
      assertThat(fresh(first)).containsOnlyKeys("plain", "rr");
      fleet.assertSpawns(Map.of("plain", 2, "rr", 2));
      CacheRow measured = fleet.storedRow("rr");
      assertThat(measured.reportedVersion()).isEqualTo("1.0.0");
      assertThat(measured.handshake().toolAnnotations()).hasSize(1);

      // Pass 2: same version, a different handshake: one spawn, row kept, handshake refreshed.
      now.set(T2);
      control("rr", "stable", "1.0.0", "--read-only 1");
      PassResult second = pass(env, PassOptions.uncapped());
      assertThat(second.fresh()).isEmpty();
      assertThat(second.stored()).containsOnlyKeys("plain", "rr");
      fleet.assertSpawns(Map.of("plain", 2, "rr", 3));
      CacheRow refreshed = fleet.storedRow("rr");
      assertThat(refreshed.evaluatedAt()).isEqualTo(T1);
      assertThat(refreshed.reportedVersion()).isEqualTo("1.0.0");
      assertThat(refreshed.handshake().toolAnnotations()).hasSize(2);

      // A budgeted pass never re-checks, whatever the server would report now.
      control("rr", "stable", "2.0.0", "");
      PassResult budgeted = pass(env, PassOptions.budgeted(2));
      assertThat(budgeted.fresh()).isEmpty();
      fleet.assertSpawns(Map.of("plain", 2, "rr", 3));
      assertThat(fleet.storedRow("rr").reportedVersion()).isEqualTo("1.0.0");
      assertThat(logs.list).isEmpty();

      // Pass 3: the version changed: one re-check spawn, the row dropped, re-measured now.
      PassResult third = pass(env, PassOptions.uncapped());
      assertThat(fresh(third)).containsOnlyKeys("rr");
      assertThat(third.stored()).containsOnlyKeys("plain");
      fleet.assertSpawns(Map.of("plain", 2, "rr", 6));
      CacheRow remeasured = fleet.storedRow("rr");
      assertThat(remeasured.reportedVersion()).isEqualTo("2.0.0");
      assertThat(remeasured.evaluatedAt()).isEqualTo(T2);
      assertThat(logs.list)
          .extracting(ILoggingEvent::getLevel, ILoggingEvent::getFormattedMessage)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(
                  Level.INFO,
                  "dropping verdict row \"rr\": reported version changed \"1.0.0\" -> \"2.0.0\""));

      // Pass 4: the re-check fails: nothing changes (an absent answer is no information).
      control("rr", "exit-early", "3.0.0", "");
      PassResult fourth = pass(env, PassOptions.uncapped());
      assertThat(fourth.fresh()).isEmpty();
      fleet.assertSpawns(Map.of("plain", 2, "rr", 7));
      assertThat(fleet.storedRow("rr")).isEqualTo(remeasured);
    } finally {
      releaseRunnerLog(logs);
    }
  }

  @Test
  void recheckWithAnUnknownStoredVersionRefreshesTheHandshake() throws Exception {
    fleet();
    Map<String, String> env = npxServer("rr");
    List<ConfiguredServer> servers = FixtureFleet.load(fleet.write(), env).servers();
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      s.cache().put("rr", row(identity(servers, "rr"), false, ""));
      s.flush();
    }
    PassResult r = pass(env, PassOptions.uncapped());
    assertThat(r.fresh()).isEmpty();
    fleet.assertSpawns(Map.of("rr", 1));
    CacheRow row = fleet.storedRow("rr");
    assertThat(row.evaluatedAt()).isEqualTo(42.0);
    assertThat(row.handshake()).isNotNull();
    assertThat(row.handshake().serverInfo().get("version")).isEqualTo("1.0.0");
  }

  @Test
  void aMeasuredRowCarriesTheSessionCostOfTheServersTree() throws Exception {
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/smaps_rollup")), "no /proc");
    fleet().fixture("plain", "stable").fixture("wrapped", "stable", "--fork", "1");
    pass(runner(), PassOptions.uncapped(), p -> {});
    SessionCost plain = fleet.storedRow("plain").cost();
    SessionCost wrapped = fleet.storedRow("wrapped").cost();
    assertThat(plain).isNotNull();
    assertThat(plain.processes()).hasValue(1);
    assertThat(plain.rssBytes().orElse(0)).isGreaterThan(1L << 20);
    assertThat(plain.pssBytes().orElse(Long.MAX_VALUE))
        .isLessThanOrEqualTo(plain.rssBytes().orElse(0));
    assertThat(plain.readyMillis()).isPresent();
    assertThat(plain.cpuMillis()).isPresent();
    assertThat(wrapped).isNotNull();
    assertThat(wrapped.processes()).hasValue(2);
  }

  @Test
  void theVersionRecheckKeepsTheStoredCost() throws Exception {
    fleet();
    Map<String, String> env = npxServer("rr");
    List<ConfiguredServer> servers = FixtureFleet.load(fleet.write(), env).servers();
    SessionCost stored = SessionCost.of(1234, 1000, 3, 50, 40);
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      s.cache().put("rr", row(identity(servers, "rr"), false, "").withCost(stored));
      s.flush();
    }
    PassResult r = pass(env, PassOptions.uncapped());
    assertThat(r.fresh()).isEmpty();
    fleet.assertSpawns(Map.of("rr", 1));
    CacheRow row = fleet.storedRow("rr");
    assertThat(row.handshake()).isNotNull();
    assertThat(row.cost()).isEqualTo(stored);
  }

  private static ListAppender<ILoggingEvent> captureRunnerLog() {
    Logger logger = (Logger) LoggerFactory.getLogger(EvaluationRunner.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.INFO);
    return appender;
  }

  private static void releaseRunnerLog(ListAppender<ILoggingEvent> appender) {
    Logger logger = (Logger) LoggerFactory.getLogger(EvaluationRunner.class);
    logger.detachAppender(appender);
    logger.setLevel(null);
  }

  // ------------------------------------------------------------------ failure isolation

  @Test
  void unexpectedPreflightFailureIsPreflightErrorForThatServerAndThePassGoesOn() throws Exception {
    fleet().fixture("a", "stable").fixture("boom", "stable").fixture("c", "stable");
    StdioProber prober =
        TestProbers.failingFor(System.getenv(), dir, "boom", StackOverflowError::new);
    PassResult r = pass(runner(prober), PassOptions.uncapped(), p -> {});
    assertThat(fresh(r).get("boom").ran()).isFalse();
    assertThat(fresh(r).get("boom").detail()).isEqualTo(PreflightResult.PREFLIGHT_ERROR);
    assertThat(storedFlags(r)).containsEntry("boom", false);
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 3, 2, 3));
    assertThat(fleet.storedCache().serverNames()).containsExactly("a", "c");
    fleet.assertSpawns(Map.of("a", 2, "boom", 0, "c", 2));
  }

  @Test
  void failureBuildingOneServersRowIsPreflightErrorForThatServerOnly() throws Exception {
    fleet().fixture("a", "stable").fixture("b", "stable").fixture("c", "stable");
    AtomicInteger calls = new AtomicInteger();
    DoubleSupplier failingOnce =
        () -> {
          if (calls.getAndIncrement() == 0) {
            throw new IllegalStateException("clock broke");
          }
          return T2;
        };
    EvaluationRunner runner =
        new EvaluationRunner(TestProbers.prober(System.getenv(), dir, 15, 8), 4, failingOnce);
    PassResult r = pass(runner, PassOptions.uncapped(), p -> {});
    assertThat(r.outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(r.fresh()).hasSize(3);
    List<PassResult.Measured> failed = r.fresh().stream().filter(s -> !s.result().ran()).toList();
    assertThat(failed).hasSize(1);
    assertThat(failed.get(0).result().detail()).isEqualTo(PreflightResult.PREFLIGHT_ERROR);
    assertThat(failed.get(0).stored()).isFalse();
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 3, 2, 3));
    assertThat(fleet.storedCache().size()).isEqualTo(2);
    assertThat(fleet.storedRow(failed.get(0).name())).isNull();
  }

  // ------------------------------------------------------------------ cancellation

  @Test
  void interruptionFlushesWhatWasMeasuredTearsDownAndPropagates() throws Exception {
    fleet().fixture("silent", "silent").fixture("quick", "stable");
    List<ConfiguredServer> servers = fleet.servers();
    CountDownLatch quickDone = new CountDownLatch(1);
    AtomicReference<@Nullable Throwable> thrown = new AtomicReference<>();
    Thread pass =
        new Thread(
            () -> {
              try {
                new EvaluationRunner(TestProbers.prober(System.getenv(), dir, 60, 8), 4, clock)
                    .run(
                        servers,
                        fleet.cacheFile(),
                        PassOptions.uncapped(),
                        p -> {
                          if (p.measured() == 1) {
                            quickDone.countDown();
                          }
                        });
                thrown.set(new AssertionError("the pass was not interrupted"));
              } catch (Throwable t) {
                thrown.set(t);
              }
            });
    pass.start();
    assertThat(quickDone.await(30, TimeUnit.SECONDS)).isTrue();
    awaitLines(fleet.pidDir("silent").resolve("pids"), 2);
    pass.interrupt();
    pass.join(30_000);
    assertThat(pass.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    // Already torn down when the pass returned: checked at once, not after a grace period.
    fleet.assertAllGone();
    FixtureFleet.assertNoDescendantRuns();
    assertThat(fleet.storedCache().serverNames()).containsExactly("quick");
    assertThat(fleet.storedRow("quick").evaluatedAt()).isEqualTo(T1);
  }

  @Test
  void interruptionDuringTheVersionRecheckTearsDownAndPropagates() throws Exception {
    fleet();
    Map<String, String> env = npxServer("rr");
    List<ConfiguredServer> servers = FixtureFleet.load(fleet.write(), env).servers();
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      s.cache().put("rr", row(identity(servers, "rr"), false, "1.0.0"));
      s.flush();
    }
    control("rr", "silent", "1.0.0", "");
    AtomicReference<@Nullable Throwable> thrown = new AtomicReference<>();
    Thread pass =
        new Thread(
            () -> {
              try {
                new EvaluationRunner(TestProbers.prober(env, dir, 60, 8), 4, clock)
                    .run(servers, fleet.cacheFile(), PassOptions.uncapped(), p -> {});
                thrown.set(new AssertionError("the pass was not interrupted"));
              } catch (Throwable t) {
                thrown.set(t);
              }
            });
    pass.start();
    awaitLines(fleet.pidDir("rr").resolve("pids"), 1);
    pass.interrupt();
    pass.join(30_000);
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    fleet.assertAllGone();
    FixtureFleet.assertNoDescendantRuns();
    assertThat(fleet.storedRow("rr")).isNotNull();
  }

  private static void awaitLines(Path file, int lines) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(file) || Files.readAllLines(file).size() < lines) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("fewer than " + lines + " lines in " + file);
      }
      Thread.sleep(10);
    }
  }

  @Test
  void runnerRejectsNoWorkers() {
    assertThatThrownBy(
            () -> new EvaluationRunner(TestProbers.prober(Map.of(), dir, 5, 1), 0, clock))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
