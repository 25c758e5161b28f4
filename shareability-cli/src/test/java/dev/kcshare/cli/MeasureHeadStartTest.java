package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.evaluation.FixtureFleet;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.HeldCacheLock;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A plain {@code measure SERVER} begins its pre-flight before picocli reads the command line
 * ({@link MeasureHeadStart}): what it spawns early is exactly what the command spawns, once, and a
 * spawn the command would not make is not made early either.
 */
@Isolated
final class MeasureHeadStartTest {
  @TempDir Path dir;
  private FixtureFleet fleet;

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

  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("KCSHARE_STDERR_TTY");
    env.remove("KCSHARE_STDOUT_TTY");
    env.remove("KCSHARE_RECORDS_DIR");
    env.remove("FIXTURE_TOKEN");
    return env;
  }

  private CliContext context() {
    return FixtureFleet.context(dir, env());
  }

  private static String[] measure(String... names) {
    String[] args = new String[names.length + 5];
    args[0] = "measure";
    System.arraycopy(names, 0, args, 1, names.length);
    System.arraycopy(
        new String[] {"--config", "cfg.json", "--records-dir", "records"},
        0,
        args,
        names.length + 1,
        4);
    return args;
  }

  @Test
  void theCommandTakesTheHeadStartAndSpawnsEachIdentityOnce() throws Exception {
    fleet = new FixtureFleet(dir).fixture("a", "stable");
    fleet.write();
    CliRun r = CliRun.run(dir, "", env(), measure("a"));
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    fleet.assertSpawns(Map.of("a", 2));
    assertThat(fleet.storedRow("a")).isNotNull();
    assertThat(fleet.storedRow("a").ran()).isTrue();
  }

  @Test
  void aHeadStartNobodyTakesIsTornDownAndReleasesTheLock() throws Exception {
    // A server that never answers: the head start is still in its exchange when it is closed.
    fleet = new FixtureFleet(dir).fixture("a", "silent");
    fleet.write();
    MeasureHeadStart early = MeasureHeadStart.begin(context(), measure("a"));
    assertThat(early).isNotNull();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (fleet.spawns("a") < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    fleet.assertSpawns(Map.of("a", 2));
    assertThat(CacheStore.open(fleet.cacheFile(), Duration.ZERO)).as("lock held").isNull();
    early.close();
    fleet.assertAllGone();
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), Duration.ZERO)) {
      assertThat(s).as("lock released").isNotNull();
      assertThat(s.cache().getByName("a")).as("nothing stored").isNull();
    }
    early.close(); // idempotent
  }

  @Test
  void aCacheFileItMustLeaveAsItIsEndsTheHeadStartWithNothingRunningAndTheLockFree()
      throws Exception {
    // The head start reads the cache while its server starts: a refused file ends it.
    fleet = new FixtureFleet(dir).fixture("a", "silent");
    fleet.write();
    Files.createDirectories(fleet.cacheFile().getParent());
    String refused = "{\"version\": 1, \"entries\": []}\n";
    Files.writeString(fleet.cacheFile(), refused);
    assertThat(MeasureHeadStart.begin(context(), measure("a"))).isNull();
    fleet.assertAllGone();
    try (CacheStore.Held lock = CacheStore.hold(fleet.cacheFile(), Duration.ZERO, null)) {
      assertThat(lock).as("lock released").isNotNull();
    }
    assertThat(Files.readString(fleet.cacheFile())).isEqualTo(refused);
    // The ordinary path reports it, as it did before any head start.
    CliRun r = CliRun.run(dir, "", env(), measure("a"));
    assertThat(r.exitCode()).as(r.stderr()).isNotZero();
    assertThat(r.stderr()).contains("is not a verdict cache this version understands");
    assertThat(Files.readString(fleet.cacheFile())).isEqualTo(refused);
  }

  @Test
  void nothingIsBegunForWhatTheCommandWouldNotSpawn() throws Exception {
    fleet =
        new FixtureFleet(dir)
            .fixture("a", "stable")
            .entry(
                "off", Map.of("command", "node", "args", java.util.List.of("x"), "disabled", true))
            .entry("web", Map.of("url", "http://localhost:1/mcp"));
    fleet.write();
    CliContext ctx = context();
    assertThat(MeasureHeadStart.begin(ctx, measure("nope"))).as("unknown").isNull();
    assertThat(MeasureHeadStart.begin(ctx, measure("off"))).as("disabled").isNull();
    assertThat(MeasureHeadStart.begin(ctx, measure("web"))).as("nothing to spawn").isNull();
    assertThat(MeasureHeadStart.begin(ctx, measure("a", "off"))).as("two names").isNull();
    assertThat(MeasureHeadStart.begin(ctx, "-v", "measure", "a", "--config", "cfg.json"))
        .as("not a plain line")
        .isNull();
    Files.writeString(dir.resolve("bad.json"), "{\"mcpServers\": {\"a\": {\"command\": 3}}}");
    assertThat(
            MeasureHeadStart.begin(
                ctx, "measure", "a", "--config", "bad.json", "--records-dir", "records"))
        .as("bad config")
        .isNull();
    fleet.assertSpawns(Map.of("a", 0));
    // The commands themselves answer as they always did.
    assertThat(CliRun.run(dir, "", env(), measure("nope")).exitCode()).isEqualTo(2);
    assertThat(CliRun.run(dir, "", env(), "measure", "a", "--config", "bad.json").exitCode())
        .isEqualTo(2);
    fleet.assertSpawns(Map.of("a", 0));
  }

  @Test
  void anotherPassHoldingTheLockMeansNoEarlySpawn() throws Exception {
    fleet = new FixtureFleet(dir).fixture("a", "stable");
    fleet.write();
    HeldCacheLock lock = HeldCacheLock.hold(fleet.cacheFile());
    CliRun[] waited = new CliRun[1];
    Thread waiter = null;
    try {
      assertThat(MeasureHeadStart.begin(context(), measure("a"))).isNull();
      CliRun busy =
          CliRun.run(
              dir,
              "",
              env(),
              "measure",
              "a",
              "--no-wait",
              "--json",
              "--config",
              "cfg.json",
              "--records-dir",
              "records");
      assertThat(busy.exitCode()).isZero();
      assertThat(busy.stdout().strip()).isEqualTo("[]");
      assertThat(busy.stderr()).contains("another measure pass is running");
      // Without --no-wait the command waits for the lock, and spawns only once it has it.
      StringWriter err = new StringWriter();
      waiter =
          new Thread(
              () ->
                  waited[0] =
                      CliRun.run(dir, "", env(), java.time.Clock.systemUTC(), err, measure("a")));
      waiter.start();
      Thread.sleep(500);
      fleet.assertSpawns(Map.of("a", 0));
    } finally {
      lock.close();
      if (waiter != null) {
        waiter.join(30_000);
      }
    }
    assertThat(waited[0].exitCode()).as(waited[0].stderr()).isZero();
    fleet.assertSpawns(Map.of("a", 2));
  }

  @Test
  void anInterruptedPassStopsTheHeadStartsPreflightAndReleasesTheLock() throws Exception {
    fleet = new FixtureFleet(dir).fixture("a", "silent");
    fleet.write();
    CliRun[] run = new CliRun[1];
    Thread pass = new Thread(() -> run[0] = CliRun.run(dir, "", env(), measure("a")));
    pass.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (fleet.spawns("a") < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    fleet.assertSpawns(Map.of("a", 2));
    pass.interrupt(); // what the shutdown hook does on SIGTERM
    pass.join(30_000);
    assertThat(pass.isAlive()).isFalse();
    assertThat(run[0].exitCode()).as(run[0].stderr()).isEqualTo(Main.EXIT_FAILURE);
    assertThat(run[0].stderr()).contains("kcshare: interrupted");
    fleet.assertAllGone();
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), Duration.ZERO)) {
      assertThat(s).as("lock released").isNotNull();
    }
  }

  @Test
  void aFailureWithoutPicocliReadsExactlyAsUnderPicocli() throws Exception {
    fleet = new FixtureFleet(dir).fixture("a", "stable");
    fleet.write();
    Path cache = fleet.cacheFile();
    dev.kcshare.host.records.AtomicFiles.simulateFault(
        (target, tmp) -> {
          if (target.equals(cache)) {
            throw new java.nio.file.FileSystemException(
                tmp.toString(), null, "No space left on device");
          }
        });
    try {
      // The same command: "--timeout 15" is a plain line (run without picocli), "015" is not.
      CliRun plain =
          CliRun.run(
              dir,
              "",
              env(),
              "measure",
              "a",
              "--timeout",
              "15",
              "--config",
              "cfg.json",
              "--records-dir",
              "records");
      CliRun picocli =
          CliRun.run(
              dir,
              "",
              env(),
              "measure",
              "a",
              "--timeout",
              "015",
              "--config",
              "cfg.json",
              "--records-dir",
              "records");
      assertThat(MeasureLine.parse("measure", "a", "--timeout", "015")).isNull();
      assertThat(plain.exitCode()).isNotZero().isEqualTo(picocli.exitCode());
      assertThat(plain.stderr()).startsWith("kcshare: ").isEqualTo(picocli.stderr());
      assertThat(plain.stdout()).isEqualTo(picocli.stdout());
    } finally {
      dev.kcshare.host.records.AtomicFiles.simulateFault(null);
    }
    fleet.assertSpawns(Map.of("a", 4));
  }
}
