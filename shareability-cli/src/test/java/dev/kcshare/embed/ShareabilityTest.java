package dev.kcshare.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.HostServers;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.RecordResult;
import dev.kcshare.api.RecordsException;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.policy.internal.GatewaySeeding;
import dev.kcshare.core.records.CacheCodec;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardRecord;
import dev.kcshare.core.records.IdentityHashes;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.HeldCacheLock;
import dev.kcshare.host.records.LedgerStore;
import dev.kcshare.host.records.RecordFile;
import dev.kcshare.host.records.RecordReader;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.report.EpochSeconds;
import dev.kcshare.host.report.RecordFileRead;
import dev.kcshare.host.report.RecordViews;
import dev.kcshare.host.report.RecordsSnapshot;
import dev.kcshare.host.seeding.SeedResult;
import dev.kcshare.host.seeding.SeedService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade's record-file contracts; none of these spawns a server. */
final class ShareabilityTest {
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

  private static final String UNROUTABLE = HazardCodes.UNROUTABLE_SERVER_REQUEST;

  /** Records every read, per file. */
  private static final class CountingReader implements RecordReader {
    final Map<Path, AtomicInteger> reads = new ConcurrentHashMap<>();

    @Override
    public RecordFile.Loaded<LedgerLoad> ledger(Path file, Predicate<String> names) {
      reads.computeIfAbsent(file, k -> new AtomicInteger()).incrementAndGet();
      return RecordReader.FILES.ledger(file, names);
    }

    @Override
    public RecordFile.Loaded<CacheLoad> cache(Path file, Predicate<String> names) {
      reads.computeIfAbsent(file, k -> new AtomicInteger()).incrementAndGet();
      return RecordReader.FILES.cache(file, names);
    }

    Map<Path, Integer> snapshotAndReset() {
      Map<Path, Integer> out = new HashMap<>();
      reads.forEach((k, v) -> out.put(k, v.get()));
      reads.clear();
      return out;
    }
  }

  /** A clock fixed at {@code epochSeconds}. */
  static Clock at(double epochSeconds) {
    return Clock.fixed(Instant.ofEpochMilli((long) (epochSeconds * 1000)), ZoneOffset.UTC);
  }

  /** A clock one second later on every read, from {@code epochSeconds}. */
  private static final class TickingClock extends Clock {
    private final AtomicInteger tick = new AtomicInteger();
    private final long start;

    TickingClock(long epochSeconds) {
      this.start = epochSeconds;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochSecond(start + tick.incrementAndGet());
    }
  }

