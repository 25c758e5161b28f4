package dev.kcshare.host.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.host.records.AttemptStore;
import dev.kcshare.host.records.HeldCacheLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a pass remembers of pre-flights that could not run, how it backs off from servers that keep
 * failing, and the end-of-pass retry of a timeout, with a prober that spawns nothing and a clock
 * the test sets.
 */
final class PassAttemptsTest {
  private static final double T = 1_800_000_000.0;
  private static final double HOUR = 3600;

  @TempDir Path dir;
  private final AtomicReference<Double> now = new AtomicReference<>(T);
  private FixtureFleet fleet;
  private FakePreflights prober = new FakePreflights(Duration.ofSeconds(15));

  private FixtureFleet fleet(String... names) {
    fleet = new FixtureFleet(dir);
    for (String name : names) {
      fleet.fixture(name, "stable");
    }
    return fleet;
  }

  private PassResult pass(PassOptions options) throws Exception {
    return pass(options, p -> {});
  }

  private PassResult pass(PassOptions options, PassProgress.Listener listener) throws Exception {
    return new EvaluationRunner(prober, 4, now::get)
        .run(fleet.servers(), fleet.cacheFile(), options, listener);
  }

  private Path attemptsFile() {
    return fleet.records().resolve("kcshare-attempts.json");
  }

  private Map<String, AttemptRecord> attempts() {
    return AttemptStore.read(attemptsFile()).servers();
  }

  private String identity(String name) throws Exception {
    for (ConfiguredServer s : fleet.servers()) {
      if (s.name().equals(name)) {
        return s.first().identity();
      }
    }
    throw new AssertionError(name);
  }

