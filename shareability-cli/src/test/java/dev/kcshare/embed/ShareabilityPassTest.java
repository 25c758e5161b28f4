package dev.kcshare.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.host.records.HeldCacheLock;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@link Shareability#pass} with each kind of {@link PassOptions}, with the Node.js fixture
 * servers. Isolated, as every test that spawns: no process of this JVM may outlive the prober
 * tests.
 */
@Isolated
final class ShareabilityPassTest {
  private static final Instant T = Instant.parse("2027-01-15T10:00:00Z");

  private final List<Shareability> opened = new ArrayList<>();

  @AfterEach
  void closeFacades() {
    opened.forEach(Shareability::close);
  }

  @BeforeAll
  static void requireNode() {
    EmbedFixtures.assumeNode();
  }

  private Shareability facade(Path dir) {
    Shareability kc =
        Shareability.builder(dir.resolve("records"))
            .workingDirectory(dir)
            .clock(InstantSource.fixed(T))
            .build();
    opened.add(kc);
    return kc;
  }

  private static List<String> names(PassResult r) {
    return r.fresh().stream().map(PassResult.Measured::name).toList();
  }

  @Test
  void aNamedPassMeasuresAServerAgainThatAnUncappedPassServesFromTheCache(@TempDir Path dir)
      throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc = facade(dir);
    List<ConfiguredServer> servers = kc.servers(List.of(f.server("ok", "stable")));

    PassResult first = kc.pass(servers, PassOptions.uncapped(), p -> {});
    assertThat(first.outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(names(first)).containsExactly("ok");
    PassResult.Measured ok = first.fresh().get(0);
    assertThat(ok.stored()).isTrue();
    assertThat(ok.failuresInARow()).isZero();
    assertThat(ok.launch()).isNotNull();
    assertThat(ok.launch().commandLine()).contains(EmbedFixtures.SCRIPT.toString());
    assertThat(ok.processes())
        .extracting(PassResult.Spawn::label)
        .containsExactlyInAnyOrder("A", "B");
    assertThat(ok.processes())
        .allSatisfy(
            s -> {
              assertThat(s.status()).isEqualTo(PassResult.Spawn.Status.ANSWERED);
              assertThat(s.phases()).isNotNull();
            });

    PassResult again = kc.pass(servers, PassOptions.uncapped(), p -> {});
    assertThat(again.fresh()).isEmpty();
    assertThat(again.stored()).containsOnlyKeys("ok");
    assertThat(again.stored().get("ok").measuredAt()).isEqualTo(T);

    PassResult named = kc.pass(servers, PassOptions.named(), p -> {});
    assertThat(names(named)).containsExactly("ok");
    assertThat(named.progress()).isEqualTo(new Results.PassProgress(false, 1, 1, 1));
    f.assertAllGone();
  }

  @Test
  void aPassThatMustNotWaitIsBusyWhileAnotherPassHoldsTheLock(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc = facade(dir);
    List<ConfiguredServer> servers = kc.servers(List.of(f.server("ok", "stable")));
    java.nio.file.Files.createDirectories(kc.recordsDirectory());
    List<String> waitedFor = Collections.synchronizedList(new ArrayList<>());
    PassProgress.Listener listener =
        new PassProgress.Listener() {
          @Override
          public void onProgress(PassProgress progress) {}

          @Override
          public void onWaitingForLock(String holder) {
            waitedFor.add(holder);
          }
        };
    try (HeldCacheLock lock = HeldCacheLock.hold(kc.cacheFile())) {
      for (PassOptions options :
          List.of(
              PassOptions.uncapped().waitForLock(false), PassOptions.named().waitForLock(false))) {
        PassResult busy = kc.pass(servers, options, listener);
        assertThat(busy.outcome()).as("%s", options).isEqualTo(PassResult.Outcome.BUSY);
        assertThat(busy.fresh()).isEmpty();
        assertThat(busy.stored()).isEmpty();
        assertThat(busy.progress()).isEqualTo(new Results.PassProgress(false, 0, 0, 0));
      }
      assertThat(kc.pass(servers, PassOptions.budgeted(), listener).outcome())
          .isEqualTo(PassResult.Outcome.YIELDED);
    }
    assertThat(f.started()).as("nothing spawned").isZero();
    assertThat(waitedFor).as("a pass that does not wait waits for nobody").isEmpty();
  }

