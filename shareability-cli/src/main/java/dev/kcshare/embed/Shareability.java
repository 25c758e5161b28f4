package dev.kcshare.embed;

import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.policy.GatewaySeeding;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.policy.host.Selection;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.records.LedgerView;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.records.host.AttemptRecord;
import dev.kcshare.core.records.host.AttemptsCodec;
import dev.kcshare.core.records.host.AttemptsLoad;
import dev.kcshare.core.text.Secrets;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.HostContext;
import dev.kcshare.host.config.ConfigFormat;
import dev.kcshare.host.config.Definitions;
import dev.kcshare.host.config.HostConfigLoader;
import dev.kcshare.host.evaluation.EvaluationRunner;
import dev.kcshare.host.evaluation.FacadeAccess;
import dev.kcshare.host.evaluation.HeadStart;
import dev.kcshare.host.evaluation.SinglePreflight;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.prober.ProbeShutdown;
import dev.kcshare.host.prober.ProcessPermits;
import dev.kcshare.host.prober.SpawnRegistry;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.records.AttemptStore;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.FileLock;
import dev.kcshare.host.records.Fingerprints;
import dev.kcshare.host.records.LedgerStore;
import dev.kcshare.host.records.RecordFile;
import dev.kcshare.host.records.RecordReader;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.records.RecordsTrust;
import dev.kcshare.host.records.ServerIdentity;
import dev.kcshare.host.report.EpochSeconds;
import dev.kcshare.host.report.VerdictReport;
import dev.kcshare.host.seeding.SeedMarkers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedding facade: one object per records directory that gives a Java MCP gateway the hazard
 * ledger, verdicts for its servers, evaluation passes, and seeding and bulk-stub eligibility inside
 * the gateway's own config lock. See {@code docs/embedding.md}.
 *
 * <pre>{@code
 * try (Shareability kc = Shareability.builder(Path.of("/var/lib/gateway/records")).build()) {
 *   LedgerWriter ledger = kc.openLedger(Duration.ofMinutes(1)); // at start; flushed every minute
 *   String identity = kc.launchIdentity(definition);            // when spawning a backend
 *   ledger.record("files-mcp", HazardCodes.UNROUTABLE_SERVER_REQUEST, identity); // routing path
 *   List<ConfiguredServer> servers = kc.servers(definitions);   // off-loop: hashes files
 *   List<ServerVerdict> rows = kc.verdicts(servers, ledger);     // reads the cache file once
 *   BackgroundPass pass = kc.startUncappedPass(servers);        // returns at once
 * } // close: cancels running passes, flushes the ledger, stops every thread it started
 * }</pre>
 *
 * <p>Environment problems (a permission, a full disk, a file a newer version wrote) are thrown as
 * {@link RecordsException}, the one checked exception for them; once closed, every method but
 * {@code close} throws {@link IllegalStateException}.
 *
 * <p>Threading: {@link LedgerWriter#record} and {@link BackgroundPass#progress()} are safe on an
 * event loop. Everything on this class does blocking I/O or spawns processes and belongs on a
 * worker thread. Thread-safe; create one per records directory, share it, and close it once when
 * the gateway stops.
 */
public final class Shareability implements AutoCloseable {
  /**
   * Looked up when there is something to log, not held in a static field: a command that builds a
   * facade and logs nothing must not start a logging backend (docs/performance.md).
   */
  private static Logger log() {
    return LoggerFactory.getLogger(Shareability.class);
  }

  /** Facades built and not yet closed, in this JVM: the last to close removes the hook. */
  private static final AtomicInteger OPEN = new AtomicInteger();

  private final RecordsDirectory records;
  private final Map<String, String> environment;
  private final Path workingDirectory;
  private final InstantSource wallClock;
  private final DoubleSupplier clock;
  private final HostProfile profile;
  private final Set<String> identityKeys;
  private final @Nullable Duration probeTimeout;
  private final int processCeiling;
  private @Nullable StdioProber prober; // guarded by lifecycle: made by the first pass
  private final int workers;
  private @Nullable EvaluationRunner runner; // guarded by lifecycle: made with the prober
  private final RecordReader reader;
  private final ThreadFactory threads;
  private final Consumer<RecordsException> onFlushFailure;

  private final Object lifecycle = new Object();
  private volatile boolean closed; // written under lifecycle
  private @Nullable LedgerWriter ledger; // guarded by lifecycle
  private final List<BackgroundPass> passes = new ArrayList<>(); // guarded by lifecycle
  private @Nullable ScheduledThreadPoolExecutor flusher; // guarded by lifecycle
  private @Nullable HeadStart headStart; // guarded by lifecycle

  static {
    FacadeAccess.register(new Access());
  }

  private Shareability(Builder b) {
    this.workingDirectory = b.workingDirectory.toAbsolutePath().normalize();
    this.records =
        new RecordsDirectory(
            RecordsDirectory.withoutDotSegments(workingDirectory.resolve(b.recordsDirectory)),
            RecordsDirectory.Rule.OPTION);
    this.environment = Map.copyOf(b.environment);
    this.wallClock = b.clock;
    this.clock = () -> Times.seconds(wallClock);
    this.profile = b.profile;
    this.identityKeys = Set.copyOf(b.identityKeys);
    this.probeTimeout = b.probeTimeout;
    this.processCeiling = b.processCeiling;
    this.workers = Math.max(1, b.processCeiling / 2);
    this.reader = b.reader;
    this.threads = b.threads;
    this.onFlushFailure = b.onFlushFailure;
    OPEN.incrementAndGet();
  }

  /**
   * A builder for the records directory the gateway uses (where both record files live). kcshare
   * creates the directory (mode 0700) on its first write; nothing is created before.
   *
   * @param recordsDirectory the directory holding {@code observed-hazards.json} and {@code
   *     shareability-verdicts.json}; a relative path is taken against the builder's {@link
   *     Builder#workingDirectory}. Share it with the {@code kcshare} command ({@code
   *     --records-dir}) so both see the same records
   * @return a builder with every other setting at its default
   * @throws NullPointerException if {@code recordsDirectory} is null
   * @throws IllegalArgumentException if {@code recordsDirectory} is the empty path
   */
  public static Builder builder(Path recordsDirectory) {
    Objects.requireNonNull(recordsDirectory, "recordsDirectory");
    if (recordsDirectory.toString().isEmpty()) {
      throw new IllegalArgumentException("recordsDirectory must not be the empty path");
    }
    return new Builder(recordsDirectory);
  }

  /**
   * The records directory, absolute, without {@code .} segments; a {@code ..} segment is kept, so
   * it names the directory the OS reaches (as the {@code kcshare} command does).
   *
   * @return the directory
   * @throws IllegalStateException if this facade is closed
   */
  public Path recordsDirectory() {
    ensureOpen();
    return records.path();
  }

  /**
   * The hazard ledger file ({@code observed-hazards.json}) in the records directory.
   *
   * @return its absolute path
   * @throws IllegalStateException if this facade is closed
   */
  public Path ledgerFile() {
    ensureOpen();
    return records.ledgerFile();
  }

  /**
   * The verdict cache file ({@code shareability-verdicts.json}) in the records directory.
   *
   * @return its absolute path
   * @throws IllegalStateException if this facade is closed
   */
  public Path cacheFile() {
    ensureOpen();
    return records.cacheFile();
  }

  Path ledgerPath() {
    return records.ledgerFile();
  }

  /**
   * The ledger writer of this facade, loaded from its file so a restart does not forget what was
   * observed. Record from the routing path (only for a SHARED backend) and flush from a background
   * thread; {@link #close()} flushes it once more. One writer per facade at a time: open it at
   * start, before recording, and share it. Blocking: reads the ledger file.
   *
   * @return the loaded ledger writer
   * @throws IllegalStateException if this facade is closed, or its writer is open already
   */
  public LedgerWriter openLedger() {
    synchronized (lifecycle) {
      ensureOpen();
      if (ledger != null) {
        throw new IllegalStateException(
            "a ledger writer of "
                + records.ledgerFile()
                + " is open already on this Shareability: share that one, or close it first");
      }
      LedgerWriter[] self = new LedgerWriter[1];
      self[0] =
          new LedgerWriter(
              this,
              new LedgerStore(records.ledgerFile(), clock),
              onFlushFailure,
              () -> forget(self[0]));
      ledger = self[0];
      return self[0];
    }
  }

  /**
   * As {@link #openLedger()}, also flushing the writer every {@code flushEvery} on a thread of this
   * facade (a failed flush is logged once and the next one retries), until the writer or this
   * facade is closed.
   *
   * @param flushEvery the time between the end of one flush and the start of the next
   * @return the loaded ledger writer
   * @throws NullPointerException if {@code flushEvery} is null
   * @throws IllegalArgumentException if {@code flushEvery} is shorter than {@link
   *     LedgerWriter#MIN_FLUSH_PERIOD} (10 ms)
   * @throws IllegalStateException if this facade is closed, or its writer is open already
   */
  public LedgerWriter openLedger(Duration flushEvery) {
    Objects.requireNonNull(flushEvery, "flushEvery");
    if (flushEvery.compareTo(LedgerWriter.MIN_FLUSH_PERIOD) < 0) {
      throw new IllegalArgumentException(
          "flushEvery must be at least "
              + LedgerWriter.MIN_FLUSH_PERIOD.toMillis()
              + " ms: "
              + flushEvery);
    }
    synchronized (lifecycle) {
      LedgerWriter writer = openLedger();
      long period = flushEvery.toNanos();
      writer.schedule(
          flusher()
              .scheduleWithFixedDelay(
                  () -> flushQuietly(writer), period, period, TimeUnit.NANOSECONDS));
      return writer;
    }
  }

  private ScheduledThreadPoolExecutor flusher() {
    ScheduledThreadPoolExecutor f = flusher;
    if (f == null) {
      f = new ScheduledThreadPoolExecutor(1, threads);
      f.setRemoveOnCancelPolicy(true);
      f.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
      flusher = f;
    }
    return f;
  }

  private static void flushQuietly(LedgerWriter writer) {
    try {
      writer.flushScheduled(); // not written this time: logged once; the next flush retries
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log().warn("the scheduled ledger flush failed; the next one retries", e);
    }
  }

  private void forget(LedgerWriter writer) {
    synchronized (lifecycle) {
      if (ledger == writer) {
        ledger = null;
      }
    }
  }

  /**
   * Turns the gateway's definitions into configured servers with their verdict-cache execution
   * identities (docs/design.md#cache-identity). Definitions sharing a name are grouped in order; a
   * name whose definitions disagree on identity gets no pre-flight evidence and is never measured.
   * Blocking: hashes the command and every file argument, so compute it off the event loop, when
   * the configuration changes.
   *
   * @param definitions the gateway's server definitions, in its config order
   * @return one configured server per name, in order of first appearance
   * @throws NullPointerException if {@code definitions} or an element is null
   * @throws IllegalStateException if this facade is closed
   */
  public List<ConfiguredServer> servers(List<ServerDefinition> definitions) {
    requireElements(definitions, "definitions");
    ensureOpen();
    Fingerprints fingerprints = fingerprints();
    List<ConfiguredDefinition> configured = new ArrayList<>(definitions.size());
    for (int i = 0; i < definitions.size(); i++) {
      ServerDefinition d = definitions.get(i);
      String command = d.command();
      String identity =
          d.isStdio() && command != null
              ? ServerIdentity.cacheIdentity(command, d.args(), d.env(), fingerprints)
              : null;
      configured.add(
          new ConfiguredDefinition(
              d,
              "<embedded>",
              workingDirectory,
              "/" + i,
              ConfigFormat.EMBEDDED.id(),
              ConfigFormat.EMBEDDED.client(),
              identity,
              List.of()));
    }
    return ConfiguredServer.group(configured);
  }

  /**
   * The ledger launch identity (docs/design.md#launch-identity) of a backend spawned from {@code
   * definition}: the command resolved on the configured {@code PATH} to an absolute path (kept as
   * given when the lookup fails) with its arguments, the declared env hashed WITH the identity
   * keys, and the fingerprint of the command only. Blocking: hashes the command's binary. Compute
   * it once when the backend is spawned and keep it with the backend, so the routing path stamps it
   * without I/O.
   *
   * @param definition a stdio definition ({@link ServerDefinition#isStdio()})
   * @return {@code command_args_hash NUL env_hash NUL binary_version}
   * @throws NullPointerException if {@code definition} is null
   * @throws IllegalArgumentException if the definition is not a stdio server
   * @throws IllegalStateException if this facade is closed
   */
  public String launchIdentity(ServerDefinition definition) {
    Objects.requireNonNull(definition, "definition");
    ensureOpen();
    String command = definition.command();
    if (command == null || !definition.isStdio()) {
      throw new IllegalArgumentException("not a stdio definition: " + definition.name());
    }
    return ServerIdentity.launchIdentity(
        command, definition.args(), definition.env(), identityKeys, fingerprints());
  }

  /**
   * Every server's verdict from config and the record files (docs/design.md#evidence-assembly):
   * reads each record file exactly once per call, then builds every row with no further I/O, so the
   * rows of one call agree about the files. Never spawns. Blocking: call it off the event loop and
   * hand the rows to the renderer.
   *
   * @param servers the configured servers ({@link #servers})
   * @return one row per server, in the given order
   * @throws NullPointerException if {@code servers} or an element is null
   * @throws IllegalStateException if this facade is closed
   */
  public List<ServerVerdict> verdicts(List<ConfiguredServer> servers) {
    requireElements(servers, "servers");
    ensureOpen();
    return VerdictReport.load(records, reader, VerdictReport.namesOf(servers))
        .verdicts(servers, profile, identityKeys);
  }

  /**
   * As {@link #verdicts(List)}, over this facade's live ledger instead of the ledger file, so a
   * hazard recorded a moment ago counts before it is flushed. Reads only the cache file, exactly
   * once.
   *
   * @param servers the configured servers
   * @param liveLedger this facade's ledger writer ({@link #openLedger()})
   * @return one row per server, in the given order
   * @throws NullPointerException if an argument or an element of {@code servers} is null
   * @throws IllegalArgumentException if {@code liveLedger} was opened by another facade
   * @throws IllegalStateException if this facade or {@code liveLedger} is closed
   */
  public List<ServerVerdict> verdicts(List<ConfiguredServer> servers, LedgerWriter liveLedger) {
    requireElements(servers, "servers");
    Objects.requireNonNull(liveLedger, "liveLedger");
    ensureOpen();
    requireOwn(liveLedger);
    return VerdictReport.live(
            liveLedger.store().ledger(), records, reader, VerdictReport.namesOf(servers))
        .verdicts(servers, profile, identityKeys);
  }

  /**
   * The servers the host's own MCP client configs declare, read as the {@code kcshare} command
   * reads them (docs/config.md): the files {@code request} names, then, when it discovers, the
   * usual files of every client kcshare knows, from this facade's environment ({@code HOME}, {@code
   * XDG_CONFIG_HOME}, {@code KIROCREW_HOME}, ...) and working directory (the workspace files). A
   * file that cannot be used never throws: a discovered one is skipped, a named one is an error,
   * both listed in the result. Blocking: reads the files and hashes each command and file argument.
   *
   * @param request which files to read and which host profile to use
   * @return the files, servers, client parts, host profile and Kiro Crew gateway settings
   * @throws NullPointerException if {@code request} is null
   * @throws IllegalArgumentException if the request names a profile other than {@code default} or
   *     {@code kirocrew}
   * @throws IllegalStateException if this facade is closed
   */
  public HostServers hostServers(ConfigRequest request) {
    Objects.requireNonNull(request, "request");
    ensureOpen();
    try {
      return HostConfigLoader.load(
              new HostContext(environment, workingDirectory, wallClock.withZone(ZoneOffset.UTC)),
              request)
          .loaded();
    } catch (BadInputException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * As {@link #verdicts(List)}, for servers of the host's configs: under the host profile those
   * configs put in force and the identity keys of their Kiro Crew gateway settings ({@link
   * HostServers#hostProfile()}, {@link HostServers#identityKeys()}) instead of this facade's.
   *
   * @param host the servers from the host's configs ({@link #hostServers})
   * @param servers which of them, in the order wanted
   * @return one row per server, in the given order
   * @throws NullPointerException if an argument or an element of {@code servers} is null
   * @throws IllegalStateException if this facade is closed
   */
  public List<ServerVerdict> verdicts(HostServers host, List<ConfiguredServer> servers) {
    Objects.requireNonNull(host, "host");
    requireElements(servers, "servers");
    ensureOpen();
    return VerdictReport.load(records, reader, VerdictReport.namesOf(servers))
        .verdicts(servers, host.hostProfile(), host.identityKeys());
  }

  /**
   * The verdicts of {@code servers} over records already read ({@link #readVerdictRecords}, or what
   * a {@link SeedVerdicts} is handed under the cache lock), under the given host profile and
   * identity keys: the same rows {@link #verdicts(HostServers, List)} gives, with no I/O, so a
   * caller that holds a lock decides over exactly the records it read.
   *
   * @param servers the servers, in the order wanted
   * @param records the ledger and cache read
   * @param profile the host profile in force
   * @param identityKeys the gateway's caller-identity keys
   * @return one row per server, in the given order
   * @throws NullPointerException if an argument or an element of {@code servers} is null
   * @throws IllegalStateException if this facade is closed
   */
  public List<ServerVerdict> verdicts(
      List<ConfiguredServer> servers,
      VerdictRecords records,
      HostProfile profile,
      Set<String> identityKeys) {
    requireElements(servers, "servers");
    Objects.requireNonNull(records, "records");
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(identityKeys, "identityKeys");
    ensureOpen();
    return VerdictReport.of(records.ledger(), records.cache())
        .verdicts(servers, profile, Set.copyOf(identityKeys));
  }

  private void requireOwn(LedgerWriter writer) {
    if (writer.owner() != this) {
      throw new IllegalArgumentException(
          "this ledger writer was opened by another Shareability (of "
              + writer.owner().records.path()
              + "); use the writer of this one (of "
              + records.path()
              + ")");
    }
    if (writer.isClosed()) {
      throw new IllegalStateException("this ledger writer is closed");
    }
  }

  /**
   * Runs one evaluation pass on the calling thread (docs/design.md#one-pass-at-a-time): measures
   * what {@code options} asks for — the given servers now ({@link PassOptions#named()}), every due
   * server ({@link PassOptions#uncapped()}) or at most a budget of them ({@link
   * PassOptions#budgeted()}) — under the process ceiling, stores what ran and saves once at the
   * end. It remembers a pre-flight that could not run in {@code kcshare-attempts.json} beside the
   * cache, and an uncapped or budgeted pass skips a server that kept failing ({@link
   * PassResult#skipped()}) unless {@link PassOptions#retryFailed()}. One pass runs at a time per
   * records directory, across processes: a pass that waits ({@link PassOptions#waitForLock()})
   * tells {@code listener} whom it waits for; one that does not ends at once with {@link
   * PassResult.Outcome#BUSY} (a budgeted pass with {@link PassResult.Outcome#YIELDED} and the
   * stored measurements). Blocking: it spawns and waits for the servers it measures.
   *
   * @param servers the configured servers, in config order
   * @param options what to measure and whether to wait
   * @param listener told of each step on the pass's threads; it must return quickly, and a listener
   *     that throws is ignored
   * @return what the pass did
   * @throws RecordsException when the records directory cannot be used (the lock or the write)
   * @throws InterruptedException when the calling thread is interrupted; the pass stops its
   *     processes and saves the rows measured so far first
   * @throws NullPointerException if an argument or an element of {@code servers} is null
   * @throws IllegalStateException if this facade is closed
   */
  public PassResult pass(
      List<ConfiguredServer> servers, PassOptions options, PassProgress.Listener listener)
      throws RecordsException, InterruptedException {
    requireElements(servers, "servers");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(listener, "listener");
    HeadStart head;
    synchronized (lifecycle) {
      ensureOpen();
      head = headStart;
      headStart = null;
    }
    return runPass(List.copyOf(servers), options, listener, head);
  }

  /**
   * Runs a pass; continues {@code head} when it was begun for exactly this pass, else ends it
   * first.
   */
  private PassResult runPass(
      List<ConfiguredServer> servers,
      PassOptions options,
      PassProgress.Listener listener,
      @Nullable HeadStart head)
      throws RecordsException, InterruptedException {
    try {
      return runner().run(servers, records.cacheFile(), options, listener, head);
    } catch (IOException e) {
      throw RecordsException.of(e, records.path());
    }
  }

  /** The commands' side of this facade ({@link FacadeAccess}). */
  private static final class Access implements FacadeAccess.Hooks {
    @Override
    public boolean startEarly(Shareability facade, ConfiguredServer server, PassOptions options)
        throws IOException, InterruptedException {
      return facade.startEarly(server, options);
    }
  }

  /** Begins the head start of a named pass of one server ({@link FacadeAccess.Hooks}). */
  private boolean startEarly(ConfiguredServer server, PassOptions options)
      throws IOException, InterruptedException {
    synchronized (lifecycle) {
      ensureOpen();
      if (headStart != null) {
        throw new IllegalStateException("a head start is begun already");
      }
      HeadStart head = runner().startEarly(server, records.cacheFile(), options);
      headStart = head;
      return head != null;
    }
  }

  /**
   * One server's pre-flight on the calling thread, storing nothing ({@code kcshare preflight}):
   * spawns the server's first definition under the two identities and compares their handshakes. It
   * takes no lock and writes no record file, so it runs beside any pass; a disabled server, or one
   * with nothing to spawn, is reported as could-not-run and never spawned. Blocking.
   *
   * @param server the configured server
   * @param captureDirectory null, or a directory to also save each identity's raw answers in, as
   *     {@code DIR/<server>/a.json} and {@code b.json} (what {@code kcshare preflight compare}
   *     reads; they may hold tool descriptions and schemas); relative to the builder's working
   *     directory
   * @return the result: {@code stored} false, {@code failuresInARow} 0
   * @throws RecordsException if the capture directory or a capture file cannot be written (nothing
   *     is spawned when the directory cannot be prepared)
   * @throws InterruptedException when the calling thread is interrupted; every process spawned is
   *     torn down first
   * @throws NullPointerException if {@code server} is null
   * @throws IllegalStateException if this facade is closed
   */
  public PassResult.Measured preflight(ConfiguredServer server, @Nullable Path captureDirectory)
      throws RecordsException, InterruptedException {
    return preflight(server, captureDirectory, PassOptions.named());
  }

  /**
   * {@link #preflight(ConfiguredServer, Path)} as a pass of {@code options} would measure the
   * server (docs/design.md#which-era-is-measured): its era choice ({@link PassOptions#era}) and
   * whether it runs a designated isolation self-test ({@link PassOptions#selfTest}); its other
   * options do not apply to one pre-flight.
   *
   * @param server the configured server
   * @param captureDirectory null, or a directory to also save each identity's raw answers in
   * @param options the era choice and the self-test option
   * @return the result: {@code stored} false, {@code failuresInARow} 0
   * @throws RecordsException if the capture directory or a capture file cannot be written
   * @throws InterruptedException when the calling thread is interrupted; every process spawned is
   *     torn down first
   * @throws NullPointerException if {@code server} or {@code options} is null
   * @throws IllegalStateException if this facade is closed
   */
  public PassResult.Measured preflight(
      ConfiguredServer server, @Nullable Path captureDirectory, PassOptions options)
      throws RecordsException, InterruptedException {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(options, "options");
    ensureOpen();
    Path root = captureDirectory == null ? null : workingDirectory.resolve(captureDirectory);
    try {
      return SinglePreflight.run(
          prober().withEra(options.era()).withSelfTest(options.selfTest()),
          server.first().definition(),
          root);
    } catch (IOException e) {
      throw RecordsException.of(e, Objects.requireNonNull(root));
    }
  }

  /**
   * A budgeted pass for a request path (docs/design.md#where-passes-run): {@link #pass} with {@link
   * PassOptions#budgeted()}. It measures at most {@link Selection#MAX_EVALUATIONS_PER_PASS} due
   * servers and NEVER waits for another pass — when one is running it measures nothing and returns
   * {@link PassResult.Outcome#YIELDED} with the stored measurements read by name. It does spawn and
   * wait for the servers it measures, so call it from a worker thread, and swallow (log) its
   * failures: the request's own answer must not be lost to a shareability problem.
   *
   * @param servers the configured servers, in config order
   * @return what the pass did: {@code RAN} or {@code YIELDED}
   * @throws RecordsException when the records directory cannot be used (the lock or the write)
   * @throws InterruptedException when the calling thread is interrupted; the rows measured so far
   *     are saved first
   * @throws NullPointerException if {@code servers} or an element is null
   * @throws IllegalStateException if this facade is closed
   */
  public PassResult budgetedPass(List<ConfiguredServer> servers)
      throws RecordsException, InterruptedException {
    return pass(servers, PassOptions.budgeted(), p -> {});
  }

  /**
   * Starts an uncapped pass (the operator's "measure all"; {@link #pass} with {@link
   * PassOptions#uncapped()}) on a new thread of this facade and returns its handle at once. The
   * pass waits for any pass already running on this records directory, in this process or another,
   * then measures every due server under the process ceiling and flushes once. {@link #close()}
   * cancels it.
   *
   * @param servers the configured servers, in config order (copied)
   * @return the handle: progress, cancel, await
   * @throws NullPointerException if {@code servers} or an element is null
   * @throws IllegalStateException if this facade is closed
   */
  public BackgroundPass startUncappedPass(List<ConfiguredServer> servers) {
    return startUncappedPass(servers, p -> {});
  }

  /**
   * As {@link #startUncappedPass(List)}, also reporting each progress step to {@code listener}.
   *
   * @param servers the configured servers, in config order (copied)
   * @param listener called on the pass's thread after each completed server and once at the end; it
   *     must not block, and a failing listener is ignored
   * @return the handle: progress, cancel, await
   * @throws NullPointerException if an argument or an element of {@code servers} is null
   * @throws IllegalStateException if this facade is closed
   */
  public BackgroundPass startUncappedPass(
      List<ConfiguredServer> servers, PassProgress.Listener listener) {
    requireElements(servers, "servers");
    Objects.requireNonNull(listener, "listener");
    List<ConfiguredServer> snapshot = List.copyOf(servers);
    // Until the pass has chosen what is due, every server given may be.
    AtomicReference<PassProgress> progress =
        new AtomicReference<>(new PassProgress(true, 0, 0, snapshot.size()));
    synchronized (lifecycle) {
      ensureOpen();
      passes.removeIf(BackgroundPass::ended);
      BackgroundPass pass =
          BackgroundPass.start(
              this,
              progress,
              () ->
                  runPass(
                      snapshot,
                      PassOptions.uncapped(),
                      new PublishingListener(listener, progress),
                      null),
              threads);
      passes.add(pass);
      return pass;
    }
  }

  /**
   * Clears a server's observed hazards in the ledger FILE, from a process that does not hold the
   * gateway's writer (an admin tool; {@code kcshare hazards clear NAME} does the same): under the
   * ledger lock it drops the name's observations and stamps a clear marker, so a running writer
   * drops its own copy at its next flush. Inside the gateway, use {@link LedgerWriter#clear}. Like
   * every write of the records, it first ends the server processes a killed pass left running in
   * the records directory (those it can prove are such; never a running pass's). Blocking: file I/O
   * under the ledger lock.
   *
   * @param name the configured server name (not empty)
   * @return true if the file held observations for {@code name}
   * @throws RecordsException if the file cannot be locked or written, or must be left as it is
   *     (written by a newer version, not understood, or unreadable)
   * @throws InterruptedException if interrupted while waiting for the lock
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if {@code name} is empty
   * @throws IllegalStateException if this facade is closed
   */
  public boolean clearHazards(String name) throws RecordsException, InterruptedException {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("server name must not be empty");
    }
    ensureOpen();
    // A write of the records also ends what a killed pass left running there (never a live one's).
    SpawnRegistry.reapOrphans(records.path());
    try {
      return LedgerStore.clearInFile(records.ledgerFile(), name, clock);
    } catch (IOException e) {
      throw RecordsException.of(e, records.ledgerFile());
    }
  }

  /**
   * The hazard ledger file as it is now, read once and tolerantly, for display ({@code kcshare
   * hazards list}): every server's observations by launch identity, the clear markers and what was
   * dropped on read. Inside the gateway, the writer's own reads ({@link LedgerWriter#all()}) answer
   * from memory instead. Never throws for a bad file: it then reads as nothing observed, and says
   * why. Blocking: file I/O.
   *
   * @return the file as read
   * @throws IllegalStateException if this facade is closed
   */
  public RecordFileRead<LedgerLoad> readLedger() {
    ensureOpen();
    return ledgerRead();
  }

  private RecordFileRead<LedgerLoad> ledgerRead() {
    RecordFile.Loaded<LedgerLoad> read = RecordFile.readLedger(records.ledgerFile());
    return fileRead(records.ledgerFile(), read, read.value().refusal());
  }

  /**
   * Every file of the records directory as it is now, each read once and tolerantly, for display
   * ({@code kcshare records}): what each holds, why one could not be used, and every row dropped on
   * read. Never throws for a bad file. Blocking: file I/O.
   *
   * @return the snapshot
   * @throws IllegalStateException if this facade is closed
   */
  public RecordsSnapshot readRecords() {
    ensureOpen();
    RecordFileRead<LedgerLoad> ledgerRead = ledgerRead();
    RecordFile.Loaded<CacheLoad> cache = RecordFile.readCache(records.cacheFile());
    RecordFile.Read attemptsRead = RecordFile.read(records.attemptsFile());
    AttemptsLoad attempts = AttemptsCodec.decode(attemptsRead.root());
    Path registry = SpawnRegistry.fileIn(records.path());
    return new RecordsSnapshot(
        records.path(),
        ledgerRead,
        fileRead(records.cacheFile(), cache, cache.value().refusal()),
        new RecordFileRead<>(
            records.attemptsFile(),
            attemptsRead.exists(),
            attemptsRead.state() == RecordFile.State.MISSING
                || attemptsRead.state() == RecordFile.State.PARSED,
            Optional.ofNullable(attemptsRead.problem()),
            attempts.newer() ? Optional.of(NEWER) : Optional.empty(),
            List.copyOf(attempts.servers().keySet())),
        registry,
        Files.exists(registry, LinkOption.NOFOLLOW_LINKS),
        SpawnRegistry.recordedCount(records.path()));
  }

  /**
   * The last failed pre-flight of each row's server under its current execution identity, from
   * {@code kcshare-attempts.json} (read once, tolerantly: a bad file reads as no failures), masked
   * with the server's secrets: what {@code kcshare assess} and {@code kcshare seed --plan} show as
   * "could not run". A server without one is absent. Blocking: file I/O.
   *
   * @param rows the verdict rows ({@link #verdicts})
   * @return by server name, in the rows' order
   * @throws NullPointerException if {@code rows} or an element is null
   * @throws IllegalStateException if this facade is closed
   */
  public Map<String, FailedPreflight> failedPreflights(List<ServerVerdict> rows) {
    requireElements(rows, "rows");
    ensureOpen();
    AttemptsLoad attempts = AttemptStore.read(records.attemptsFile());
    Map<String, FailedPreflight> out = new LinkedHashMap<>();
    for (ServerVerdict row : rows) {
      AttemptRecord a = attempts.servers().get(row.name());
      String identity = row.server().first().identity();
      if (a == null || !a.identity().equals(identity) || out.containsKey(row.name())) {
        continue;
      }
      Secrets secrets = Definitions.secrets(row.server().first().definition());
      out.put(
          row.name(),
          new FailedPreflight(
              EpochSeconds.instant(a.at()),
              a.identity(),
              secrets.mask(a.detail()),
              Optional.ofNullable(a.exitStatus()),
              secrets.mask(a.stderrTail()),
              a.failures()));
    }
    return Collections.unmodifiableMap(out);
  }

  private static final String NEWER = "was written by a newer version";

  private static <T> RecordFileRead<T> fileRead(
      Path file, RecordFile.Loaded<T> read, @Nullable String refusal) {
    return new RecordFileRead<>(
        file,
        read.exists(),
        read.state() == RecordFile.State.MISSING || read.state() == RecordFile.State.PARSED,
        Optional.ofNullable(read.problem()),
        Optional.ofNullable(refusal),
        read.value());
  }

  /**
   * The ledger and the cache file, read once each (the ledger first) and tolerantly, for a caller
   * that assesses verdicts of servers it describes itself ({@code kcshare seed --gateway}).
   * Blocking: file I/O.
   *
   * @return the records as read
   * @throws IllegalStateException if this facade is closed
   */
  public VerdictRecords readVerdictRecords() {
    ensureOpen();
    LedgerView ledger =
        HazardLedger.of(reader.ledger(records.ledgerFile(), name -> true).value()).readOnly();
    return new VerdictRecords(
        ledger, VerdictCache.of(reader.cache(records.cacheFile(), name -> true).value()));
  }

  /**
   * Bulk-stub eligibility from the record FILES, for a process that does not hold the gateway's
   * ledger writer ({@code kcshare stub --resolve-eligibility}): as {@link #eligibility(List,
   * Eligibility.Settings, List, LedgerWriter)}, with the ledger file and the cache file read once
   * each. Call it inside the config lock, with the servers read under it.
   *
   * @param requested the names asked to stub
   * @param settings the gateway's effective settings
   * @param servers the config facts of every loaded server, by name
   * @return the stubbed names and the skipped ones with their reasons
   * @throws NullPointerException if an argument or an element of a list is null
   * @throws IllegalStateException if this facade is closed
   */
  public Eligibility.Result eligibility(
      List<String> requested, Eligibility.Settings settings, Map<String, ServerFacts> servers) {
    requireElements(requested, "requested");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(servers, "servers");
    ensureOpen();
    VerdictRecords read = readVerdictRecords();
    return Eligibility.resolve(
        requested, settings, Map.copyOf(servers), read.ledger()::codesForName, read.cache());
  }

  /**
   * The names already seeded into another gateway's file (docs/seeding.md, Other gateways), as the
   * markers file in the records directory holds them; none without a file. For a plan. Blocking:
   * file I/O.
   *
   * @param gateway the gateway
   * @return the names, in code-point order
   * @throws RecordsException if the markers file cannot be read, or is not a markers file (then it
   *     is {@linkplain RecordsException#isRefused() refused}: move it aside)
   * @throws NullPointerException if {@code gateway} is null
   * @throws IllegalStateException if this facade is closed
   */
  public Set<String> gatewaySeeded(GatewaySeeding.Gateway gateway) throws RecordsException {
    Objects.requireNonNull(gateway, "gateway");
    ensureOpen();
    Path file = SeedMarkers.fileFor(records.path(), gateway);
    return new java.util.TreeSet<>(readMarkers(file).seeded());
  }

  /**
   * Edits another gateway's file and records what was seeded, once per server.
   *
   * @param <E> what the edit may throw
   */
  @FunctionalInterface
  public interface GatewayEdit<E extends Exception> {
    /**
     * Plans from the markers ({@link GatewaySeeding#plan}) and writes the gateway's file.
     *
     * @param seeded the names already seeded, as the markers file holds them under its lock
     * @return the plan applied: its {@code markSeeded} names are recorded
     * @throws E if the file could not be edited (then nothing is recorded)
     */
    GatewaySeeding.Plan edit(Set<String> seeded) throws E;
  }

  /**
   * Seeds another gateway's file (docs/seeding.md, Other gateways): under the lock of the gateway's
   * markers file in the records directory, hands the markers to {@code edit} and records the names
   * of the plan it applied. The records directory is written only where nobody else can write
   * (docs/security.md#who-may-write-the-records-directory). Blocking: file I/O.
   *
   * @param <E> what {@code edit} may throw
   * @param gateway the gateway
   * @param edit plans and writes the gateway's file
   * @return whether new markers were written
   * @throws RecordsException if the records directory or the markers file cannot be used (nothing
   *     is recorded)
   * @throws InterruptedException if interrupted while waiting for the markers lock
   * @throws E what {@code edit} threw (nothing is recorded)
   * @throws NullPointerException if an argument is null
   * @throws IllegalStateException if this facade is closed
   */
  public <E extends Exception> boolean applyGatewaySeed(
      GatewaySeeding.Gateway gateway, GatewayEdit<E> edit)
      throws RecordsException, InterruptedException, E {
    Objects.requireNonNull(gateway, "gateway");
    Objects.requireNonNull(edit, "edit");
    ensureOpen();
    Path given = SeedMarkers.fileFor(records.path(), gateway);
    Path file = given;
    FileLock lock;
    try {
      file = RecordsTrust.requireWritableFile(given);
      lock = FileLock.acquire(file);
    } catch (IOException e) {
      throw RecordsException.of(e, file);
    }
    boolean marked;
    try {
      SeedMarkers markers = readMarkers(file);
      GatewaySeeding.Plan plan = Objects.requireNonNull(edit.edit(markers.seeded()), "plan");
      try {
        marked = markers.mark(plan.markSeeded());
      } catch (IOException e) {
        throw RecordsException.of(e, file);
      }
    } finally {
      try {
        lock.close();
      } catch (IOException e) {
        log().debug("cannot release the markers lock", e);
      }
    }
    return marked;
  }

  private static SeedMarkers readMarkers(Path file) throws RecordsException {
    try {
      return SeedMarkers.read(file);
    } catch (BadInputException e) {
      throw RecordsException.refused(file, String.valueOf(e.getMessage()));
    } catch (IOException e) {
      throw RecordsException.of(e, file);
    }
  }

  /**
   * Writes the gateway's configuration file: called by {@link #seed} inside the verdict cache's
   * lock, with the section it changed.
   *
   * @param <E> what the gateway's own write may throw ({@link RuntimeException} when nothing
   *     checked)
   */
  @FunctionalInterface
  public interface ConfigWriter<E extends Exception> {
    /**
     * Writes the section to the gateway's own configuration file.
     *
     * @param section the changed {@code mcp_gateway} section
     * @throws E if it could not be written (then nothing is marked seeded, and {@link #seed} throws
     *     it as it is)
     */
    void write(Map<String, Object> section) throws E;
  }

  /**
   * Seeding, at start only, inside the lock the gateway holds around its own config file: each
   * server's recommendation is written into the section's {@code stub_overrides} once; after that
   * the config is the operator's. Under the verdict cache's lock: plans from the "already seeded"
   * markers, applies the plan to {@code section}, has {@code writer} write it when it changed, then
   * marks the servers seeded. A server whose verdict is {@code unknown} (never measured,
   * conflicting definitions, disabled) is neither seeded nor marked, so the first seed after it is
   * measured seeds it ({@link Seeding#recommendations}, the rule {@code kcshare seed} follows too).
   * Never turns the global sharing switch on: {@code plan.wantsShare()} is for the gateway to
   * report.
   *
   * @param <E> what {@code writer} may throw
   * @param section the gateway's in-memory {@code mcp_gateway} section (changed in place)
   * @param rows this start's verdicts ({@link #verdicts})
   * @param writer writes the section to the gateway's config file
   * @return the plan that was applied
   * @throws RecordsException if the cache lock or file cannot be used (nothing is marked)
   * @throws InterruptedException if interrupted while waiting for the cache lock
   * @throws E what {@code writer} threw (nothing is marked)
   * @throws NullPointerException if an argument or an element of {@code rows} is null
   * @throws IllegalStateException if this facade is closed
   */
  public <E extends Exception> Seeding.SeedPlan seed(
      Map<String, Object> section, List<ServerVerdict> rows, ConfigWriter<E> writer)
      throws RecordsException, InterruptedException, E {
    Objects.requireNonNull(section, "section");
    requireElements(rows, "rows");
    Objects.requireNonNull(writer, "writer");
    ensureOpen();
    List<Verdict> verdicts = new ArrayList<>(rows.size());
    for (ServerVerdict row : rows) {
      verdicts.add(row.verdict());
    }
    return seedUnderLock(section, cache -> verdicts, writer).plan();
  }

  /**
   * The verdicts a seed plans from, computed from the records as the seed read them: {@link
   * #planSeed} reads each record file once, {@link #applySeed} the cache under its lock (and the
   * ledger file), so the verdicts and the "already seeded" markers agree.
   */
  @FunctionalInterface
  public interface SeedVerdicts {
    /**
     * The verdicts of the servers the gateway fronts; an {@code unknown} one is left for a later
     * seed ({@link Seeding#recommendations}).
     *
     * @param ledger the hazard ledger file as read (read-only)
     * @param cache the verdict cache as read, with its "already seeded" markers
     * @return the verdicts, one per server
     */
    List<Verdict> of(LedgerView ledger, VerdictCache cache);
  }

  /**
   * What {@link #applySeed} would do now: reads the ledger and the cache file once each (without a
   * lock), has {@code verdicts} compute the verdicts from them and plans from the cache's "already
   * seeded" markers; changes and writes nothing. {@code kcshare seed --plan} shows this.
   *
   * @param section the {@code mcp_gateway} section (only read: its effective stub set)
   * @param verdicts computes the verdicts from the records read
   * @return the plan
   * @throws NullPointerException if an argument, or an element of what {@code verdicts} returns, is
   *     null
   * @throws IllegalStateException if this facade is closed
   */
  public Seeding.SeedPlan planSeed(Map<String, ?> section, SeedVerdicts verdicts) {
    Objects.requireNonNull(section, "section");
    Objects.requireNonNull(verdicts, "verdicts");
    ensureOpen();
    LedgerView ledger =
        HazardLedger.of(reader.ledger(records.ledgerFile(), name -> true).value()).readOnly();
    VerdictCache cache = VerdictCache.of(reader.cache(records.cacheFile(), name -> true).value());
    List<Verdict> rows = verdicts.of(ledger, cache);
    requireElements(rows, "verdicts");
    return Seeding.plan(
        cache.applied(), Seeding.recommendations(rows), Seeding.effectiveStubSet(section));
  }

  /**
   * As {@link #seed}, with the verdicts computed under the cache lock, saying what it did: which
   * names it added to {@code stub_overrides}, which it left as they were, and whether it wrote new
   * markers. {@code kcshare seed --apply} does this inside its config lock. Takes the cache lock
   * (when an evaluation pass holds it, says so in the log at INFO and waits for it), reads the
   * ledger file, has {@code verdicts} compute the verdicts from both, plans, applies the plan to
   * {@code section}, has {@code writer} write it when it changed, then marks the servers seeded.
   *
   * @param <E> what {@code writer} may throw
   * @param section the gateway's in-memory {@code mcp_gateway} section (changed in place)
   * @param verdicts computes the verdicts from the records as they are under the lock; an {@code
   *     unknown} verdict is neither seeded nor marked
   * @param writer writes the section to the gateway's config file when it changed
   * @return what the seed did
   * @throws RecordsException if the cache lock or file cannot be used (nothing is marked)
   * @throws InterruptedException if interrupted while waiting for the cache lock
   * @throws E what {@code writer} threw (nothing is marked)
   * @throws NullPointerException if an argument, or an element of what {@code verdicts} returns, is
   *     null
   * @throws IllegalStateException if this facade is closed
   */
  public <E extends Exception> SeedResult applySeed(
      Map<String, Object> section, SeedVerdicts verdicts, ConfigWriter<E> writer)
      throws RecordsException, InterruptedException, E {
    Objects.requireNonNull(section, "section");
    Objects.requireNonNull(verdicts, "verdicts");
    Objects.requireNonNull(writer, "writer");
    ensureOpen();
    return seedUnderLock(
        section,
        cache ->
            verdicts.of(HazardLedger.of(LedgerStore.read(records.ledgerFile())).readOnly(), cache),
        writer);
  }

  private <E extends Exception> SeedResult seedUnderLock(
      Map<String, Object> section,
      java.util.function.Function<VerdictCache, List<Verdict>> verdicts,
      ConfigWriter<E> writer)
      throws RecordsException, InterruptedException, E {
    Path file = records.cacheFile();
    CacheStore.Session markers = openCacheWaiting(file);
    SeedResult result;
    boolean marked = false;
    try {
      VerdictCache cache = markers.cache();
      List<Verdict> rows = verdicts.apply(cache);
      requireElements(rows, "verdicts");
      Seeding.SeedPlan plan =
          Seeding.plan(
              cache.applied(),
              Seeding.recommendations(rows), // an unknown verdict is left for a later seed
              Seeding.effectiveStubSet(section));
      List<String> roster = Seeding.roster(section);
      Map<String, Boolean> before = Seeding.validOverrides(section);
      List<String> added = new ArrayList<>();
      List<String> kept = new ArrayList<>();
      for (String name : plan.addStub()) {
        (!roster.contains(name) && !before.containsKey(name) ? added : kept).add(name);
      }
      boolean changed = Seeding.apply(plan, section, cache::markApplied);
      if (changed) {
        writer.write(section); // what the gateway's own write throws passes as it is
      }
      boolean flushed;
      try {
        flushed = markers.flush();
      } catch (IOException e) {
        throw RecordsException.of(e, file);
      }
      marked = true;
      result = new SeedResult(plan, changed ? added : List.of(), kept, changed, flushed);
    } finally {
      if (!marked) {
        closeQuietly(markers);
      }
    }
    try {
      markers.close();
    } catch (IOException e) {
      throw RecordsException.of(e, file);
    }
    return result;
  }

  /** Takes the cache lock, saying so when an evaluation pass holds it. */
  private static CacheStore.Session openCacheWaiting(Path file)
      throws RecordsException, InterruptedException {
    try {
      CacheStore.Session session = CacheStore.open(file, Duration.ZERO);
      if (session == null) {
        log().info("waiting for the verdict cache lock (an evaluation pass is running)");
        session = CacheStore.open(file);
      }
      return session;
    } catch (IOException e) {
      throw RecordsException.of(e, file);
    }
  }

  private static void closeQuietly(CacheStore.Session session) {
    try {
      session.close();
    } catch (IOException e) {
      log().debug("cannot release the cache lock", e);
    }
  }

  /**
   * Bulk-stub eligibility at the point of the write, inside the gateway's config lock: which of the
   * names a client asked to stub may be stubbed, from the configured servers, the live ledger and
   * the verdict cache (read once). Write {@code result.stubbed()} with {@link Seeding#setOverrides}
   * and answer the client with {@code stubbed} and {@code skipped}.
   *
   * @param requested the names the client asked to stub
   * @param settings the gateway's effective settings
   * @param servers the configured servers
   * @param liveLedger this facade's ledger writer
   * @return the stubbed names and the skipped ones with their reasons
   * @throws NullPointerException if an argument or an element of a list is null
   * @throws IllegalArgumentException if {@code liveLedger} was opened by another facade
   * @throws IllegalStateException if this facade or {@code liveLedger} is closed
   */
  public Eligibility.Result eligibility(
      List<String> requested,
      Eligibility.Settings settings,
      List<ConfiguredServer> servers,
      LedgerWriter liveLedger) {
    requireElements(requested, "requested");
    Objects.requireNonNull(settings, "settings");
    requireElements(servers, "servers");
    Objects.requireNonNull(liveLedger, "liveLedger");
    ensureOpen();
    requireOwn(liveLedger);
    Map<String, ServerFacts> facts = new LinkedHashMap<>();
    for (ConfiguredServer s : servers) {
      facts.put(s.name(), s.facts());
    }
    VerdictCache cache = VerdictCache.of(CacheStore.read(records.cacheFile()));
    return Eligibility.resolve(requested, settings, facts, liveLedger::codesForName, cache);
  }

  /**
   * Stops everything this facade started: cancels the uncapped passes still running and waits for
   * each to save what it measured and tear its processes down, lets a scheduled flush that is
   * running finish, closes (and so flushes) the ledger writer — a failed last flush reaches the
   * builder's {@link Builder#onFlushFailure} listener and the log, once — and stops its threads.
   * The last facade of the JVM to close also removes kcshare's shutdown hook. A close that goes
   * well logs nothing. Idempotent; afterwards every other method of this facade, of its ledger
   * writer and of its passes throws {@link IllegalStateException}. Blocking. Call it after any
   * budgeted pass of yours has returned.
   */
  @Override
  public void close() {
    List<BackgroundPass> running;
    LedgerWriter open;
    ScheduledThreadPoolExecutor scheduled;
    HeadStart head;
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
      running = List.copyOf(passes);
      open = ledger;
      scheduled = flusher;
      head = headStart;
      headStart = null;
      passes.clear();
    }
    if (head != null) {
      head.close(); // a head start no pass continued: its pre-flight stopped, its lock released
    }
    boolean interrupted = false;
    for (BackgroundPass pass : running) {
      pass.cancelPass();
    }
    for (BackgroundPass pass : running) {
      interrupted |= pass.awaitEnd();
    }
    if (scheduled != null) {
      scheduled.shutdown(); // no interrupt: a flush that is running ends as it would
      interrupted |= awaitTermination(scheduled);
    }
    if (open != null) {
      open.close();
    }
    StdioProber made;
    synchronized (lifecycle) {
      made = prober;
    }
    if (made != null) {
      made.close();
    }
    if (OPEN.decrementAndGet() == 0) {
      ProbeShutdown.releaseIfIdle();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits for the flush thread to end; true if interrupted meanwhile (the flag is then clear). */
  private static boolean awaitTermination(ScheduledThreadPoolExecutor executor) {
    boolean interrupted = false;
    while (true) {
      try {
        if (executor.awaitTermination(1, TimeUnit.MINUTES)) {
          return interrupted;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
  }

  boolean isClosed() {
    return closed;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("this Shareability is closed");
    }
  }

  /** Checks a list argument and its elements at the call, naming the parameter. */
  private static void requireElements(List<?> list, String parameter) {
    Objects.requireNonNull(list, parameter);
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == null) {
        throw new NullPointerException(parameter + "[" + i + "]");
      }
    }
  }

  private EvaluationRunner runner() {
    synchronized (lifecycle) {
      EvaluationRunner r = runner;
      if (r == null) {
        r = new EvaluationRunner(prober(), workers, clock); // two processes per server at once
        runner = r;
      }
      return r;
    }
  }

  /**
   * The prober of this facade's passes, made by the first one: a facade that only reads servers and
   * verdicts loads nothing of the prober.
   */
  private StdioProber prober() {
    synchronized (lifecycle) {
      StdioProber p = prober;
      if (p == null) {
        ProbeOptions options = ProbeOptions.defaults();
        p =
            StdioProber.create(
                environment,
                workingDirectory,
                probeTimeout == null ? options : options.withTimeout(probeTimeout),
                ProcessPermits.of(processCeiling));
        prober = p;
      }
      return p;
    }
  }

  private Fingerprints fingerprints() {
    return new Fingerprints(environment.get("PATH"), workingDirectory);
  }

  /** The facade's own threads by default: daemons named {@code kcshare-embed-N}. */
  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return task -> {
      Thread t = new Thread(task, "kcshare-embed-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Configures a {@link Shareability}; every setting has a default except the directory.
   *
   * <pre>{@code
   * Shareability kc =
   *     Shareability.builder(recordsDir)
   *         .hostProfile(HostProfile.empty())
   *         .identityKeys(IdentityKeys.resolve(section.get("pool_identity_env")))
   *         .processCeiling(8)
   *         .build();
   * }</pre>
   */
  public static final class Builder {
    private final Path recordsDirectory;
    private Map<String, String> environment = System.getenv();
    private Path workingDirectory = Path.of("").toAbsolutePath();
    private InstantSource clock = InstantSource.system();
    private HostProfile profile = HostProfile.empty();
    private Set<String> identityKeys = Set.of();
    private int processCeiling = ProcessPermits.DEFAULT_CEILING;
    private @Nullable Duration probeTimeout; // null: ProbeOptions.DEFAULT_TIMEOUT
    private RecordReader reader = RecordReader.FILES;
    private ThreadFactory threads = daemonThreads();
    private Consumer<RecordsException> onFlushFailure = problem -> {};

    private Builder(Path recordsDirectory) {
      this.recordsDirectory = recordsDirectory;
    }

    /**
     * The environment servers inherit under their declared env, and whose {@code PATH} finds
     * commands (default: this process's environment).
     *
     * @param environment the base environment (copied)
     * @return this builder
     * @throws NullPointerException if {@code environment}, a name or a value is null
     */
    public Builder environment(Map<String, String> environment) {
      Objects.requireNonNull(environment, "environment");
      environment.forEach(
          (k, v) -> {
            if (k == null || v == null) {
              throw new NullPointerException("environment entry");
            }
          });
      this.environment = environment;
      return this;
    }

    /**
     * Where relative commands, file arguments and a relative records directory resolve (default:
     * this process's current directory when the builder was made).
     *
     * @param workingDirectory the directory
     * @return this builder
     * @throws NullPointerException if {@code workingDirectory} is null
     */
    public Builder workingDirectory(Path workingDirectory) {
      this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
      return this;
    }

    /**
     * The wall clock for {@code lastSeen}, clear markers, the time a server was measured and the
     * retry times of failed pre-flights (default: the system clock; a fixed one in tests, such as
     * {@code InstantSource.fixed(instant)} or any {@link java.time.Clock}).
     *
     * @param clock the wall clock
     * @return this builder
     * @throws NullPointerException if {@code clock} is null
     */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The host profile (managed-server classification, docs/design.md#host-profile); empty by
     * default, which claims no name either way.
     *
     * @param profile the profile
     * @return this builder
     * @throws NullPointerException if {@code profile} is null
     */
    public Builder hostProfile(HostProfile profile) {
      this.profile = Objects.requireNonNull(profile, "profile");
      return this;
    }

    /**
     * The resolved {@code pool_identity_env} names (see {@link
     * dev.kcshare.core.verdict.IdentityKeys#resolve}); empty by default.
     *
     * @param identityKeys the names (copied)
     * @return this builder
     * @throws NullPointerException if {@code identityKeys} or an element is null
     */
    public Builder identityKeys(Set<String> identityKeys) {
      Objects.requireNonNull(identityKeys, "identityKeys");
      for (String key : identityKeys) {
        Objects.requireNonNull(key, "identityKeys element");
      }
      this.identityKeys = identityKeys;
      return this;
    }

    /**
     * Most live server processes across a pass (default 8); each measured server needs two at once.
     *
     * @param processCeiling at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code processCeiling} is below 1
     */
    public Builder processCeiling(int processCeiling) {
      if (processCeiling < 1) {
        throw new IllegalArgumentException("processCeiling must be at least 1: " + processCeiling);
      }
      this.processCeiling = processCeiling;
      return this;
    }

    /**
     * The per-response pre-flight timeout (default 15 s).
     *
     * @param probeTimeout 5 to 120 seconds
     * @return this builder
     * @throws NullPointerException if {@code probeTimeout} is null
     * @throws IllegalArgumentException if {@code probeTimeout} is outside 5 to 120 seconds
     */
    public Builder probeTimeout(Duration probeTimeout) {
      Objects.requireNonNull(probeTimeout, "probeTimeout");
      ProbeOptions.defaults().withTimeout(probeTimeout); // refuses a value outside 5 to 120 s now
      this.probeTimeout = probeTimeout;
      return this;
    }

    /**
     * Makes the threads the facade starts: the ledger's flush thread and each uncapped pass's
     * thread (default: daemon threads named {@code kcshare-embed-N}). The pre-flight's own worker
     * threads are kcshare's.
     *
     * @param threads the factory (for example the gateway's own, to name and group them)
     * @return this builder
     * @throws NullPointerException if {@code threads} is null
     */
    public Builder threadFactory(ThreadFactory threads) {
      this.threads = Objects.requireNonNull(threads, "threads");
      return this;
    }

    /**
     * Told when the ledger writer's last flush (at its close, or the facade's) fails, so what was
     * recorded since the last successful flush did not reach the file. Called once, on the closing
     * thread; it must not block, and a listener that throws is ignored. The failure is logged too.
     * Default: nothing beyond the log.
     *
     * @param listener receives the problem: the path and the reason
     * @return this builder
     * @throws NullPointerException if {@code listener} is null
     */
    public Builder onFlushFailure(Consumer<RecordsException> listener) {
      this.onFlushFailure = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** How record files are read; an instrumentation seam for tests. */
    Builder recordReader(RecordReader reader) {
      this.reader = Objects.requireNonNull(reader, "reader");
      return this;
    }

    /**
     * Builds the facade. Creates nothing on disk, spawns nothing and starts no thread.
     *
     * @return the facade; close it when the gateway stops
     */
    public Shareability build() {
      return new Shareability(this);
    }
  }
}
