package dev.kcshare.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.HostServers;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.RecordResult;
import dev.kcshare.api.RecordsException;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.host.config.GatewaySettings;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.ProfileSelection;
import dev.kcshare.host.prober.ProbeShutdown;
import dev.kcshare.host.records.FileLock;
import dev.kcshare.host.records.LedgerStore;
import dev.kcshare.host.report.VerdictRecords;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

/**
 * What a gateway relies on: one exception for environment problems, a record that reports what it
 * did without logging on the routing thread, a lifecycle whose end is final and quiet, and a facade
 * that refuses writers it did not open. Isolated: it reads kcshare's log and the JVM's shutdown
 * hook, which other tests would disturb.
 */
@Isolated
final class EmbeddingContractTest {
  private static final String CODE = HazardCodes.UNROUTABLE_SERVER_REQUEST;
  private static final InstantSource AT = InstantSource.fixed(Instant.ofEpochSecond(1_000));

  @TempDir Path dir;
  private final List<Shareability> opened = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger kcshare = (Logger) LoggerFactory.getLogger("dev.kcshare");

  @BeforeEach
  void captureTheLog() {
    logs.start();
    kcshare.addAppender(logs);
    kcshare.setLevel(Level.DEBUG);
  }

  @AfterEach
  void closeFacadesAndReleaseTheLog() {
    opened.forEach(Shareability::close);
    kcshare.detachAppender(logs);
    kcshare.setLevel(null);
  }

  private Shareability track(Shareability kc) {
    opened.add(kc);
    return kc;
  }

  private Shareability facade(Path records) {
    return track(Shareability.builder(records).workingDirectory(dir).clock(AT).build());
  }

  /** A records directory that cannot be created: a file is in its place. */
  private Path blockedRecords() throws IOException {
    return Files.writeString(dir.resolve("records"), "a file where the directory should be");
  }

