package dev.kcshare.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.host.records.CacheStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Uncapped passes on their own thread, with the Node.js fixture servers. Isolated: the prober tests
 * check that no process of this JVM outlives them, and these processes must not be counted there.
 */
@Isolated
final class BackgroundPassTest {
  private final List<Shareability> opened = new ArrayList<>();

  /** Closes every facade a test built, so none outlives it. */
  @AfterEach
  void closeFacades() {
    opened.forEach(Shareability::close);
  }

  private Shareability track(Shareability kc) {
    opened.add(kc);
    return kc;
  }

  @BeforeAll
  static void requireNode() {
    EmbedFixtures.assumeNode();
  }

  @Test
  void progressKnowsTheTotalBeforeAnyServerFinishes(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc =
        track(Shareability.builder(dir.resolve("records")).workingDirectory(dir).build());
    List<ConfiguredServer> servers =
        kc.servers(
            List.of(f.server("a", "stable"), f.server("b", "stable"), f.server("c", "stable")));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    BackgroundPass pass =
        kc.startUncappedPass(
            servers,
            new PassProgress.Listener() {
              @Override
              public void onProgress(PassProgress progress) {}

              @Override
              public void onStarted(String server) {
                started.countDown();
                try {
                  proceed.await(); // holds the pass before any server is done
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            });
    try {
      assertThat(pass.progress().total()).as("at start").isEqualTo(3);
      started.await();
      PassProgress held = pass.progress();
      assertThat(held.done()).isZero();
      assertThat(held.total()).as("once the pass chose what is due").isEqualTo(3);
    } finally {
      proceed.countDown();
    }
    assertThat(pass.await().progress().total()).isEqualTo(3);
  }

  @Test
  void progressRunsFromFirstReportToDoneWithSeparateCounters(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc =
        track(Shareability.builder(dir.resolve("records")).workingDirectory(dir).build());
    List<ConfiguredServer> servers =
        kc.servers(
            List.of(
                f.server("ok-1", "stable"),
                f.server("broken", "exit-early"),
                f.server("ok-2", "stable", "--read-only", "1")));
    List<PassProgress> reports = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch firstReport = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);

    BackgroundPass pass =
        kc.startUncappedPass(
            servers,
            p -> {
              reports.add(p);
              firstReport.countDown();
              try {
                proceed.await(); // holds the pass at its first report while the test looks
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    firstReport.await();
    PassProgress mid = pass.progress();
    assertThat(pass.isDone()).isFalse();
    assertThat(mid.running()).isTrue();
    assertThat(mid.done()).isEqualTo(1);
    assertThat(mid.total()).isEqualTo(3);
    proceed.countDown();

    PassResult result = pass.await(Duration.ofMinutes(3));
    PassProgress end = new Results.PassProgress(false, 3, 2, 3);
    assertThat(result.outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(result.progress()).isEqualTo(end);
    assertThat(pass.isDone()).isTrue();
    assertThat(pass.progress()).isEqualTo(end);
    assertThat(reports).hasSize(4).last().isEqualTo(end);
    assertThat(reports.subList(0, 3)).extracting(PassProgress::done).containsExactly(1, 2, 3);
    assertThat(reports.subList(0, 3)).allSatisfy(p -> assertThat(p.running()).isTrue());
    assertThat(reports)
        .extracting(PassProgress::measured)
        .isSorted()
        .allSatisfy(m -> assertThat(m).isBetween(0, 2));
    assertThat(result.fresh())
        .filteredOn(r -> r.stored())
        .extracting(r -> r.name())
        .containsExactlyInAnyOrder("ok-1", "ok-2");

    CacheLoad cache = CacheStore.read(kc.cacheFile());
    assertThat(cache.rows()).containsOnlyKeys("ok-1", "ok-2");
    assertThat(kc.verdicts(servers))
        .extracting(v -> v.verdict().strength())
        .containsExactly(Strength.MEASURED, Strength.UNKNOWN, Strength.MEASURED);
    f.assertAllGone();
  }

  @Test
  void cancelEndsWithCancellationAfterSavingWhatWasMeasured(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc =
        track(
            Shareability.builder(dir.resolve("records"))
                .workingDirectory(dir)
                .probeTimeout(Duration.ofSeconds(120)) // the silent server would hold the pass
                .build());
    List<ConfiguredServer> servers = quickAndSlow(kc, f);
    BackgroundPass pass = runningUntilQuickIsDone(kc, servers);
    assertThat(pass.progress().running()).isTrue();
    assertThat(pass.cancel()).isTrue();

    assertThatThrownBy(pass::await).isInstanceOf(CancellationException.class);
    assertThat(pass.isDone()).isTrue();
    assertThat(pass.progress()).isEqualTo(new Results.PassProgress(false, 1, 1, 2));
    assertThat(pass.cancel()).as("already ended").isFalse();
    assertThat(CacheStore.read(kc.cacheFile()).rows())
        .as("the row paid for before the cancel was saved")
        .containsOnlyKeys("quick");
    assertThat(f.started()).isGreaterThanOrEqualTo(3); // quick A, B and at least slow A
    f.assertAllGone();
  }

  @Test
  void closeCancelsARunningPassStopsItsThreadsAndIsIdempotent(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc =
        track(
            Shareability.builder(dir.resolve("records"))
                .workingDirectory(dir)
                .probeTimeout(Duration.ofSeconds(120))
                .build());
    List<ConfiguredServer> servers = quickAndSlow(kc, f);
    BackgroundPass pass = runningUntilQuickIsDone(kc, servers);
    LedgerWriter ledger = kc.openLedger(Duration.ofHours(1));
    ledger.record("quick", dev.kcshare.core.records.HazardCodes.UNROUTABLE_SERVER_REQUEST, "");

    Path cacheFile = kc.cacheFile();
    Path ledgerFile = kc.ledgerFile();

    kc.close(); // cancels the pass and waits for it, flushes the ledger, stops the threads

    assertThat(pass.ended()).as("close waited for the cancelled pass").isTrue();
    assertThat(CacheStore.read(cacheFile).rows()).containsOnlyKeys("quick");
    assertThat(dev.kcshare.host.records.LedgerStore.read(ledgerFile).servers())
        .as("the ledger writer was flushed at close")
        .containsOnlyKeys("quick");
    f.assertAllGone();
    kc.close(); // idempotent
    assertThatThrownBy(() -> kc.startUncappedPass(servers))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(kc::openLedger).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> kc.budgetedPass(servers)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(pass::await)
        .as("a pass of a closed facade")
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closeFromTheListenerReturnsAndTheCloseStillCompletes(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    List<Thread> made = Collections.synchronizedList(new ArrayList<>());
    Shareability kc =
        track(
            Shareability.builder(dir.resolve("records"))
                .workingDirectory(dir)
                .threadFactory(
                    task -> {
                      Thread t = new Thread(task, "gateway-" + made.size());
                      t.setDaemon(true);
                      made.add(t);
                      return t;
                    })
                .build());
    List<ConfiguredServer> servers =
        kc.servers(List.of(f.server("a", "stable"), f.server("b", "stable")));
    CountDownLatch returned = new CountDownLatch(1);
    BackgroundPass pass =
        kc.startUncappedPass(
            servers,
            new PassProgress.Listener() {
              @Override
              public void onProgress(PassProgress progress) {}

              @Override
              public void onFinished(PassResult.Measured result) {
                kc.close(); // from the pass's own thread: waiting there would wait for itself
                returned.countDown();
              }
            });

    // A bound only against a hang: the close returns at once when it works.
    assertThat(returned.await(2, TimeUnit.MINUTES))
        .as("close() returned inside the listener")
        .isTrue();
    assertThatThrownBy(pass::await).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(kc::openLedger).isInstanceOf(IllegalStateException.class);
    for (Thread t : List.copyOf(made)) { // the facade's, and those of the pass inside it
      t.join(Duration.ofMinutes(2).toMillis());
      assertThat(t.isAlive()).as("%s ended", t.getName()).isFalse();
    }
    // The facade's own threads carry the gateway's name alone; a pass's append their job.
    assertThat(List.copyOf(made).stream().filter(t -> !t.getName().contains("/kcshare-")))
        .as("the pass's thread, then the one finishing the close: the gateway's factory's")
        .hasSize(2);
    f.assertAllGone();
  }

  /**
   * A quick server and a slow one that never answers and outlives stdin EOF and SIGTERM (its
   * teardown takes its graces).
   */
  private static List<ConfiguredServer> quickAndSlow(Shareability kc, EmbedFixtures f) {
    return kc.servers(
        List.of(
            f.server("quick", "stable"),
            f.server("slow", "silent", "--ignore-eof", "1", "--ignore-sigterm", "1")));
  }

  /** An uncapped pass over {@code servers}, returned once the first of them is done. */
  private static BackgroundPass runningUntilQuickIsDone(
      Shareability kc, List<ConfiguredServer> servers) throws InterruptedException {
    CountDownLatch quickDone = new CountDownLatch(1);
    BackgroundPass pass =
        kc.startUncappedPass(
            servers,
            p -> {
              if (p.done() == 1) {
                quickDone.countDown();
              }
            });
    quickDone.await();
    return pass;
  }
}