  @Test
  void aServerThatKeepsFailingIsCountedThenSkippedUntilRetried(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc = facade(dir);
    List<ConfiguredServer> servers = kc.servers(List.of(f.server("broken", "exit-early")));

    PassResult.Measured once = kc.pass(servers, PassOptions.uncapped(), p -> {}).fresh().get(0);
    assertThat(once.result().ran()).isFalse();
    assertThat(once.stored()).isFalse();
    assertThat(once.failuresInARow()).isEqualTo(1);
    assertThat(once.exitStatus()).isNotNull();
    assertThat(once.processes()).isNotEmpty();
    PassResult.Measured twice = kc.pass(servers, PassOptions.uncapped(), p -> {}).fresh().get(0);
    assertThat(twice.failuresInARow()).isEqualTo(2);

    PassResult skipped = kc.pass(servers, PassOptions.uncapped(), p -> {});
    assertThat(skipped.fresh()).isEmpty();
    assertThat(skipped.skipped()).containsOnlyKeys("broken");
    assertThat(skipped.skipped().get("broken")).isAfter(T);

    PassResult retried = kc.pass(servers, PassOptions.uncapped().retryFailed(true), p -> {});
    assertThat(names(retried)).containsExactly("broken");
    assertThat(retried.fresh().get(0).failuresInARow()).isEqualTo(3);

    PassResult named = kc.pass(servers, PassOptions.named(), p -> {});
    assertThat(names(named)).containsExactly("broken");
    assertThat(named.fresh().get(0).failuresInARow())
        .as("a named pass's failure does not lengthen the wait")
        .isEqualTo(3);
    f.assertAllGone();
  }

  @Test
  void aPreflightStoresNothingTakesNoLockAndCanSaveItsCaptures(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc = facade(dir);
    ConfiguredServer ok = kc.servers(List.of(f.server("ok", "stable"))).get(0);
    java.nio.file.Files.createDirectories(kc.recordsDirectory());
    PassResult.Measured measured;
    try (HeldCacheLock lock = HeldCacheLock.hold(kc.cacheFile())) {
      measured = kc.preflight(ok, Path.of("captures"), PassOptions.named());
    }
    assertThat(measured.result().ran()).isTrue();
    assertThat(measured.stored()).isFalse();
    assertThat(measured.processes()).hasSize(2);
    assertThat(kc.cacheFile()).doesNotExist();
    assertThat(kc.recordsDirectory().resolve("kcshare-attempts.json")).doesNotExist();
    try (var files = java.nio.file.Files.walk(dir.resolve("captures"))) {
      assertThat(files.map(p -> p.getFileName().toString())).contains("a.json", "b.json");
    }
    f.assertAllGone();
  }

  @Test
  void passOptionsRefuseWhatNoPassCanDo() {
    assertThatThrownBy(() -> PassOptions.budgeted().waitForLock(true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("never waits");
    assertThatThrownBy(() -> PassOptions.budgeted(0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(PassOptions.uncapped().budget()).isEqualTo(Integer.MAX_VALUE);
    assertThat(PassOptions.uncapped().era(EraChoice.MODERN))
        .isEqualTo(PassOptions.uncapped().era(EraChoice.MODERN))
        .hasSameHashCodeAs(PassOptions.uncapped().era(EraChoice.MODERN))
        .isNotEqualTo(PassOptions.uncapped());
    assertThat(PassOptions.named().retryFailed(false).retryFailed()).isTrue();
    assertThat(PassOptions.budgeted().budget()).isEqualTo(2);
    assertThat(PassOptions.uncapped().waitForLock(false).waitForLock()).isFalse();
  }

  @Test
  void aClosedFacadeRunsNoPass(@TempDir Path dir) {
    Shareability kc = facade(dir);
    kc.close();
    assertThatThrownBy(() -> kc.pass(List.of(), PassOptions.uncapped(), p -> {}))
        .isInstanceOf(IllegalStateException.class);
  }
}
