package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.PassResult;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.CacheHints;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.EraBasis;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.handshake.SelfTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every fixture mode's outcome, with the process tree checked gone after each probe. Isolated from
 * other test classes (its methods still run concurrently) so that the JVM-wide check after all
 * tests sees only this class's processes.
 */
@Isolated
@Execution(ExecutionMode.CONCURRENT)
final class StdioProberFixtureTest {
  private static final StdioProber PROBER = FixtureServers.prober(15);
  private static final StdioProber FAST_TIMEOUT = FixtureServers.prober(5);

  @BeforeAll
  static void requireNode() {
    FixtureServers.assumeNode();
  }

  @AfterAll
  static void noDescendantOfThisJvmRunsAndNoStreamThreadIsLeft() throws InterruptedException {
    assertThat(ProcessHandle.current().descendants().filter(ProcessTree::isRunning).toList())
        .as("processes left behind by the prober")
        .isEmpty();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("kcshare-probe-")) {
        t.join(5_000); // a stream thread ends at EOF, which teardown guarantees
        assertThat(t.isAlive()).as("thread %s", t.getName()).isFalse();
      }
    }
  }

  private static ProbeOutcome probe(FixtureServers f, StdioProber prober, ServerDefinition server)
      throws Exception {
    ProbeOutcome outcome = prober.probe(server, true);
    f.assertAllGone();
    return outcome;
  }

  private static ProbeOutcome probe(FixtureServers f, String mode, String... flags)
      throws Exception {
    return probe(f, PROBER, f.server(mode, flags));
  }

  private static void assertMeasured(ProbeOutcome outcome, boolean sensitive, String detail) {
    PreflightResult r = outcome.result();
    assertThat(r.ran()).as("ran (%s)", outcome).isTrue();
    assertThat(r.callerSensitive()).isEqualTo(sensitive);
    assertThat(r.detail()).isEqualTo(detail);
    assertThat(r.answerA()).isNotNull();
  }

  private static void assertCouldNotRun(ProbeOutcome outcome, String detail) {
    PreflightResult r = outcome.result();
    assertThat(r.ran()).as("ran (%s)", outcome).isFalse();
    assertThat(r.callerSensitive()).isFalse();
    assertThat(r.detail()).isEqualTo(detail);
    assertThat(r.reasons()).containsExactly(PreflightResult.PREFLIGHT_UNAVAILABLE);
  }

  private static List<PassResult.Spawn.Status> statuses(ProbeOutcome outcome) {
    return outcome.attempts().stream().map(ProbeAttempt::status).toList();
  }

  @Test
  void stableServerIsMeasuredAndAgrees(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, "stable");
    assertMeasured(outcome, false, "");
    PreflightResult r = outcome.result();
    assertThat(r.era()).isEqualTo(Era.LEGACY);
    assertThat(r.reportedVersion()).isEqualTo("1.2.3");
    assertThat(r.reasons()).isEmpty();
    Answer a = r.answerA();
    assertThat(a.toolNames()).isEqualTo(List.of("echo", "add"));
    assertThat(a.protocolVersion()).isEqualTo("2024-11-05");
    assertThat(statuses(outcome))
        .containsExactly(PassResult.Spawn.Status.ANSWERED, PassResult.Spawn.Status.ANSWERED);
    assertThat(outcome.captures()).containsOnlyKeys("a", "b");
    assertThat(f.pids()).hasSize(2);
  }

  @Test
  void aServersSecretsAreMaskedInItsStderrTailsAndLaunchLine(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ServerDefinition server =
        f.server("leak-secrets", "--api-key", "ctx7sk-0123456789").toBuilder()
            .env(Map.of("API_KEY", "sk-live-abcdef123456"))
            .build();
    ProbeOutcome outcome = probe(f, PROBER, server);
    assertCouldNotRun(outcome, "no response (process exited with status 1)");
    assertThat(outcome.attempts()).isNotEmpty();
    for (ProbeAttempt attempt : outcome.attempts()) {
      assertThat(attempt.stderrTail())
          .startsWith("fixture: bad key ***; args --api-key *** --pid-dir ")
          .doesNotContain("sk-live-abcdef123456")
          .doesNotContain("ctx7sk-0123456789");
    }
    assertThat(outcome.lastStderrTail()).startsWith("fixture: bad key ***;");
    assertThat(Objects.requireNonNull(outcome.launch()).commandLine())
        .containsSequence("--api-key", "***")
        .doesNotContain("ctx7sk-0123456789");
    assertThat(outcome.result().detail()).doesNotContain("sk-live");
    for (ProbeAttempt attempt : outcome.attempts()) {
      assertThat(String.valueOf(attempt.failure())).doesNotContain("sk-live");
    }
  }

  @Test
  void kcsharesOwnDetailsAreNeverMaskedEvenWhenAnEnvValueMatchesThem(@TempDir Path dir)
      throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ServerDefinition server = f.server("silent").toBuilder().env(Map.of("MODE", "timeout")).build();
    ProbeOutcome outcome = probe(f, FAST_TIMEOUT, server);
    assertCouldNotRun(outcome, "timeout");
    assertThat(outcome.timedOut()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "sensitive-capabilities, initialize_shape_differs",
    "sensitive-tools, tools_shape_differs",
    "sensitive-annotations, tools_shape_differs",
    "sensitive-protocol, initialize_shape_differs",
    "sensitive-serverinfo, initialize_shape_differs",
    "modern-sensitive, discover_shape_differs"
  })
  void callerSensitiveFacetsDiverge(String mode, String detail, @TempDir Path dir)
      throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), mode);
    assertMeasured(outcome, true, detail);
    assertThat(outcome.result().reasons())
        .containsExactly(PreflightResult.HANDSHAKE_NOT_REPRODUCIBLE);
  }

  @Test
  void fiftyBannerLinesAreTolerated(@TempDir Path dir) throws Exception {
    assertMeasured(probe(new FixtureServers(dir), "banner", "--banners", "50"), false, "");
  }

  @Test
  void fiftyOneBannerLinesAreNoResponse(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "banner", "--banners", "51");
    // The server was still running when kcshare gave up on it; it exits once stdin closes.
    assertCouldNotRun(outcome, "no response (process still running)");
    assertThat(outcome.lastExitStatus()).isEqualTo("exit 0");
  }

  @Test
  void stderrFloodIsDrainedAndItsTailBounded(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "stderr-flood");
    assertMeasured(outcome, false, "");
    for (ProbeAttempt attempt : outcome.attempts()) {
      assertThat(attempt.stderrTail()).startsWith("...").endsWith("fixture: flood done\\n");
      assertThat(attempt.stderrTail().codePointCount(0, attempt.stderrTail().length()))
          .isLessThanOrEqualTo(3 + 500 + 500); // "..." + 500 code points, each at most "\\n"
    }
  }

  @Test
  void serverThatNeverAnswersTimesOut(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    assertCouldNotRun(probe(f, FAST_TIMEOUT, f.server("silent")), "timeout");
  }

  @Test
  void wrongResponseIdThenNothingTimesOut(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    assertCouldNotRun(probe(f, FAST_TIMEOUT, f.server("wrong-id")), "timeout");
  }

  @Test
  void foreignAndStringIdsAreSkippedAndOnePointZeroMatches(@TempDir Path dir) throws Exception {
    assertMeasured(probe(new FixtureServers(dir), "wrong-id-then-right"), false, "");
  }

  @Test
  void exitAfterInitializeLosesTheListing(@TempDir Path dir) throws Exception {
    assertCouldNotRun(
        probe(new FixtureServers(dir), "init-then-exit"),
        "tools/list: no response after a successful initialize (process exited with status 0)");
  }

  @Test
  void lineOverSixteenMebibytesFails(@TempDir Path dir) throws Exception {
    assertCouldNotRun(probe(new FixtureServers(dir), "huge-line"), "message exceeds 16 MiB");
  }

  @Test
  void aMebibyteMemberNameFailsAtOnceNotByTimeout(@TempDir Path dir) throws Exception {
    // Before: the answer read as a banner line and the exchange waited for its deadline.
    assertCouldNotRun(
        probe(new FixtureServers(dir), "huge-key"), "message member name exceeds 65536 characters");
  }

  @Test
  void deepNestingFailsWithoutStackOverflow(@TempDir Path dir) throws Exception {
    assertCouldNotRun(probe(new FixtureServers(dir), "deep"), "message nesting exceeds 512 levels");
  }

  @Test
  void nonStringToolNamesAreMalformed(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "bad-names");
    assertCouldNotRun(outcome, "malformed_tool_names");
    assertThat(outcome.result().era()).isEqualTo(Era.LEGACY);
  }

  @Test
  void paginatedListingIsConcatenated(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "paginated");
    assertMeasured(outcome, false, "");
    Answer a = outcome.result().answerA();
    assertThat(a.toolNames()).isEqualTo(List.of("t1", "t2", "t3", "t4", "t5"));
    assertThat(a.toolAnnotations())
        .isEqualTo(List.of(Map.of("readOnlyHint", true), Map.of("destructiveHint", false)));
    Map<String, Object> toolsList = asMap(outcome.captures().get("a").get("toolsList"));
    assertThat((List<?>) toolsList.get("tools")).hasSize(5);
    assertThat(toolsList).containsEntry("nextCursor", "");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object value) {
    return (Map<String, Object>) value;
  }

  @Test
  void endlessPaginationFails(@TempDir Path dir) throws Exception {
    assertCouldNotRun(
        probe(new FixtureServers(dir), "too-many-pages"), "tools/list: too many pages");
  }

  @Test
  void listingErrorFails(@TempDir Path dir) throws Exception {
    assertCouldNotRun(probe(new FixtureServers(dir), "tools-error"), "tools/list: listing broke");
  }

  @Test
  void listingWithoutToolsArrayIsMalformed(@TempDir Path dir) throws Exception {
    assertCouldNotRun(
        probe(new FixtureServers(dir), "tools-malformed"),
        "tools/list: malformed response (no tools list)");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"roots-request", "ping-request"})
  void serverToClientRequestsAreAnswered(String mode, @TempDir Path dir) throws Exception {
    assertMeasured(probe(new FixtureServers(dir), mode), false, "");
  }

  @Test
  void serverIgnoringEofAndSigtermIsKilled(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, "stubborn");
    assertMeasured(outcome, false, "");
    assertThat(f.pids()).hasSize(2);
  }

  @Test
  void grandchildHoldingStdoutIsTornDown(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, "grandchild");
    assertMeasured(outcome, false, "");
    assertThat(f.pids()).as("two servers and their grandchildren").hasSize(4);
    for (long pid : f.pids()) {
      assertThat(f.runsOurs(pid)).as("pid %d", pid).isFalse();
    }
  }

  @Test
  void earlyExitIsNoResponseWithAnEscapedStderrTail(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "exit-early");
    assertCouldNotRun(outcome, "no response (process exited with status 1)");
    assertThat(outcome.lastExitStatus()).isEqualTo("exit 1");
    assertThat(outcome.result().era()).isNull();
    assertThat(outcome.result().answerA()).isNull();
    assertThat(outcome.attempts()).hasSize(2);
    String tail = outcome.lastStderrTail();
    assertThat(tail)
        .startsWith("...xxx")
        .endsWith("x\\n\\x1b[31mfixture: BRAVE_API_KEY is not set\\x1b[0m\\n")
        .doesNotContain("\n", "\u001b");
    assertThat(tail.codePointCount(0, tail.length()) - 3)
        .as("500 code points kept, escapes expand")
        .isBetween(500, 520);
    // how `kcshare preflight` shows it: PreflightCommandTest
    assertThat(outcome.result().detail()).isEqualTo("no response (process exited with status 1)");
    assertThat(outcome.attempts())
        .anySatisfy(
            attempt -> {
              assertThat(attempt.failure()).isEqualTo("no response (process exited with status 1)");
              assertThat(attempt.stderrTail()).isEqualTo(tail);
            });
  }

  @Test
  void modernOnlyServerIsMeasuredThroughDiscover(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, "modern-only");
    assertMeasured(outcome, false, "");
    PreflightResult r = outcome.result();
    assertThat(r.era()).isEqualTo(Era.MODERN);
    assertThat(r.reportedVersion()).isEqualTo("1.2.3");
    assertThat(r.answerA().toolNames()).isEqualTo(List.of("echo", "add"));
    assertThat(r.answerA().supportedVersions()).isEqualTo(List.of("2026-07-28"));
    assertThat(statuses(outcome).subList(0, 2))
        .contains(PassResult.Spawn.Status.MODERN_DETECTED)
        .allMatch(
            s ->
                s == PassResult.Spawn.Status.MODERN_DETECTED
                    || s == PassResult.Spawn.Status.ABANDONED);
    assertThat(statuses(outcome).subList(2, 4))
        .containsExactly(PassResult.Spawn.Status.ANSWERED, PassResult.Spawn.Status.ANSWERED);
    assertThat(outcome.captures().get("a")).containsKey("discover").doesNotContainKey("initialize");
    // The identity abandoned in the legacy phase may not have been spawned yet.
    assertThat(f.pids()).hasSizeBetween(3, 4);
  }

  @Test
  void modernIsDetectedFromSupportedVersionsAlone(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "modern-only", "--no-code", "1");
    assertMeasured(outcome, false, "");
    assertThat(outcome.result().era()).isEqualTo(Era.MODERN);
  }

  @Test
  void discoverErrorFails(@TempDir Path dir) throws Exception {
    assertCouldNotRun(
        probe(new FixtureServers(dir), "discover-error"),
        "server/discover: nope, not that version");
  }

  @Test
  void dualEraServerStaysLegacy(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "dual-era");
    assertMeasured(outcome, false, "");
    assertThat(outcome.result().era()).isEqualTo(Era.LEGACY);
  }

  @Test
  void modernOnlyServerRejectingInitializeWithAnyCodeIsMeasuredThroughDiscover(@TempDir Path dir)
      throws Exception {
    // -32601 and no supported versions: only the discover on the same process tells it is modern.
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, "modern-only", "--init-code", "-32601");
    assertMeasured(outcome, false, "");
    assertThat(outcome.result().era()).isEqualTo(Era.MODERN);
    assertThat(outcome.result().basis()).isEqualTo(EraBasis.INITIALIZE_REJECTED);
    assertThat(statuses(outcome).subList(2, 4))
        .containsExactly(PassResult.Spawn.Status.ANSWERED, PassResult.Spawn.Status.ANSWERED);
  }

  @Test
  void legacyChoiceNeverFallsBackToDiscover(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, PROBER.withEra(EraChoice.LEGACY), f.server("modern-only"));
    assertCouldNotRun(outcome, "Unsupported protocol version");
    assertThat(statuses(outcome)).doesNotContain(PassResult.Spawn.Status.MODERN_DETECTED);
    ProbeOutcome legacy = probe(f, PROBER.withEra(EraChoice.LEGACY), f.server("dual-era"));
    assertMeasured(legacy, false, "");
    assertThat(legacy.result().era()).isEqualTo(Era.LEGACY);
    assertThat(legacy.result().basis()).isEqualTo(EraBasis.INITIALIZE);
  }

  @Test
  void modernChoiceMeasuresADualEraServerInTheModernEra(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, PROBER.withEra(EraChoice.MODERN), f.server("dual-era"));
    assertMeasured(outcome, false, "");
    assertThat(outcome.result().era()).isEqualTo(Era.MODERN);
    assertThat(outcome.result().basis()).isEqualTo(EraBasis.DISCOVER);
    assertThat(outcome.result().answerA().supportedVersions()).isEqualTo(List.of("2026-07-28"));
    assertThat(f.pids()).hasSize(2); // no legacy phase, no extra spawn
  }

  @Test
  void modernChoiceFallsBackToInitializeOnTheSameProcess(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, PROBER.withEra(EraChoice.MODERN), f.server("stable"));
    assertMeasured(outcome, false, "");
    assertThat(outcome.result().era()).isEqualTo(Era.LEGACY);
    assertThat(outcome.result().basis()).isEqualTo(EraBasis.DISCOVER_REJECTED);
    assertThat(outcome.result().answerA().toolNames()).isEqualTo(List.of("echo", "add"));
    assertThat(outcome.attempts()).allMatch(a -> a.era() == Era.LEGACY);
    assertThat(f.pids()).hasSize(2);
  }

  @Test
  void modernChoiceMeasuresAModernOnlyServerWithTwoSpawns(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, PROBER.withEra(EraChoice.MODERN), f.server("modern-only"));
    assertMeasured(outcome, false, "");
    assertThat(outcome.result().basis()).isEqualTo(EraBasis.DISCOVER);
    assertThat(f.pids()).hasSize(2);
  }

  @Test
  void modernChoiceDoesNotFallBackAfterAModernError(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    assertCouldNotRun(
        probe(f, PROBER.withEra(EraChoice.MODERN), f.server("discover-error")),
        "server/discover: nope, not that version");
  }

  @Test
  void theCachingHintsOfDiscoverAndEveryPageAreKeptInTheAnswer(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "modern-only", "--cache-scope", "public");
    assertMeasured(outcome, false, "");
    CacheHints hints = outcome.result().answerA().cacheHints();
    assertThat(hints.discoverScope()).isEqualTo("public");
    assertThat(hints.discoverTtlMs()).isEqualTo(60000);
    assertThat(hints.pageScopes()).isEqualTo(List.of("public", "public"));
    assertThat(hints.pageTtlMs()).isEqualTo(List.of(60000, 60000));
    assertThat(hints.allPublic()).isTrue();
  }

  @Test
  void aCacheScopeThatDiffersBetweenTheCallersIsADivergence(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome =
        probe(
            new FixtureServers(dir),
            "modern-only",
            "--cache-scope",
            "public",
            "--cache-scope-b",
            "private");
    assertMeasured(outcome, true, "cache_scope_differs");
  }

  @Test
  void aModernDivergenceThatOneProcessShowsIsInProcess(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "modern-sensitive");
    assertMeasured(outcome, true, "discover_shape_differs");
    assertThat(outcome.result().divergence()).isEqualTo(PreflightResult.IN_PROCESS);
    assertThat(outcome.result().toReportJson()).containsEntry("divergence", "in_process");
  }

  @Test
  void aModernDivergenceBetweenTwoStartsIsAcrossProcesses(@TempDir Path dir) throws Exception {
    Path state = java.nio.file.Files.createDirectories(dir.resolve("state"));
    ProbeOutcome outcome =
        probe(new FixtureServers(dir), "modern-per-process", "--state", state.toString());
    assertMeasured(outcome, true, "discover_shape_differs");
    assertThat(outcome.result().divergence()).isEqualTo(PreflightResult.ACROSS_PROCESSES);
  }

  @Test
  void aCacheScopeThatOneProcessAnswersPerCallerIsInProcess(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome =
        probe(
            f,
            PROBER.withEra(EraChoice.MODERN),
            f.server("dual-era", "--cache-scope", "public", "--cache-scope-b", "private"));
    assertMeasured(outcome, true, "cache_scope_differs");
    assertThat(outcome.result().divergence()).isEqualTo(PreflightResult.IN_PROCESS);
  }

  @Test
  void noDivergenceHasNoKind(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "modern-only");
    assertThat(outcome.result().divergence()).isNull();
    assertThat(outcome.result().toReportJson()).doesNotContainKey("divergence");
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "AUTO, '', PASSED",
    "MODERN, '', PASSED",
    "AUTO, --leak, FAILED",
    "MODERN, --leak, FAILED",
    "AUTO, --self-test-error, NOT_RUN",
    "AUTO, --no-tool, NOT_RUN",
  })
  void aDesignatedIsolationSelfTestRunsInIdentityAsProcess(
      EraChoice era, String flag, SelfTest outcome, @TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ServerDefinition server =
        flag.isEmpty() ? f.server("isolating") : f.server("isolating", flag, "1");
    ProbeOutcome result = probe(f, PROBER.withEra(era), server);
    assertMeasured(result, false, "");
    assertThat(result.result().era()).isEqualTo(era == EraChoice.MODERN ? Era.MODERN : Era.LEGACY);
    assertThat(result.result().selfTest()).isEqualTo(outcome);
    assertThat(f.pids()).hasSize(2); // no extra spawn
  }

  @Test
  void noSelfTestRecordsTheDesignatedTestAsSkippedAndCallsNothing(@TempDir Path dir)
      throws Exception {
    FixtureServers f = new FixtureServers(dir);
    Path recordings = java.nio.file.Files.createDirectories(dir.resolve("in"));
    ProbeOutcome result =
        probe(
            f,
            PROBER.withSelfTest(false),
            f.server("isolating", "--record", recordings.toString()));
    assertThat(result.result().selfTest()).isEqualTo(SelfTest.SKIPPED);
    try (var files = java.nio.file.Files.list(recordings)) {
      for (Path file : files.toList()) {
        assertThat(java.nio.file.Files.readString(file)).doesNotContain("tools/call");
      }
    }
  }

  @Test
  void aServerThatDesignatesNoSelfTestIsNeverSentAToolsCall(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    Path recordings = java.nio.file.Files.createDirectories(dir.resolve("in"));
    ProbeOutcome result =
        probe(f, PROBER, f.server("stable", "--declare", "1", "--record", recordings.toString()));
    assertThat(result.result().selfTest()).isNull();
    try (var files = java.nio.file.Files.list(recordings)) {
      for (Path file : files.toList()) {
        assertThat(java.nio.file.Files.readString(file)).doesNotContain("tools/call");
      }
    }
  }

  @Test
  void missingEnvVarIsNoResponse(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    Map<String, String> env = new java.util.HashMap<>(FixtureServers.env());
    env.remove("FIXTURE_TOKEN");
    StdioProber prober = StdioProber.create(env, dir, PROBER.options(), ProcessPermits.defaults());
    ProbeOutcome outcome = probe(f, prober, f.server("needs-env"));
    assertCouldNotRun(outcome, "no response (process exited with status 1)");
    assertThat(outcome.lastStderrTail()).isEqualTo("fixture: FIXTURE_TOKEN is not set\\n");
  }

  @Test
  void declaredEnvIsLaidOverKcsharesOwn(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ServerDefinition server =
        f.server("needs-env").toBuilder().env(Map.of("FIXTURE_TOKEN", "t0ken")).build();
    assertMeasured(probe(f, PROBER, server), false, "");
    assertThat(server.env()).containsExactly(Map.entry("FIXTURE_TOKEN", "t0ken"));
  }

  @Test
  void kcsharesOwnEnvironmentIsInherited(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    Map<String, String> env = new java.util.HashMap<>(FixtureServers.env());
    env.put("FIXTURE_TOKEN", "from-kcshare");
    StdioProber prober = StdioProber.create(env, dir, PROBER.options(), ProcessPermits.defaults());
    assertMeasured(probe(f, prober, f.server("needs-env")), false, "");
  }

  @Test
  void versionWithControlCharactersIsKeptRawAndShownEscaped(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "weird-version");
    assertMeasured(outcome, false, "");
    assertThat(outcome.result().reportedVersion())
        .isEqualTo("1.0\u001b[31m\nINJECTED \"x\" \\ \u202e\t");
    // shown escaped by `kcshare preflight`: PreflightCommandTest.humanOutputEscapesServerStrings
  }

  @Test
  void oneSidedFailureIsRetriedAloneAndMeasured(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, "one-sided", "--state", dir.toString());
    assertMeasured(outcome, false, "");
    assertThat(outcome.attempts()).hasSize(3);
    assertThat(statuses(outcome))
        .containsExactlyInAnyOrder(
            PassResult.Spawn.Status.ANSWERED,
            PassResult.Spawn.Status.FAILED,
            PassResult.Spawn.Status.ANSWERED);
    ProbeAttempt retry = outcome.attempts().get(2);
    assertThat(retry.retry()).isTrue();
    assertThat(retry.status()).isEqualTo(PassResult.Spawn.Status.ANSWERED);
    ProbeAttempt failed =
        outcome.attempts().stream()
            .filter(a -> a.status() == PassResult.Spawn.Status.FAILED)
            .findFirst()
            .orElseThrow();
    assertThat(failed.identity()).isEqualTo(retry.identity());
    assertThat(failed.failure()).isEqualTo("no response (process exited with status 1)");
    assertThat(failed.exitStatus()).isEqualTo("exit 1");
    assertThat(outcome.captures()).containsOnlyKeys("a", "b");
    assertThat(f.pids()).hasSize(3);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "object, boom for kirocrew-preflight-a",
    "string, boom for kirocrew-preflight-a",
    "no-message, unknown error",
    "number, 42"
  })
  void bothFailedReportsIdentityAsFailure(String form, String detail, @TempDir Path dir)
      throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = probe(f, "error-reply", "--form", form);
    assertCouldNotRun(outcome, detail);
    assertThat(outcome.attempts()).as("no retry when both failed").hasSize(2);
  }

  @Test
  void falsyErrorBesideResultIsIgnored(@TempDir Path dir) throws Exception {
    assertMeasured(probe(new FixtureServers(dir), "falsy-error"), false, "");
  }

  @Test
  void failureOfTheRetryIsTheDetailAndKeepsAnswerA(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "reject-b");
    assertCouldNotRun(outcome, "not for you");
    PreflightResult r = outcome.result();
    assertThat(r.era()).isEqualTo(Era.LEGACY);
    assertThat(r.answerA()).isNotNull();
    assertThat(r.reportedVersion()).isEqualTo("1.2.3");
    assertThat(outcome.attempts())
        .extracting(ProbeAttempt::label)
        .containsExactlyInAnyOrder("A", "B", "B (retry)");
    assertThat(outcome.captures()).containsOnlyKeys("a");
  }

  @Test
  void relativeArgumentsResolveAgainstTheDeclaredWorkingDirectory(@TempDir Path dir)
      throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ServerDefinition server = f.server("stable");
    List<String> args = new java.util.ArrayList<>(server.args());
    args.set(0, "mcp-fixture.mjs");
    ServerDefinition relative =
        ServerDefinition.builder("relative")
            .command("node")
            .args(args)
            .cwd(FixtureServers.SCRIPT.getParent().toString())
            .build();
    assertMeasured(probe(f, PROBER, relative), false, "");
  }

  @Test
  void probeOnceReturnsIdentityAsAnswer(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    Optional<Answer> legacy = PROBER.probeOnce(f.server("stable", "--version", "7.7.7"));
    assertThat(legacy).get().extracting(Answer::reportedVersion).isEqualTo("7.7.7");
    Optional<Answer> modern = PROBER.probeOnce(f.server("modern-only"));
    assertThat(modern).get().extracting(Answer::era).isEqualTo(Era.MODERN);
    assertThat(PROBER.probeOnce(f.server("exit-early"))).isEmpty();
    assertThat(PROBER.probeOnce(f.server("stable").toBuilder().disabled(true).build())).isEmpty();
    assertThat(f.pids()).hasSize(4); // stable, modern-only twice (legacy, modern), exit-early
    f.assertAllGone();
  }

  @Test
  void singlePermitStillMeasuresAndIsReturned(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProcessPermits permits = ProcessPermits.of(1);
    StdioProber prober = StdioProber.create(FixtureServers.env(), dir, PROBER.options(), permits);
    assertMeasured(probe(f, prober, f.server("stable")), false, "");
    assertThat(permits.available()).isEqualTo(1);
  }

  @Test
  void interruptionTearsDownThenPropagates(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProcessPermits permits = ProcessPermits.of(4);
    StdioProber prober =
        StdioProber.create(
            FixtureServers.env(),
            dir,
            ProbeOptions.defaults().withTimeout(java.time.Duration.ofSeconds(120)),
            permits);
    java.util.concurrent.atomic.AtomicReference<Throwable> thrown =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                prober.preflight(f.server("silent"));
              } catch (Throwable t) {
                thrown.set(t);
              }
            });
    caller.start();
    while (f.pids().size() < 2) { // both servers are up and awaiting nothing but their answer
      Thread.sleep(20);
    }
    caller.interrupt();
    caller.join();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    f.assertAllGone();
    assertThat(permits.available()).isEqualTo(4);
  }

  @Test
  void oneProberServesConcurrentPreflightsUnderTheCeiling(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProcessPermits permits = ProcessPermits.of(2);
    StdioProber prober = StdioProber.create(FixtureServers.env(), dir, PROBER.options(), permits);
    List<String> modes = List.of("stable", "sensitive-tools", "paginated", "modern-only");
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<PreflightResult>> futures = new java.util.ArrayList<>();
      for (String mode : modes) {
        futures.add(pool.submit(() -> prober.preflight(f.server(mode))));
      }
      assertThat(futures.get(0).get().detail()).isEqualTo("");
      assertThat(futures.get(1).get().detail()).isEqualTo("tools_shape_differs");
      assertThat(futures.get(2).get().ran()).isTrue();
      assertThat(futures.get(3).get().era()).isEqualTo(Era.MODERN);
    } finally {
      pool.shutdownNow();
    }
    assertThat(permits.available()).isEqualTo(2);
    f.assertAllGone();
  }

  @Test
  void aServerKilledByASignalSaysSo(@TempDir Path dir) throws Exception {
    ProbeOutcome outcome = probe(new FixtureServers(dir), "die-by-signal");
    assertCouldNotRun(outcome, "no response (process killed by signal 9 (SIGKILL))");
    assertThat(outcome.lastExitStatus()).isEqualTo("signal 9 (SIGKILL)");
    assertThat(outcome.lastStderrTail()).isEqualTo("fixture: about to crash\\n");
    ProbeOutcome segv = probe(new FixtureServers(dir), "die-by-signal", "--signal", "SIGSEGV");
    assertThat(segv.lastExitStatus()).isEqualTo("signal 11 (SIGSEGV)");
  }

  @Test
  void everyAttemptCarriesItsExitStatusAndPhaseTimes(@TempDir Path dir) throws Exception {
    ProbeOutcome measured = probe(new FixtureServers(dir), "stable", "--delay-ms", "50");
    assertMeasured(measured, false, "");
    assertThat(measured.attempts()).hasSize(2);
    for (ProbeAttempt a : measured.attempts()) {
      assertThat(a.exitStatus()).isEqualTo("exit 0");
      PhaseTimes t = a.times();
      assertThat(t).isNotNull();
      assertThat(t.spawnMillis()).isNotNegative();
      assertThat(t.answerMillis())
          .as("the start-up delay is part of it")
          .isGreaterThanOrEqualTo(50);
      assertThat(t.listMillis()).isNotNull().isNotNegative();
      assertThat(t.exitMillis()).isNotNull().isNotNegative();
      assertThat(t.describe(Era.LEGACY))
          .matches("spawn \\d+ ms -> initialize \\d+ ms -> tools/list \\d+ ms -> exit \\d+ ms");
    }
    ProbeOutcome failed = probe(new FixtureServers(dir), "exit-early");
    PhaseTimes t = failed.attempts().get(0).times();
    assertThat(t.answerMillis()).isNull();
    assertThat(t.listMillis()).isNull();
    assertThat(t.describe(Era.LEGACY)).matches("spawn \\d+ ms -> initialize - -> exit \\d+ ms");
    assertThat(new PhaseTimes(3, 1400L, null, 20L).describe(Era.MODERN))
        .isEqualTo("spawn 3 ms -> server/discover 1.4 s -> tools/list - -> exit 20 ms");
  }

  @Test
  void theLaunchIsSummarisedWithEnvNamesOnly(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ServerDefinition server =
        f.server("needs-env").toBuilder()
            .env(Map.of("FIXTURE_TOKEN", "s3cret-value"))
            .build()
            .toBuilder()
            .cwd(dir.toString())
            .build();
    ProbeOutcome outcome = probe(f, PROBER, server);
    assertMeasured(outcome, false, "");
    LaunchSummary launch = outcome.launch();
    assertThat(launch).isNotNull();
    assertThat(launch.commandLine().get(0)).endsWith("/node");
    assertThat(launch.commandLine().subList(1, 3))
        .containsExactly(FixtureServers.SCRIPT.toString(), "needs-env");
    assertThat(launch.declaredEnvNames()).containsExactly("FIXTURE_TOKEN");
    assertThat(launch.directory()).isEqualTo(dir.toString());
    assertThat(launch.toString()).doesNotContain("s3cret-value");

    ProbeOutcome refused = PROBER.probe(server.toBuilder().disabled(true).build(), false);
    assertThat(refused.launch()).isNull();
    assertThat(refused.lastExitStatus()).isNull();
  }

  @Test
  void aProberWithAnotherTimeoutSharesEverythingElse() {
    assertThat(PROBER.withTimeout(PROBER.options().timeout())).isSameAs(PROBER);
    StdioProber doubled = PROBER.withTimeout(java.time.Duration.ofSeconds(30));
    assertThat(doubled.options().timeout()).hasSeconds(30);
    assertThat(doubled.options().stdinGrace()).isEqualTo(PROBER.options().stdinGrace());
  }
}