  private List<String> logged(Level atLeast) {
    return logs.list.stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(atLeast))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  private static void assertNoInternalTypeIn(Throwable thrown) {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      assertThat(t.getClass().getName()).doesNotStartWith("dev.kcshare.host");
    }
  }

  // ------------------------------------------------------------------ RecordsException

  @Test
  void eachNewHazardIsLoggedOnceUnderConcurrentFlushes() throws Exception {
    Shareability kc = facade(dir.resolve("records"));
    LedgerWriter ledger = kc.openLedger();
    int threads = 4;
    int perThread = 400;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    List<java.util.concurrent.Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  ledger.record("s" + id + "-" + i, HazardCodes.UNROUTABLE_SERVER_REQUEST, "");
                  if (i % 20 == 0) {
                    ledger.flush(); // every thread flushes while the others record and flush
                  }
                }
                return null;
              }));
    }
    for (java.util.concurrent.Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    ledger.flush();

    List<String> observed =
        logged(Level.WARN).stream().filter(m -> m.startsWith("hazard ")).toList();
    assertThat(observed).doesNotHaveDuplicates().hasSize(threads * perThread);
  }

  @Test
  void aScheduledFlushThatFailsReachesTheListenerWhileRunning() throws Exception {
    Path records = blockedRecords();
    java.util.concurrent.BlockingQueue<RecordsException> told =
        new java.util.concurrent.LinkedBlockingQueue<>();
    Shareability kc =
        track(
            Shareability.builder(records)
                .workingDirectory(dir)
                .clock(AT)
                .onFlushFailure(told::add)
                .build());
    LedgerWriter ledger = kc.openLedger(LedgerWriter.MIN_FLUSH_PERIOD);
    ledger.record("s", HazardCodes.UNROUTABLE_SERVER_REQUEST, "");

    // Bounded only against a hang: the first scheduled flush fails within milliseconds.
    RecordsException problem = told.poll(2, java.util.concurrent.TimeUnit.MINUTES);
    assertThat(problem).as("told while the writer is open").isNotNull();
    assertThat(ledger.isClosed()).isFalse();
    assertThat(problem.getMessage()).contains(records.toString()).contains("not a directory");
    assertNoInternalTypeIn(problem);
    // The same failure on the flushes after it is not told again (it is logged once, too). A
    // second report can only come from a wrong writer, so the wait cannot fail a right one.
    assertThat(told.poll(300, java.util.concurrent.TimeUnit.MILLISECONDS))
        .as("the same failure told once while it lasts")
        .isNull();
  }

  @Test
  void theStartUpCheckPassesAUsableDirectoryAndOneThatCanBeCreated() throws Exception {
    facade(dir.resolve("records")).checkRecordsDirectory();
    Path made = Files.createDirectories(dir.resolve("made"));
    facade(made).checkRecordsDirectory();
    assertThat(dir.resolve("records")).as("the check creates nothing").doesNotExist();
  }

  @Test
  void theStartUpCheckRefusesAPlainFileADirectoryOthersMayWriteAndOneUnderAFile() throws Exception {
    Path file = blockedRecords();
    assertThatThrownBy(() -> facade(file).checkRecordsDirectory())
        .isExactlyInstanceOf(RecordsException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("is not a directory");
    assertThatThrownBy(() -> facade(file.resolve("below")).checkRecordsDirectory())
        .isExactlyInstanceOf(RecordsException.class)
        .hasMessageContaining("is not a directory");

    Path open = Files.createDirectories(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThatThrownBy(() -> facade(open).checkRecordsDirectory())
        .isInstanceOfSatisfying(
            RecordsException.class,
            e -> {
              assertThat(e.isRefused()).isTrue();
              assertThat(e.path()).isEqualTo(open);
            });
    assertThatThrownBy(() -> facade(open.resolve("inner")).checkRecordsDirectory())
        .as("a missing directory under one others may write")
        .isInstanceOfSatisfying(RecordsException.class, e -> assertThat(e.isRefused()).isTrue());
  }

  @Test
  void theStartUpCheckRefusesADirectoryThisProcessCannotWrite() throws Exception {
    Path readOnly = Files.createDirectories(dir.resolve("read-only"));
    Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-x------"));
    try {
      org.junit.jupiter.api.Assumptions.assumeFalse(
          Files.isWritable(readOnly), "root writes a 0500 directory: nothing to refuse");
      assertThatThrownBy(() -> facade(readOnly).checkRecordsDirectory())
          .isExactlyInstanceOf(RecordsException.class)
          .hasMessageContaining("not writable");
    } finally {
      Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void readsFromADirectoryOthersMayWriteWarnOnce() throws Exception {
    Path open = Files.createDirectories(dir.resolve("shared"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Shareability kc = facade(open);
    List<ConfiguredServer> servers =
        kc.servers(List.of(ServerDefinition.stdio("s", "sh", List.of())));

    kc.verdicts(servers);
    kc.verdicts(servers);
    kc.verdicts(servers);

    assertThat(logged(Level.WARN))
        .singleElement()
        .asString()
        .contains(open.toString())
        .contains("read anyway");
  }

  @Test
  void anEnvironmentProblemIsARecordsExceptionNamingThePath() throws Exception {
    Path records = blockedRecords();
    Shareability kc = facade(records);
    List<ConfiguredServer> servers =
        kc.servers(List.of(ServerDefinition.stdio("s", dir.resolve("none").toString(), List.of())));

    Throwable cleared = catchThrown(() -> kc.clearHazards("s"));
    assertThat(cleared).isExactlyInstanceOf(RecordsException.class);
    assertThat(((RecordsException) cleared).path())
        .isEqualTo(records.resolve("observed-hazards.json"));
    assertThat(cleared.getMessage())
        .startsWith("cannot write " + records.resolve("observed-hazards.json"))
        .contains("not a directory")
        .doesNotContain("\n");
    assertNoInternalTypeIn(cleared);

    Throwable pass = catchThrown(() -> kc.budgetedPass(servers));
    assertThat(pass).isExactlyInstanceOf(RecordsException.class);
    assertThat(((RecordsException) pass).path().startsWith(records)).as("%s", pass).isTrue();
    assertNoInternalTypeIn(pass);

    Throwable seeded =
        catchThrown(() -> kc.seed(new HashMap<>(), kc.verdicts(servers), section -> {}));
    assertThat(seeded).isExactlyInstanceOf(RecordsException.class);
    assertThat(((RecordsException) seeded).path().startsWith(records)).as("%s", seeded).isTrue();
    assertNoInternalTypeIn(seeded);

    BackgroundPass uncapped = kc.startUncappedPass(servers);
    Throwable awaited = catchThrown(uncapped::await);
    assertThat(awaited)
        .as("await ends with the pass's own problem")
        .isExactlyInstanceOf(RecordsException.class);
    assertNoInternalTypeIn(awaited);
  }

  @Test
  void aLedgerFileANewerVersionWroteIsLeftUnchanged() throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    Files.writeString(records.resolve("observed-hazards.json"), "{\"schema\": 2, \"servers\": {}}");
    Shareability kc = facade(records);
    Throwable thrown = catchThrown(() -> kc.clearHazards("s"));
    assertThat(thrown).isExactlyInstanceOf(RecordsException.class);
    assertThat(((RecordsException) thrown).isLeftUnchanged()).isTrue();
    assertThat(thrown.getMessage()).endsWith("left unchanged");
  }

  @FunctionalInterface
  private interface Call {
    void run() throws Exception;
  }

  private static Throwable catchThrown(Call call) {
    try {
      call.run();
    } catch (Throwable e) {
      return e;
    }
    throw new AssertionError("nothing was thrown");
  }

  // ------------------------------------------------------------------ record

  @Test
  void recordSaysWhatItDidAndLogsOnlyFromTheFlushOncePerKind() throws Exception {
    Shareability kc = facade(dir.resolve("records"));
    LedgerWriter ledger = kc.openLedger();
    String caller = Thread.currentThread().getName();

    assertThat(ledger.record("s", CODE, "id")).isEqualTo(RecordResult.RECORDED);
    assertThat(ledger.record("s", CODE, "id")).isEqualTo(RecordResult.ALREADY_RECORDED);
    assertThat(ledger.record("s", "typo", "id")).isEqualTo(RecordResult.REFUSED);
    assertThat(ledger.record("s", "other-typo", "id")).isEqualTo(RecordResult.REFUSED);
    assertThat(ledger.record("", CODE, "id")).isEqualTo(RecordResult.REFUSED);
    assertThat(ledger.record("s", CODE, "x".repeat(65_537))).isEqualTo(RecordResult.REFUSED);
    assertThat(ledger.codesForName("s")).containsExactly(CODE);
    assertThat(logs.list).as("nothing logged on the recording thread").isEmpty();

    AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
    Thread flusher =
        new Thread(
            () -> {
              try {
                ledger.flush();
              } catch (Throwable e) {
                failure.set(e);
              }
            },
            "the-flush-thread");
    flusher.start();
    flusher.join();
    assertThat(failure.get()).isNull();
    assertThat(logs.list).extracting(ILoggingEvent::getThreadName).containsOnly("the-flush-thread");
    assertThat(logged(Level.WARN))
        .hasSize(4)
        .anySatisfy(m -> assertThat(m).contains("observed for server \"s\""))
        .anySatisfy(
            m ->
                assertThat(m)
                    .contains("\"typo\"")
                    .contains("not a known hazard code")
                    .contains("2 such"))
        .anySatisfy(m -> assertThat(m).contains("empty server name"))
        .anySatisfy(m -> assertThat(m).contains("longer than 65536"));
    assertThat(logs.list).extracting(ILoggingEvent::getThreadName).doesNotContain(caller);

    logs.list.clear();
    assertThat(ledger.record("s", "third-typo", "id")).isEqualTo(RecordResult.REFUSED);
    ledger.flush();
    assertThat(logged(Level.INFO)).as("each kind of refusal is logged once").isEmpty();
  }

  // ------------------------------------------------------------------ the lifecycle

  /** A configured server of the facade under test, for the methods that take one. */
  private @Nullable ConfiguredServer configured;

  /** A value of each parameter type the API takes, for calling every method. */
  private Object argumentOf(Class<?> type, LedgerWriter writer) {
    if (type == String.class) {
      return "s";
    }
    if (type == List.class) {
      return List.of();
    }
    if (type == Map.class) {
      return new HashMap<String, Object>();
    }
    if (type == Duration.class) {
      return Duration.ofMinutes(1);
    }
    if (type == LedgerWriter.class) {
      return writer;
    }
    if (type == HostProfile.class) {
      return HostProfile.empty();
    }
    if (type == Set.class) {
      return Set.of();
    }
    if (type == VerdictRecords.class) {
      return new VerdictRecords(
          dev.kcshare.core.records.HazardLedger.create().readOnly(),
          dev.kcshare.core.records.VerdictCache.empty());
    }
    if (type == ServerDefinition.class) {
      return ServerDefinition.stdio("s", "sh", List.of());
    }
    if (type == Shareability.ConfigWriter.class) {
      return (Shareability.ConfigWriter<RuntimeException>) section -> {};
    }
    if (type == ConfigRequest.class) {
      return ConfigRequest.discovery();
    }
    if (type == HostServers.class) {
      return new HostConfig(
          List.of(),
          List.of(),
          List.of(),
          GatewaySettings.absent(),
          new ProfileSelection("default", HostProfile.empty(), "no Kiro Crew home"));
    }
    if (type == PassProgress.Listener.class) {
      return (PassProgress.Listener) p -> {};
    }
    if (type == PassOptions.class) {
      return PassOptions.uncapped();
    }
    if (type == dev.kcshare.core.handshake.EraChoice.class) {
      return dev.kcshare.core.handshake.EraChoice.AUTO;
    }
    if (type == ConfiguredServer.class && configured != null) {
      return configured;
    }
    if (type == Path.class) {
      return dir;
    }
    if (type == Eligibility.Settings.class) {
      return new Eligibility.Settings(false, true, Set.of(), HostProfile.empty());
    }
    throw new AssertionError("no argument for " + type);
  }

  /** Calls every public instance method but {@code close} and Object's; what each threw. */
  private Map<String, @Nullable Throwable> callEverything(Object target, LedgerWriter writer) {
    Map<String, @Nullable Throwable> out = new HashMap<>();
    for (Method m : target.getClass().getMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          || m.getDeclaringClass() == Object.class
          || m.getName().equals("close")) {
        continue;
      }
      Object[] args =
          Arrays.stream(m.getParameterTypes()).map(t -> argumentOf(t, writer)).toArray();
      Throwable thrown = null;
      try {
        m.invoke(target, args);
      } catch (InvocationTargetException e) {
        thrown = e.getCause();
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
      out.put(m.getName() + Arrays.toString(m.getParameterTypes()), thrown);
    }
    return out;
  }

  @Test
  void afterCloseEveryMethodOfTheFacadeItsWriterAndItsPassesThrowsButRecordRefuses()
      throws Exception {
    Shareability kc = facade(dir.resolve("records"));
    List<ConfiguredServer> servers =
        kc.servers(List.of(ServerDefinition.stdio("s", dir.resolve("none").toString(), List.of())));
    configured = servers.get(0);
    LedgerWriter writer = kc.openLedger(Duration.ofHours(1));
    writer.record("s", CODE, "");
    BackgroundPass pass = kc.startUncappedPass(servers);
    pass.await();

    kc.close();

    Map<String, @Nullable Throwable> calls = new HashMap<>();
    calls.putAll(callEverything(kc, writer));
    calls.putAll(callEverything(writer, writer));
    calls.putAll(callEverything(pass, writer));
    assertThat(calls).hasSizeGreaterThanOrEqualTo(25);
    // A gateway's event loop may still route during its shutdown: record refuses, never throws.
    String record =
        "record" + Arrays.toString(new Class<?>[] {String.class, String.class, String.class});
    assertThat(calls).containsEntry(record, null);
    assertThat(writer.record("s", CODE, "")).isEqualTo(RecordResult.REFUSED);
    calls.remove(record);
    assertThat(calls)
        .allSatisfy(
            (method, thrown) ->
                assertThat(thrown).as(method).isInstanceOf(IllegalStateException.class));
    kc.close(); // idempotent
    writer.close();
    assertThat(LedgerStore.read(dir.resolve("records/observed-hazards.json")).servers())
        .as("close flushed the writer")
        .containsOnlyKeys("s");
  }

  @Test
  void aFailedLastFlushReachesTheListenerAndTheLogOnce() throws Exception {
    Path records = blockedRecords();
    List<RecordsException> told = new CopyOnWriteArrayList<>();
    Shareability kc =
        track(Shareability.builder(records).clock(AT).onFlushFailure(told::add).build());
    LedgerWriter ledger = kc.openLedger(Duration.ofHours(1));
    ledger.record("s", CODE, "");
    logs.list.clear();

    kc.close();

    assertThat(told)
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.path().startsWith(records)).as("%s", problem.path()).isTrue();
              assertThat(problem.getMessage()).contains("not a directory");
            });
    assertThat(logged(Level.WARN))
        .filteredOn(m -> !m.contains("observed for server"))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("last flush failed")
        .contains(records.toString());
  }

  @Test
  void aNormalCloseLogsNothingEvenDuringAScheduledFlush() throws Exception {
    List<Thread> made = new CopyOnWriteArrayList<>();
    ThreadFactory threads =
        task -> {
          Thread t = new Thread(task, "gateway-flush");
          t.setDaemon(true);
          made.add(t);
          return t;
        };
    Path records = Files.createDirectories(dir.resolve("records"));
    Shareability kc = track(Shareability.builder(records).clock(AT).threadFactory(threads).build());
    Path ledgerFile = records.resolve("observed-hazards.json");
    Thread closer;
    try (FileLock held = FileLock.acquire(ledgerFile)) {
      LedgerWriter ledger = kc.openLedger(LedgerWriter.MIN_FLUSH_PERIOD);
      ledger.record("s", CODE, "");
      waitUntil(() -> made.size() == 1 && inFileLock(made.get(0))); // a scheduled flush waits
      logs.list.clear();
      closer = new Thread(kc::close, "closer");
      closer.start();
      waitUntil(() -> !closer.isAlive() || waitsForTheFlushThread(closer));
    } // the lock is free: the scheduled flush ends as it would, then close makes the last one
    closer.join();

    assertThat(logged(Level.INFO)).as("a normal close logs nothing").isEmpty();
    assertThat(LedgerStore.read(ledgerFile).servers()).containsOnlyKeys("s");
    assertThat(made.get(0).isAlive()).as("the flush thread ended").isFalse();
  }

  private static boolean inFileLock(Thread t) {
    return Arrays.stream(t.getStackTrace())
        .anyMatch(f -> f.getClassName().equals(FileLock.class.getName()));
  }

  private static boolean waitsForTheFlushThread(Thread t) {
    return Arrays.stream(t.getStackTrace())
        .anyMatch(f -> f.getMethodName().equals("awaitTermination"));
  }

  private interface Condition {
    boolean holds();
  }

  /**
   * Spins until {@code condition} holds (the surefire timeout ends a test that never gets there).
   */
  private static void waitUntil(Condition condition) {
    while (!condition.holds()) {
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  @Test
  void theLastFacadeToCloseRemovesTheShutdownHook() throws Exception {
    Shareability first = facade(dir.resolve("a"));
    Shareability second = facade(dir.resolve("b"));
    List<ConfiguredServer> servers =
        first.servers(List.of(ServerDefinition.stdio("quick", "/bin/sh", List.of("-c", "exit 0"))));
    first.budgetedPass(servers); // spawns: the hook is installed
    assertThat(ProbeShutdown.isInstalled()).isTrue();

    first.close();
    assertThat(ProbeShutdown.isInstalled()).as("another facade is still open").isTrue();
    second.close();
    assertThat(ProbeShutdown.isInstalled()).as("the last facade closed").isFalse();
  }

  // ------------------------------------------------------------------ writers

  @Test
  void aWriterOfAnotherFacadeAndASecondOpenWriterAreRefused() {
    Shareability kc = facade(dir.resolve("a"));
    Shareability other = facade(dir.resolve("b"));
    LedgerWriter mine = kc.openLedger();
    LedgerWriter theirs = other.openLedger();
    List<ConfiguredServer> servers =
        kc.servers(List.of(ServerDefinition.stdio("s", "sh", List.of())));

    assertThatThrownBy(() -> kc.verdicts(servers, theirs))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("opened by another Shareability")
        .hasMessageContaining(dir.resolve("b").toString());
    Eligibility.Settings settings =
        new Eligibility.Settings(false, true, Set.of(), HostProfile.empty());
    assertThatThrownBy(() -> kc.eligibility(List.of("s"), settings, servers, theirs))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(kc::openLedger)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("open already");
    assertThat(kc.verdicts(servers, mine)).hasSize(1);

    mine.close();
    assertThatThrownBy(() -> kc.verdicts(servers, mine)).isInstanceOf(IllegalStateException.class);
    assertThat(kc.openLedger()).as("once closed, a writer may be opened again").isNotSameAs(mine);
  }

  // ------------------------------------------------------------------ values

  @Test
  void aDefinitionRefusesABlankNameOrCommand() {
    assertThatThrownBy(() -> ServerDefinition.builder(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("name must not be blank");
    assertThatThrownBy(() -> ServerDefinition.stdio("", "npx", List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerDefinition.stdio("s", "\t", List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("command must not be blank");
    ServerDefinition http =
        ServerDefinition.builder("docs").url("https://x/mcp").type("http").build();
    assertThat(http.command()).isNull();
    assertThat(http.isStdio()).isFalse();
    assertThat(ServerDefinition.builder("t").command("t").args(List.of("a")).build())
        .isEqualTo(ServerDefinition.stdio("t", "t", List.of("a")));
  }

  @Test
  void timesAreInstants() throws Exception {
    Shareability kc = facade(dir.resolve("records"));
    List<ConfiguredServer> servers =
        kc.servers(
            List.of(ServerDefinition.stdio("gone", dir.resolve("none").toString(), List.of())));
    // a server that cannot start, twice in a row: the next pass skips it until a time
    kc.budgetedPass(servers);
    kc.budgetedPass(servers);
    PassResult third = kc.budgetedPass(servers);
    assertThat(third.skipped()).containsOnlyKeys("gone");
    assertThat(third.skipped().get("gone")).isAfter(AT.instant());
    assertThat(third.skipped().get("gone"))
        .isBeforeOrEqualTo(AT.instant().plus(Duration.ofHours(24)));
  }
}
