package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.PassResult;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Unexpected failures (docs/design.md#failure-isolation): inside one identity they become {@code
 * probe_error} for that identity, anywhere else {@code preflight_error}; never an exception, and
 * every spawned process is still torn down.
 */
@Execution(ExecutionMode.CONCURRENT)
final class StdioProberIsolationTest {
  @BeforeAll
  static void requireNode() {
    FixtureServers.assumeNode();
  }

  private static StdioProber prober(Path dir, StdioProber.Checkpoints checkpoints) {
    return StdioProber.create(
        FixtureServers.env(), dir, ProbeOptions.defaults(), ProcessPermits.defaults(), checkpoints);
  }

  @Test
  void failureInsideIdentityBIsProbeErrorAfterItsRetry(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    StdioProber prober =
        prober(
            dir,
            new StdioProber.Checkpoints() {
              @Override
              public void beforeExchange(Identity identity, Era era, boolean retry) {
                if (identity == Identity.B) {
                  // The checkpoint runs right after the spawn: let the fixture record its pid
                  // first, or a process torn down before node got that far leaves no trace.
                  f.awaitPids(retry ? 3 : 2);
                  throw new IllegalStateException("unexpected");
                }
              }
            });
    ProbeOutcome outcome = prober.probe(f.server("stable"), false);
    PreflightResult r = outcome.result();
    assertThat(r.ran()).isFalse();
    assertThat(r.detail()).isEqualTo("probe_error");
    assertThat(r.answerA()).isNotNull();
    assertThat(outcome.attempts())
        .extracting(ProbeAttempt::label)
        .containsExactlyInAnyOrder("A", "B", "B (retry)");
    // Three processes were spawned, and the checkpoint waited for each to record its pid, so
    // every one of them is checked for being gone.
    assertThat(outcome.attempts()).allSatisfy(a -> assertThat(a.phases()).isNotNull());
    assertThat(f.pids()).hasSize(3);
    f.assertAllGone();
  }

  @Test
  void stackExhaustionInOneIdentityIsRetried(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    StdioProber prober =
        prober(
            dir,
            new StdioProber.Checkpoints() {
              @Override
              public void beforeExchange(Identity identity, Era era, boolean retry) {
                if (identity == Identity.A && !retry) {
                  throw new StackOverflowError();
                }
              }
            });
    ProbeOutcome outcome = prober.probe(f.server("stable"), false);
    assertThat(outcome.result().ran()).isTrue();
    assertThat(outcome.attempts())
        .filteredOn(a -> a.status() == PassResult.Spawn.Status.FAILED)
        .singleElement()
        .satisfies(a -> assertThat(a.failure()).isEqualTo("probe_error"));
    f.assertAllGone();
  }

  @Test
  void failureOutsideBothIdentitiesIsPreflightError(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    StdioProber prober =
        prober(
            dir,
            new StdioProber.Checkpoints() {
              @Override
              public void beforeMeasuring(ServerDefinition server) {
                throw new IllegalStateException("unexpected");
              }
            });
    PreflightResult r = prober.preflight(f.server("stable"));
    assertThat(r).isEqualTo(new PreflightResult(false, false, "preflight_error", null, "", null));
    assertThat(f.pids()).isEmpty();
  }
}