  private static List<ServerDefinition> fleet(int n) {
    List<ServerDefinition> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(ServerDefinition.stdio("server-" + i, "/bin/sh", List.of("-c", "exit " + i)));
    }
    return out;
  }

  /** The record views of the facade's records directory, as the commands build them. */
  private static RecordViews views(Shareability kc) {
    return new RecordViews(
        new RecordsDirectory(kc.recordsDirectory(), RecordsDirectory.Rule.OPTION),
        RecordReader.FILES);
  }

  /** Seeding over the facade's records directory, as the commands build it. */
  private static SeedService seeds(Shareability kc) {
    return new SeedService(
        new RecordsDirectory(kc.recordsDirectory(), RecordsDirectory.Rule.OPTION),
        RecordReader.FILES);
  }

  @Test
  void hostServersReadTheHostsClientConfigsAsTheCommandDoes(@TempDir Path dir) throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path work = Files.createDirectories(dir.resolve("work"));
    Files.createDirectories(home.resolve(".cursor"));
    Files.writeString(
        home.resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"files\": {\"command\": \"/bin/sh\", \"env\": {\"TEAM\": \"a\"}},"
            + " \"docs\": {\"url\": \"https://x.test/mcp\", \"type\": \"http\"}}}");
    Files.createDirectories(home.resolve(".codeium/windsurf"));
    Files.writeString(home.resolve(".codeium/windsurf/mcp_config.json"), "{\"mcpServers\": [");
    Files.createDirectories(home.resolve(".kiro/crew"));
    Files.writeString(
        home.resolve(".kiro/crew/config.json"),
        "{\"mcp_gateway\": {\"enabled\": true, \"pool_identity_env\": [\"TEAM\"]}}");
    Shareability kc =
        track(
            Shareability.builder(dir.resolve("records"))
                .environment(Map.of("HOME", home.toString()))
                .workingDirectory(work)
                .clock(at(1000.0))
                .build());

    HostServers host = kc.hostServers(ConfigRequest.discovery());

    assertThat(host.servers()).extracting(ConfiguredServer::name).containsExactly("files", "docs");
    ConfiguredDefinition files = host.server("files").orElseThrow().first();
    assertThat(files.file()).isEqualTo("~/.cursor/mcp.json");
    assertThat(files.pointer()).isEqualTo("/mcpServers/files");
    assertThat(files.format()).isEqualTo("cursor");
    assertThat(files.client()).isEqualTo("Cursor");
    assertThat(files.identity()).isNotNull();
    assertThat(host.skipped()).singleElement().asString().startsWith("~/.codeium/windsurf/");
    assertThat(host.errors()).isEmpty();
    assertThat(host.profileName()).isEqualTo("kirocrew");
    // One value: the commands' view of the host's servers is the very object the facade returns.
    assertThat(HostConfig.of(host)).isSameAs(host);
    assertThat(HostConfig.of(host).identityKeys()).isEqualTo(host.identityKeys());
    assertThat(host.identityKeys()).containsExactly("TEAM");
    assertThat(host.gatewaySection()).hasValueSatisfying(s -> assertThat(s).containsKey("enabled"));
    assertThat(host.files())
        .filteredOn(f -> f.status() == ConfigFile.Status.READ)
        .extracting(ConfigFile::display)
        .contains("~/.cursor/mcp.json");

    assertThat(kc.verdicts(host, host.servers()))
        .extracting(ServerVerdict::name)
        .containsExactly("files", "docs");

    assertThatThrownBy(() -> kc.hostServers(ConfigRequest.discovery().profile("nope")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--profile nope: expected default or kirocrew");
  }

  @Test
  void failedPreflightsAreTheAttemptsUnderEachServersCurrentIdentityMasked(@TempDir Path dir)
      throws Exception {
    Shareability kc = track(Shareability.builder(dir.resolve("records")).clock(at(1000.0)).build());
    List<ConfiguredServer> servers =
        kc.servers(
            List.of(
                ServerDefinition.builder("keyed")
                    .command("/bin/sh")
                    .args(List.of("-c", "exit 3"))
                    .env(Map.of("API_KEY", "sk-live-abcdef123456"))
                    .build(),
                ServerDefinition.stdio("edited", "/bin/sh", List.of("-c", "exit 4")),
                ServerDefinition.stdio("fine", "/bin/sh", List.of("-c", "exit 0"))));
    double at = 1796019386.626123;
    Files.createDirectories(kc.recordsDirectory());
    Files.writeString(
        kc.recordsDirectory().resolve("kcshare-attempts.json"),
        JsonWriter.pretty(
            dev.kcshare.core.records.internal.AttemptsCodec.encode(
                Map.of(
                    "keyed",
                    new AttemptRecord(
                        at,
                        Objects.requireNonNull(servers.get(0).commonIdentity()),
                        "bad key sk-live-abcdef123456",
                        "3",
                        "fixture: key sk-live-abcdef123456 refused",
                        2),
                    "edited",
                    new AttemptRecord(
                        at, "an-identity-before-the-edit", "no response", null, "", 1)))));

    Map<String, AttemptRecord> failed = views(kc).failedPreflights(kc.verdicts(servers));

    assertThat(failed).containsOnlyKeys("keyed");
    AttemptRecord keyed = failed.get("keyed");
    assertThat(keyed.detail()).isEqualTo("bad key ***");
    assertThat(keyed.stderrTail()).isEqualTo("fixture: key *** refused");
    assertThat(keyed.exitStatus()).isEqualTo("3");
    assertThat(keyed.failures()).isEqualTo(2);
    assertThat(keyed.at()).isEqualTo(at);
  }

  @Test
  void failedPreflightsOfACorruptAttemptsFileAreNone(@TempDir Path dir) throws Exception {
    Shareability kc = track(Shareability.builder(dir.resolve("records")).build());
    List<ConfiguredServer> servers = kc.servers(fleet(1));
    Files.createDirectories(kc.recordsDirectory());
    Files.writeString(kc.recordsDirectory().resolve("kcshare-attempts.json"), "{not json");

    assertThat(views(kc).failedPreflights(kc.verdicts(servers))).isEmpty();
  }

  @Test
  void aVerdictCarriesTheStoredMeasurementTimeNotARoundedOne(@TempDir Path dir) throws Exception {
    Shareability kc = track(Shareability.builder(dir.resolve("records")).clock(at(1000.0)).build());
    List<ConfiguredServer> servers = kc.servers(fleet(1));
    double stored = 1796019386.626123;
    try (CacheStore.Session s = CacheStore.open(kc.cacheFile(), null)) {
      s.cache().put("server-0", EmbedFixtures.measuredRow(servers.get(0).commonIdentity(), stored));
      s.flush();
    }
    Instant at = kc.verdicts(servers).get(0).measuredAt().orElseThrow();
    assertThat(EpochSeconds.seconds(at)).isEqualTo(stored);
    assertThat(Duration.between(Instant.ofEpochSecond(1796019386, 626_123_000), at).abs())
        .isLessThan(Duration.ofNanos(1_000));
  }

  @Test
  void verdictsReadEachRecordFileExactlyOncePerCall(@TempDir Path dir) throws Exception {
    CountingReader reader = new CountingReader();
    Shareability kc =
        track(
            Shareability.builder(dir.resolve("records"))
                .clock(at(1000.0))
                .recordReader(reader)
                .build());
    List<ConfiguredServer> servers = kc.servers(fleet(6));
    // records for some rows: a hazard for server-1, a measurement for server-2
    LedgerWriter writer = kc.openLedger();
    writer.record("server-1", UNROUTABLE, "launch");
    assertThat(writer.flush()).isTrue();
    try (CacheStore.Session s = CacheStore.open(kc.cacheFile(), null)) {
      s.cache().put("server-2", EmbedFixtures.measuredRow(servers.get(2).commonIdentity(), 9.0));
      s.flush();
    }
    Path ledgerFile = kc.ledgerFile();
    Path cacheFile = kc.cacheFile();

    for (int call = 0; call < 2; call++) {
      List<ServerVerdict> rows = kc.verdicts(servers);
      assertThat(reader.snapshotAndReset())
          .as("reads of call %d", call)
          .containsExactlyInAnyOrderEntriesOf(Map.of(ledgerFile, 1, cacheFile, 1));
      assertThat(rows).hasSize(6);
      assertThat(rows.get(1).verdict().strength()).isEqualTo(Strength.REFUTED);
      assertThat(rows.get(2).verdict().strength()).isEqualTo(Strength.MEASURED);
      assertThat(rows.get(2).measuredAt()).contains(Instant.ofEpochSecond(9));
      assertThat(rows.get(0).verdict().strength()).isEqualTo(Strength.UNKNOWN);
    }

    reader.snapshotAndReset();
    List<ServerVerdict> rows = kc.verdicts(servers, writer);
    assertThat(reader.snapshotAndReset())
        .as("a live-ledger report reads the cache once and the ledger file never")
        .containsExactlyInAnyOrderEntriesOf(Map.of(cacheFile, 1));
    assertThat(rows.get(1).verdict().strength()).isEqualTo(Strength.REFUTED);
  }

  @Test
  void liveVerdictsSeeAnUnflushedHazardAndAClearOnceFlushed(@TempDir Path dir) throws Exception {
    Shareability kc = track(Shareability.builder(dir).clock(at(50.0)).build());
    List<ConfiguredServer> servers = kc.servers(fleet(2));
    LedgerWriter ledger = kc.openLedger();

    assertThat(ledger.record("server-0", UNROUTABLE, "launch-a")).isEqualTo(RecordResult.RECORDED);

    ServerVerdict live = kc.verdicts(servers, ledger).get(0);
    assertThat(live.verdict().strength()).isEqualTo(Strength.REFUTED);
    assertThat(live.verdict().reasons())
        .containsExactly(new Reason(ReasonCode.OBSERVED_HAZARD, UNROUTABLE));
    assertThat(kc.verdicts(servers, ledger).get(1).verdict().strength())
        .isEqualTo(Strength.UNKNOWN);
    assertThat(kc.verdicts(servers).get(0).verdict().strength())
        .as("not flushed yet: the file knows nothing")
        .isEqualTo(Strength.UNKNOWN);

    assertThat(ledger.flush()).isTrue();
    assertThat(kc.verdicts(servers).get(0).verdict().strength()).isEqualTo(Strength.REFUTED);

    // an operator clears from another process: the file forgets at once, the live writer at its
    // next flush
    assertThat(LedgerStore.clearInFile(kc.ledgerFile(), "server-0", 60.0)).isTrue();
    assertThat(kc.verdicts(servers).get(0).verdict().strength()).isEqualTo(Strength.UNKNOWN);
    assertThat(kc.verdicts(servers, ledger).get(0).verdict().strength())
        .isEqualTo(Strength.REFUTED);
    assertThat(ledger.flush()).isTrue();
    assertThat(kc.verdicts(servers, ledger).get(0).verdict().strength())
        .isEqualTo(Strength.UNKNOWN);
    assertThat(kc.verdicts(servers).get(0).verdict().strength()).isEqualTo(Strength.UNKNOWN);
  }

  @Test
  void concurrentRecordingAndFlushingLosesNothing(@TempDir Path dir) throws Exception {
    Shareability kc = track(Shareability.builder(dir).clock(new TickingClock(1_000)).build());
    LedgerWriter ledger = kc.openLedger();
    int threads = 4;
    int perThread = 3_000;
    String[] names = {"alpha", "beta", "gamma"};
    String[] identities = {"", "launch-1", "launch-2"};
    String[] codes = HazardCodes.ALL.toArray(String[]::new);

    // what each (name, identity) must end with
    Map<String, Long> expectedCount = new HashMap<>();
    Map<String, Set<String>> expectedCodes = new HashMap<>();
    for (int t = 0; t < threads; t++) {
      for (int i = 0; i < perThread; i++) {
        int k = t * perThread + i;
        String key = names[k % 3] + "/" + identities[(k / 3) % 3];
        expectedCount.merge(key, 1L, Long::sum);
        expectedCodes
            .computeIfAbsent(key, x -> new java.util.TreeSet<>())
            .add(codes[(k / 9) % codes.length]);
      }
    }

    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean recording = new AtomicBoolean(true);
    AtomicInteger flushes = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> recorders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      recorders.add(
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    int k = thread * perThread + i;
                    ledger.record(
                        names[k % 3], codes[(k / 9) % codes.length], identities[(k / 3) % 3]);
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              }));
    }
    Thread flusher =
        new Thread(
            () -> {
              try {
                start.await();
                while (recording.get()) {
                  ledger.flush();
                  flushes.incrementAndGet();
                }
              } catch (Throwable e) {
                failure.compareAndSet(null, e);
              }
            });
    recorders.forEach(Thread::start);
    flusher.start();
    start.countDown();
    for (Thread r : recorders) {
      r.join();
    }
    recording.set(false);
    flusher.join();
    assertThat(failure.get()).isNull();
    assertThat(flushes.get()).isPositive();
    assertThat(ledger.flush()).isTrue();
    assertThat(ledger.store().ledger().isDirty()).isFalse();

    LedgerLoad file = LedgerStore.read(kc.ledgerFile());
    Map<String, Long> count = new HashMap<>();
    Map<String, Set<String>> seen = new HashMap<>();
    for (Map.Entry<String, SortedMap<String, HazardRecord>> server : file.servers().entrySet()) {
      for (Map.Entry<String, HazardRecord> id : server.getValue().entrySet()) {
        String key = server.getKey() + "/" + id.getKey();
        count.put(key, id.getValue().count());
        seen.put(key, Set.copyOf(id.getValue().codes()));
      }
    }
    assertThat(count).isEqualTo(expectedCount);
    assertThat(seen).isEqualTo(expectedCodes);
    assertThat(expectedCount.values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo((long) threads * perThread);
  }

  @Test
  void budgetedPassNeverWaitsForARunningPass(@TempDir Path dir) throws Exception {
    Shareability kc = track(Shareability.builder(dir.resolve("records")).build());
    String missing = dir.resolve("no-such-server").toString();
    List<ConfiguredServer> servers =
        kc.servers(
            List.of(
                ServerDefinition.stdio("stale", missing, List.of()),
                ServerDefinition.stdio("never-measured", missing, List.of("x"))));
    Path cacheFile = kc.cacheFile();
    String olderBuild = ExecutionIdentity.cacheIdentity("older", "build", "unknown");
    try (CacheStore.Session s = CacheStore.open(cacheFile, null)) {
      s.cache().put("stale", EmbedFixtures.measuredRow(olderBuild, 7.0));
      s.flush();
    }

    // Another pass holds the lock (another thread here; another process is the same lock).
    HeldCacheLock lock = HeldCacheLock.hold(cacheFile);
    PassResult yielded;
    try {
      // The holder lets go only after the pass returned: a pass that waited would never return.
      yielded = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> kc.budgetedPass(servers));
    } finally {
      lock.close();
    }
    assertThat(lock.failure()).isNull();
    assertThat(yielded.outcome()).isEqualTo(PassResult.Outcome.YIELDED);
    assertThat(yielded.fresh()).isEmpty();
    assertThat(yielded.stored()).containsOnlyKeys("stale");
    assertThat(yielded.stored().get("stale").identity())
        .as("rows are read by name when yielding")
        .isEqualTo(olderBuild);

    // With the lock free, the same call runs (and tries both servers, which cannot start).
    PassResult ran = kc.budgetedPass(servers);
    assertThat(ran.outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(ran.fresh()).hasSize(2).allSatisfy(r -> assertThat(r.result().ran()).isFalse());
    assertThat(ran.progress().done()).isEqualTo(2);
    assertThat(ran.progress().measured()).isZero();
  }

  @Test
  void aRecordsDirectoryOthersCanWriteIsNeverWrittenAndEveryWriteSaysWhy(@TempDir Path dir)
      throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    Files.setPosixFilePermissions(records, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (Shareability kc = Shareability.builder(records).clock(at(10.0)).build()) {
      List<ConfiguredServer> servers =
          kc.servers(
              List.of(ServerDefinition.stdio("gone", dir.resolve("none").toString(), List.of())));
      String refusal = "records directory " + records + " is writable by others (owner ";

      // A pass, and a clear: the environment problem the API reports, naming the fix.
      for (org.assertj.core.api.ThrowableAssert.ThrowingCallable write :
          List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
              () -> kc.budgetedPass(servers), () -> kc.clearHazards("gone"))) {
        org.assertj.core.api.Assertions.assertThatThrownBy(write)
            .isInstanceOfSatisfying(
                RecordsException.class,
                p -> {
                  assertThat(p.path()).isEqualTo(records);
                  assertThat(p.getMessage())
                      .startsWith(refusal)
                      .endsWith(", mode 0777): run chmod go-w " + records);
                });
      }
      // A flush keeps the evidence in memory and reports false, as for any unwritable directory.
      LedgerWriter ledger = kc.openLedger();
      ledger.record("gone", UNROUTABLE, "");
      assertThat(ledger.flush()).isFalse();
      assertThat(ledger.codesForName("gone")).contains(UNROUTABLE);
      try (var written = Files.list(records)) {
        assertThat(written).as("nothing is written in the directory").isEmpty();
      }

      // Once only its owner can write it, the same writer's next flush succeeds.
      Files.setPosixFilePermissions(records, PosixFilePermissions.fromString("rwx------"));
      assertThat(ledger.flush()).isTrue();
      assertThat(LedgerStore.read(kc.ledgerFile()).servers()).containsKey("gone");
    }
  }

  @Test
  void aSymlinkedRecordsDirectoryIsTheSameLockAndBusyIsNeverAnException(@TempDir Path dir)
      throws Exception {
    Path real = Files.createDirectories(dir.resolve("records"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    Shareability viaReal = track(Shareability.builder(real).clock(at(10.0)).build());
    Shareability viaLink = track(Shareability.builder(link).clock(at(10.0)).build());
    List<ConfiguredServer> servers =
        viaLink.servers(
            List.of(ServerDefinition.stdio("gone", dir.resolve("none").toString(), List.of())));

    // A pass holds the cache lock through the real path; a budgeted pass through the link yields.
    CacheStore.Session held = CacheStore.open(viaReal.cacheFile(), null);
    try {
      assertThat(viaLink.budgetedPass(servers).outcome()).isEqualTo(PassResult.Outcome.YIELDED);
      // Another thread closes the session (twice): the lock is free again for everyone.
      Thread closer =
          new Thread(
              () -> {
                try {
                  held.close();
                  held.close();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      closer.start();
      closer.join();
      assertThat(viaLink.budgetedPass(servers).outcome()).isEqualTo(PassResult.Outcome.RAN);
    } finally {
      held.close();
    }

    // Two writers of one ledger, one through each path, flushing at once: both succeed.
    LedgerWriter a = viaReal.openLedger();
    LedgerWriter b = viaLink.openLedger();
    a.record("s-a", UNROUTABLE, "id");
    b.record("s-b", UNROUTABLE, "id");
    CountDownLatch go = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean flushedA = new AtomicBoolean();
    Thread t =
        new Thread(
            () -> {
              try {
                go.await();
                flushedA.set(a.flush());
              } catch (Throwable e) {
                failure.set(e);
              }
            });
    t.start();
    go.countDown();
    boolean flushedB = b.flush();
    t.join();
    assertThat(failure.get()).isNull();
    assertThat(flushedA.get()).isTrue();
    assertThat(flushedB).isTrue();
  }

  @Test
  void launchIdentityIsThePoolKeyIdentity(@TempDir Path dir) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path tool = bin.resolve("tool");
    byte[] script = "#!/bin/sh\nexit 0\n".getBytes(StandardCharsets.UTF_8);
    Files.write(tool, script);
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwx------"));
    ServerDefinition def =
        ServerDefinition.builder("tool")
            .command("tool")
            .args(List.of("serve", "--port", "1"))
            .env(Map.of("OAUTH_TOKEN", "t-1", "MODE", "x"))
            .build();
    Map<String, String> env = Map.of("PATH", bin.toString());

    Shareability plain =
        track(Shareability.builder(dir).environment(env).workingDirectory(dir).build());
    String identity = plain.launchIdentity(def);
    assertThat(identity)
        .isEqualTo(
            ExecutionIdentity.launchIdentity(
                IdentityHashes.commandArgsHash(tool.toString(), def.args()),
                IdentityHashes.envHash(def.env(), Set.of()),
                ExecutionIdentity.fingerprintOfContent(script)));
    assertThat(identity.split("\0", -1)).hasSize(3);
    assertThat(identity)
        .as("not the verdict-cache identity")
        .isNotEqualTo(plain.servers(List.of(def)).get(0).commonIdentity());

    Shareability keyed =
        track(
            Shareability.builder(dir)
                .environment(env)
                .workingDirectory(dir)
                .identityKeys(Set.of("OAUTH_TOKEN"))
                .build());
    assertThat(keyed.launchIdentity(def))
        .as("an identity key joins the env hash")
        .isNotEqualTo(identity)
        .endsWith(identity.substring(identity.lastIndexOf('\0')));
    ServerDefinition rotated =
        ServerDefinition.builder("tool")
            .command("tool")
            .args(def.args())
            .env(Map.of("OAUTH_TOKEN", "t-2", "MODE", "x"))
            .build();
    assertThat(keyed.launchIdentity(rotated)).isNotEqualTo(keyed.launchIdentity(def));
    assertThat(plain.launchIdentity(rotated))
        .as("a rotated secret that is not an identity key leaves the identity alone")
        .isEqualTo(identity);
  }

  @Test
  void aRelativeRecordsDirectoryIsTakenAgainstTheWorkingDirectory(@TempDir Path dir)
      throws Exception {
    Shareability kc =
        track(
            Shareability.builder(Path.of("records")).workingDirectory(dir).clock(at(5.0)).build());
    assertThat(kc.recordsDirectory()).isEqualTo(dir.resolve("records"));
    assertThat(kc.ledgerFile()).isEqualTo(dir.resolve("records").resolve("observed-hazards.json"));
    LedgerWriter ledger = kc.openLedger();
    ledger.record("s", UNROUTABLE, "");
    ledger.close();
    assertThat(LedgerStore.read(dir.resolve("records/observed-hazards.json")).servers())
        .containsOnlyKeys("s");
    kc.close();
  }

  @Test
  void anHttpDefinitionWithACommandIsNotStdioAsInTheConfigReader(@TempDir Path dir) {
    Shareability kc = track(Shareability.builder(dir).workingDirectory(dir).build());
    ServerDefinition http =
        ServerDefinition.builder("remote")
            .command("npx")
            .args(List.of("remote-mcp"))
            .url("https://x/mcp")
            .type("http")
            .build();
    ConfiguredServer s = kc.servers(List.of(http)).get(0);
    assertThat(s.isStdio()).isFalse();
    assertThat(s.commonIdentity()).isNull();
    assertThat(kc.verdicts(List.of(s)).get(0).evidence().isStdio()).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> kc.launchIdentity(http))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void seedLeavesAnUnknownVerdictUnmarkedAndSeedsItOnceMeasured(@TempDir Path dir)
      throws Exception {
    Shareability kc =
        track(Shareability.builder(dir.resolve("records")).workingDirectory(dir).build());
    List<ConfiguredServer> servers =
        kc.servers(List.of(ServerDefinition.stdio("files-mcp", "/bin/sh", List.of("-c", ":"))));
    Map<String, Object> section = new HashMap<>();
    AtomicInteger writes = new AtomicInteger();

    Seeding.SeedPlan first = kc.seed(section, kc.verdicts(servers), s -> writes.incrementAndGet());

    assertThat(kc.verdicts(servers).get(0).verdict().strength()).isEqualTo(Strength.UNKNOWN);
    assertThat(first.markApplied()).as("never measured: its one seed is not used up").isEmpty();
    assertThat(CacheStore.read(kc.cacheFile()).applied()).isEmpty();
    assertThat(writes).hasValue(0);

    String identity = servers.get(0).commonIdentity();
    Files.createDirectories(kc.recordsDirectory());
    Files.writeString(
        kc.cacheFile(),
        JsonWriter.pretty(
            CacheCodec.encode(
                Map.of("files-mcp", EmbedFixtures.measuredRow(identity, 1.0)), List.of())));
    Seeding.SeedPlan second = kc.seed(section, kc.verdicts(servers), s -> writes.incrementAndGet());

    assertThat(second.addStub()).containsExactly("files-mcp");
    assertThat(second.markApplied()).containsExactly("files-mcp");
    assertThat(CacheStore.read(kc.cacheFile()).applied()).containsExactly("files-mcp");
    assertThat(section.get("stub_overrides")).isEqualTo(Map.of("files-mcp", true));
    assertThat(writes).hasValue(1);
  }

  @Test
  void planSeedAndApplySeedSayWhatTheyDidFromTheRecordsTheyRead(@TempDir Path dir)
      throws Exception {
    Shareability kc =
        track(Shareability.builder(dir.resolve("records")).workingDirectory(dir).build());
    List<ConfiguredServer> servers =
        kc.servers(
            List.of(
                ServerDefinition.stdio("a", "/bin/sh", List.of("-c", "a")),
                ServerDefinition.stdio("b", "/bin/sh", List.of("-c", "b")),
                ServerDefinition.stdio("never", "/bin/sh", List.of("-c", "n"))));
    Files.createDirectories(kc.recordsDirectory());
    Files.writeString(
        kc.cacheFile(),
        JsonWriter.pretty(
            CacheCodec.encode(
                Map.of(
                    "a", EmbedFixtures.measuredRow(servers.get(0).commonIdentity(), 1.0),
                    "b", EmbedFixtures.measuredRow(servers.get(1).commonIdentity(), 1.0)),
                List.of())));
    Map<String, Object> section = new HashMap<>();
    section.put("stub_overrides", new HashMap<>(Map.of("b", false)));
    List<String> seenApplied = new ArrayList<>();
    SeedService.SeedVerdicts fromTheRecords =
        (ledger, cache) -> {
          seenApplied.addAll(cache.applied());
          return kc.verdicts(servers).stream().map(ServerVerdict::verdict).toList();
        };

    Seeding.SeedPlan plan = seeds(kc).planSeed(section, fromTheRecords);
    assertThat(plan.addStub()).containsExactly("a", "b");
    assertThat(plan.markApplied()).containsExactly("a", "b");
    assertThat(CacheStore.read(kc.cacheFile()).applied()).as("a plan writes nothing").isEmpty();

    AtomicInteger writes = new AtomicInteger();
    SeedResult seeded = seeds(kc).applySeed(section, fromTheRecords, s -> writes.incrementAndGet());
    assertThat(seeded.plan()).isEqualTo(plan);
    assertThat(seeded.added()).containsExactly("a");
    assertThat(seeded.keptExplicit()).as("the operator's false stays").containsExactly("b");
    assertThat(seeded.sectionChanged()).isTrue();
    assertThat(seeded.markersWritten()).isTrue();
    assertThat(section.get("stub_overrides")).isEqualTo(Map.of("a", true, "b", false));
    assertThat(writes).hasValue(1);

    SeedResult again = seeds(kc).applySeed(section, fromTheRecords, s -> writes.incrementAndGet());
    assertThat(seenApplied).as("the markers as each seed read them").containsExactly("a", "b");
    assertThat(again.plan().isEmpty()).isTrue();
    assertThat(again.sectionChanged()).isFalse();
    assertThat(again.markersWritten()).isFalse();
    assertThat(writes).hasValue(1);
  }

  @Test
  void eligibilityOverTheRecordFilesStubsOnlyWhatTheEvidenceAllows(@TempDir Path dir)
      throws Exception {
    Shareability kc =
        track(Shareability.builder(dir.resolve("records")).workingDirectory(dir).build());
    List<ConfiguredServer> servers =
        kc.servers(
            List.of(
                ServerDefinition.stdio("a", "/bin/sh", List.of("-c", "a")),
                ServerDefinition.stdio("never", "/bin/sh", List.of("-c", "n"))));
    Files.createDirectories(kc.recordsDirectory());
    Files.writeString(
        kc.cacheFile(),
        JsonWriter.pretty(
            CacheCodec.encode(
                Map.of("a", EmbedFixtures.measuredRow(servers.get(0).commonIdentity(), 1.0)),
                List.of())));
    Map<String, ServerFacts> facts = new HashMap<>();
    servers.forEach(s -> facts.put(s.name(), s.facts()));

    Eligibility.Result result =
        views(kc)
            .eligibility(
                List.of("a", "never", "nonesuch", "a"),
                new Eligibility.Settings(false, true, Set.of(), HostProfile.empty()),
                facts);

    assertThat(result.stubbed()).containsExactly("a");
    assertThat(result.skipped())
        .containsExactly(
            new Eligibility.Skip("never", Eligibility.SkipReason.EVIDENCE_INSUFFICIENT),
            new Eligibility.Skip("nonesuch", Eligibility.SkipReason.UNKNOWN));

    try (LedgerWriter ledger = kc.openLedger()) {
      ledger.record("a", UNROUTABLE, "");
      ledger.flush();
    }
    Eligibility.Settings off = new Eligibility.Settings(false, true, Set.of(), HostProfile.empty());
    assertThat(views(kc).eligibility(List.of("a"), off, facts).skipped())
        .as("a hazard in the ledger file counts")
        .containsExactly(new Eligibility.Skip("a", Eligibility.SkipReason.EVIDENCE_INSUFFICIENT));
  }

  @Test
  void readLedgerAndReadRecordsSayWhatEachFileHoldsAndWhyNot(@TempDir Path dir) throws Exception {
    Shareability kc =
        track(Shareability.builder(dir.resolve("records")).workingDirectory(dir).build());
    RecordsSnapshot empty = views(kc).readRecords();
    assertThat(empty.directory()).isEqualTo(dir.resolve("records"));
    assertThat(empty.ledger().exists()).isFalse();
    assertThat(empty.ledger().isComplete()).isTrue();
    assertThat(empty.attempts().exists()).isFalse();
    assertThat(empty.processFileExists()).isFalse();
    assertThat(empty.processes()).isZero();

    try (LedgerWriter ledger = kc.openLedger()) {
      ledger.record("files-mcp", UNROUTABLE, "id");
      ledger.flush();
    }
    Files.writeString(kc.cacheFile(), "{not json");

    RecordFileRead<LedgerLoad> ledger = views(kc).readLedger();
    assertThat(ledger.file()).isEqualTo(kc.ledgerFile());
    assertThat(ledger.contents().servers()).containsOnlyKeys("files-mcp");
    assertThat(ledger.problem()).isEmpty();
    RecordFileRead<CacheLoad> cache = views(kc).readRecords().cache();
    assertThat(cache.exists()).isTrue();
    assertThat(cache.usable()).isFalse();
    assertThat(cache.isComplete()).isFalse();
    assertThat(cache.problem()).hasValueSatisfying(p -> assertThat(p).contains("corrupt"));
    assertThat(cache.contents().rows()).isEmpty();
  }

  @Test
  void gatewaySeedMarkersAreRecordedOnlyAfterTheEditAndOnce(@TempDir Path dir) throws Exception {
    Shareability kc =
        track(Shareability.builder(dir.resolve("records")).workingDirectory(dir).build());
    GatewaySeeding.Gateway hub = GatewaySeeding.Gateway.MCPHUB;
    List<GatewaySeeding.Entry> entries =
        List.of(new GatewaySeeding.Entry("x", GatewaySeeding.Kind.SERVER, true, false, false));
    assertThat(seeds(kc).gatewaySeeded(hub)).isEmpty();

    IOException failed = new IOException("disk full");
    assertThatThrownBy(
            () ->
                seeds(kc)
                    .applyGatewaySeed(
                        hub,
                        seeded -> {
                          throw failed;
                        }))
        .isSameAs(failed);
    assertThat(seeds(kc).gatewaySeeded(hub)).as("nothing recorded when the edit fails").isEmpty();

    List<Set<String>> seen = new ArrayList<>();
    SeedService.GatewayEdit<RuntimeException> edit =
        seeded -> {
          seen.add(seeded);
          return GatewaySeeding.plan(hub, entries, seeded, name -> false);
        };
    assertThat(seeds(kc).applyGatewaySeed(hub, edit)).isTrue();
    assertThat(seeds(kc).applyGatewaySeed(hub, edit)).as("seeded once").isFalse();
    assertThat(seen).containsExactly(Set.of(), Set.of("x"));
    assertThat(seeds(kc).gatewaySeeded(hub)).containsExactly("x");
    assertThat(seeds(kc).gatewaySeeded(GatewaySeeding.Gateway.ONE_MCP)).isEmpty();

    Path markers = dir.resolve("records/kcshare-seeded-mcphub.json");
    Files.writeString(markers, "[]");
    assertThatThrownBy(() -> seeds(kc).gatewaySeeded(hub))
        .isInstanceOfSatisfying(
            RecordsException.class,
            e -> {
              assertThat(e.isRefused()).isTrue();
              assertThat(e.path()).isEqualTo(markers);
              assertThat(e.getMessage()).contains("move it aside");
            });
  }

  @Test
  void aConflictingNameHasNoIdentityAndIsNeverMeasured(@TempDir Path dir) throws Exception {
    Shareability kc =
        track(Shareability.builder(dir.resolve("records")).workingDirectory(dir).build());
    String missing = dir.resolve("none").toString();
    List<ConfiguredServer> servers =
        kc.servers(
            List.of(
                ServerDefinition.stdio("twice", missing, List.of("a")),
                ServerDefinition.stdio("twice", missing, List.of("b"))));
    assertThat(servers)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.definitions()).hasSize(2);
              assertThat(s.isConflicting()).isTrue();
              assertThat(s.commonIdentity()).isNull();
            });
    PassResult pass = kc.budgetedPass(servers);
    assertThat(pass.fresh()).as("not measured under its first definition").isEmpty();
    assertThat(pass.progress().total()).isZero();
    kc.close();
  }

  @Test
  void theLedgerWritersReadsAreCopies(@TempDir Path dir) {
    Shareability kc = track(Shareability.builder(dir).clock(at(5.0)).build());
    LedgerWriter ledger = kc.openLedger();
    ledger.record("s", UNROUTABLE, "id");
    List<String> codes = ledger.codesForName("s");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> codes.add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ledger.all().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(ledger.store().ledger())
        .as("the store hands out a read-only view, not the live ledger")
        .isNotInstanceOf(dev.kcshare.core.records.HazardLedger.class);
    assertThat(ledger.codesFor("s", "id")).containsExactly(UNROUTABLE);
    kc.close();
  }
}