  private static PassResult.Measured result(PassResult r, String name) {
    return r.fresh().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  // ------------------------------------------------------------------ remembering

  @Test
  void aFailureIsRememberedWithItsDiagnosticsAndNoCacheRow() throws Exception {
    fleet("needs-env", "ok");
    prober
        .answer("needs-env", FakePreflights::missingVariable)
        .answer("ok", FakePreflights::measured);
    PassResult r = pass(PassOptions.uncapped());

    assertThat(fleet.storedCache().serverNames()).containsExactly("ok");
    assertThat(attempts()).containsOnlyKeys("needs-env");
    AttemptRecord a = attempts().get("needs-env");
    assertThat(a)
        .isEqualTo(
            new AttemptRecord(
                T,
                identity("needs-env"),
                "no response (process exited with status 1)",
                "exit 1",
                "fixture: FIXTURE_TOKEN is not set\\n",
                1));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(attemptsFile())))
        .isEqualTo("rw-------");
    PassResult.Measured failed = result(r, "needs-env");
    assertThat(failed.failuresInARow()).isEqualTo(a.failures());
    assertThat(failed.exitStatus()).isEqualTo("exit 1");
    assertThat(failed.stderrTail()).isEqualTo("fixture: FIXTURE_TOKEN is not set\\n");
    assertThat(failed.processes()).hasSize(2);
    assertThat(failed.launch())
        .isEqualTo(
            new Results.Launch(
                FakePreflights.LAUNCH.commandLine(),
                FakePreflights.LAUNCH.declaredEnvNames(),
                FakePreflights.LAUNCH.directory()));
    assertThat(result(r, "ok").failuresInARow()).isZero();
    assertThat(result(r, "ok").stderrTail()).isEmpty();
  }

  @Test
  void consecutiveFailuresAreCountedAndASuccessForgetsThem() throws Exception {
    fleet("flaky");
    prober.answer(
        "flaky",
        FakePreflights::missingVariable,
        FakePreflights::missingVariable,
        FakePreflights::measured);
    pass(PassOptions.uncapped());
    now.set(T + 60);
    pass(PassOptions.uncapped());
    assertThat(attempts().get("flaky").failures()).isEqualTo(2);
    assertThat(attempts().get("flaky").at()).isEqualTo(T + 60);
    now.set(T + 120);
    pass(PassOptions.named());
    assertThat(attempts()).isEmpty();
    assertThat(fleet.storedRow("flaky")).isNotNull();
  }

  @Test
  void aChangedIdentityStartsCountingAgain() throws Exception {
    fleet("s");
    prober.answer("s", FakePreflights::missingVariable);
    pass(PassOptions.uncapped());
    pass(PassOptions.uncapped());
    assertThat(attempts().get("s").failures()).isEqualTo(2);
    fleet.fixture("s", "stable", "--delay-ms", "1"); // edited args: another identity
    pass(PassOptions.uncapped());
    assertThat(attempts().get("s").failures()).isEqualTo(1);
    assertThat(attempts().get("s").identity()).isEqualTo(identity("s"));
  }

  @Test
  void refusedServersLeaveNothingBehind() throws Exception {
    fleet("on");
    fleet.entry("off", Map.of("command", "node", "args", List.of("x"), "disabled", true));
    fleet.entry("remote", Map.of("url", "https://example.invalid/mcp"));
    prober.answer("on", FakePreflights::measured);
    PassResult r = pass(PassOptions.named());
    assertThat(r.fresh()).hasSize(3);
    assertThat(prober.servers()).containsExactly("on");
    assertThat(attemptsFile()).doesNotExist();
  }

  @Test
  void aCorruptAttemptsFileIsReadAsNoneAndReplaced() throws Exception {
    fleet("s");
    Files.createDirectories(fleet.records());
    Files.writeString(attemptsFile(), "{\"schema\": 1, \"servers\": [");
    prober.answer("s", FakePreflights::missingVariable);
    PassResult r = pass(PassOptions.uncapped());
    assertThat(r.outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(attempts().get("s").failures()).isEqualTo(1);
  }

  // ------------------------------------------------------------------ backoff

  @Test
  void twoFailuresHoldAServerBackFromPassesOfDueServersForAnHourThenTwo() throws Exception {
    fleet("failing", "other");
    prober
        .answer("failing", FakePreflights::missingVariable)
        .answer("other", FakePreflights::missingVariable);
    pass(PassOptions.uncapped());
    now.set(T + 600);
    pass(PassOptions.uncapped());
    assertThat(prober.servers()).hasSize(4);

    now.set(T + 600 + HOUR - 1);
    PassResult skipped = pass(PassOptions.uncapped());
    assertThat(prober.servers()).hasSize(4);
    assertThat(skipped.fresh()).isEmpty();
    assertThat(skipped.skipped())
        .containsExactly(
            Map.entry("failing", Instant.ofEpochSecond((long) (T + 600 + HOUR))),
            Map.entry("other", Instant.ofEpochSecond((long) (T + 600 + HOUR))));
    assertThat(skipped.progress()).isEqualTo(new Results.PassProgress(false, 0, 0, 0));
    assertThat(attempts().get("failing").failures()).as("a skip is not an attempt").isEqualTo(2);

    now.set(T + 600 + HOUR);
    PassResult due = pass(PassOptions.uncapped());
    assertThat(due.skipped()).isEmpty();
    assertThat(prober.servers()).hasSize(6);
    assertThat(attempts().get("failing").failures()).isEqualTo(3);

    now.set(T + 600 + HOUR + 2 * HOUR - 1);
    assertThat(pass(PassOptions.uncapped()).skipped()).hasSize(2);
    now.set(T + 600 + HOUR + 2 * HOUR);
    assertThat(pass(PassOptions.uncapped()).skipped()).isEmpty();
  }

  @Test
  void namedServersRetryFailedAndAChangedIdentityAreTriedAtOnce() throws Exception {
    fleet("s");
    prober.answer("s", FakePreflights::missingVariable);
    pass(PassOptions.uncapped());
    pass(PassOptions.uncapped());
    assertThat(pass(PassOptions.uncapped()).skipped()).containsOnlyKeys("s");
    assertThat(prober.servers()).hasSize(2);

    PassResult retried = pass(PassOptions.uncapped().retryFailed(true));
    assertThat(retried.skipped()).isEmpty();
    assertThat(prober.servers()).hasSize(3);

    // A server named explicitly is tried at once, and its failure does not count.
    PassResult named = pass(PassOptions.named());
    assertThat(named.fresh()).hasSize(1);
    assertThat(prober.servers()).hasSize(4);
    assertThat(attempts().get("s").failures()).isEqualTo(3);

    fleet.fixture("s", "stable", "--delay-ms", "2");
    PassResult changed = pass(PassOptions.uncapped());
    assertThat(changed.skipped()).isEmpty();
    assertThat(prober.servers()).hasSize(5);
  }

  @Test
  void aHeldBackServerDoesNotSpendABudgetedPassesBudget() throws Exception {
    fleet("a", "b", "c");
    prober
        .answer("a", FakePreflights::missingVariable)
        .answer("b", FakePreflights::measured)
        .answer("c", FakePreflights::measured);
    pass(PassOptions.named());
    fleet
        .remove("b")
        .remove("c")
        .fixture("b", "stable", "--delay-ms", "1")
        .fixture("c", "stable", "--delay-ms", "1");
    pass(PassOptions.uncapped());
    assertThat(attempts().get("a").failures()).isEqualTo(2);
    prober.calls.clear();
    fleet.fixture("b", "stable", "--delay-ms", "3").fixture("c", "stable", "--delay-ms", "3");
    PassResult budgeted = pass(PassOptions.budgeted(2));
    assertThat(budgeted.skipped()).containsOnlyKeys("a");
    assertThat(prober.servers()).containsExactlyInAnyOrder("b", "c");
  }

  // ------------------------------------------------------------------ the end-of-pass retry

  @Test
  void aTimeoutInABusyPassIsRetriedAloneAtTheEndWithTwiceTheTimeout() throws Exception {
    fleet("slow", "quick");
    prober
        .answer("slow", FakePreflights::timedOut, FakePreflights::measured)
        .answer("quick", FakePreflights::measured);
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    PassResult r =
        pass(
            PassOptions.uncapped(),
            new PassProgress.Listener() {
              @Override
              public void onProgress(PassProgress p) {
                events.add("progress " + p.done() + "/" + p.total());
              }

              @Override
              public void onStarted(String server) {
                events.add("started " + server);
              }

              @Override
              public void onFinished(PassResult.Measured result) {
                events.add("finished " + result.name() + " " + result.result().ran());
              }

              @Override
              public void onRetrying(String server, Duration timeout) {
                events.add("retrying " + server + " " + timeout.toSeconds() + "s");
              }
            });
    assertThat(prober.calls)
        .filteredOn(c -> c.server().equals("slow"))
        .extracting(FakePreflights.Call::timeout)
        .containsExactly(Duration.ofSeconds(15), Duration.ofSeconds(30));
    assertThat(result(r, "slow").stored()).isTrue();
    assertThat(r.fresh()).hasSize(2);
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 2, 2, 2));
    assertThat(attempts()).isEmpty();
    // The retry comes after everything else, alone; the timed-out attempt was not counted.
    assertThat(events.subList(events.size() - 5, events.size()))
        .containsExactly(
            "retrying slow 30s",
            "started slow",
            "finished slow true",
            "progress 2/2",
            "progress 2/2");
    assertThat(events).containsOnlyOnce("finished slow true").doesNotContain("finished slow false");
    int quickDone = events.indexOf("finished quick true");
    assertThat(quickDone).isLessThan(events.indexOf("retrying slow 30s"));
  }

  @Test
  void aRetryThatTimesOutAgainCountsAsOneFailure() throws Exception {
    fleet("slow", "quick");
    prober.answer("slow", FakePreflights::timedOut).answer("quick", FakePreflights::measured);
    PassResult r = pass(PassOptions.uncapped());
    assertThat(prober.servers()).filteredOn("slow"::equals).hasSize(2);
    assertThat(result(r, "slow").result().detail()).isEqualTo("timeout");
    assertThat(attempts().get("slow").failures()).isEqualTo(1);
  }

  @Test
  void aTimeoutThatWasAloneAlreadyIsNotRetried() throws Exception {
    fleet("slow");
    prober.answer("slow", FakePreflights::timedOut);
    pass(PassOptions.uncapped());
    assertThat(prober.servers()).containsExactly("slow");
    assertThat(attempts().get("slow").failures()).isEqualTo(1);

    // One worker measures one server at a time: nothing competed with it either.
    fleet.fixture("other", "stable");
    prober.answer("other", FakePreflights::measured);
    prober.calls.clear();
    new EvaluationRunner(prober, 1, now::get)
        .run(fleet.servers(), fleet.cacheFile(), PassOptions.named(), p -> {});
    assertThat(prober.servers()).containsExactlyInAnyOrder("slow", "other");
  }

  @Test
  void theRetryTimeoutIsDoubledUpToTheLargestAllowed() {
    assertThat(EvaluationRunner.retryTimeout(Duration.ofSeconds(15))).hasSeconds(30);
    assertThat(EvaluationRunner.retryTimeout(Duration.ofSeconds(60))).hasSeconds(120);
    assertThat(EvaluationRunner.retryTimeout(Duration.ofSeconds(90))).hasSeconds(120);
  }

  // ------------------------------------------------------------------ events

  @Test
  void aFailingListenerIsIgnoredForEveryEvent() throws Exception {
    fleet("a", "b");
    prober
        .answer("a", FakePreflights::timedOut, FakePreflights::measured)
        .answer("b", FakePreflights::measured);
    PassResult r =
        pass(
            PassOptions.uncapped(),
            new PassProgress.Listener() {
              @Override
              public void onProgress(PassProgress p) {
                throw new IllegalStateException("progress");
              }

              @Override
              public void onStarted(String server) {
                throw new IllegalStateException("started");
              }

              @Override
              public void onFinished(PassResult.Measured result) {
                throw new IllegalStateException("finished");
              }

              @Override
              public void onRetrying(String server, Duration timeout) {
                throw new IllegalStateException("retrying");
              }
            });
    assertThat(r.progress()).isEqualTo(new Results.PassProgress(false, 2, 2, 2));
  }

  @Test
  void aPassWaitingForTheLockSaysWhoHoldsIt() throws Exception {
    fleet("a");
    prober.answer("a", FakePreflights::measured);
    fleet.write();
    Files.createDirectories(fleet.records());
    HeldCacheLock lock = HeldCacheLock.hold(fleet.cacheFile());
    List<String> told = Collections.synchronizedList(new ArrayList<>());
    AtomicReference<PassResult> result = new AtomicReference<>();
    Thread passThread =
        new Thread(
            () -> {
              try {
                result.set(
                    pass(
                        PassOptions.uncapped(),
                        new PassProgress.Listener() {
                          @Override
                          public void onProgress(PassProgress p) {}

                          @Override
                          public void onWaitingForLock(String h) {
                            told.add(h);
                          }
                        }));
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            });
    passThread.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (told.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(told)
        .singleElement()
        .asString()
        .startsWith("process " + ProcessHandle.current().pid());
    lock.close();
    passThread.join(10_000);
    assertThat(result.get().outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(told).hasSize(1);

    // A pass that does not wait is never told.
    told.clear();
    assertThat(pass(PassOptions.budgeted(2)).outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(told).isEmpty();
  }
}
