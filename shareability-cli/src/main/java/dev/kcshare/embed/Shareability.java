package dev.kcshare.embed;

import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.HostServers;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.RecordsException;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.policy.internal.Selection;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileProblems;
import dev.kcshare.host.HostContext;
import dev.kcshare.host.KcshareThreads;
import dev.kcshare.host.config.HostConfigLoader;
import dev.kcshare.host.evaluation.HeadStart;
import dev.kcshare.host.evaluation.PassEngine;
import dev.kcshare.host.evaluation.SinglePreflight;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.prober.ProcessPermits;
import dev.kcshare.host.prober.SpawnRegistry;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.LedgerStore;
import dev.kcshare.host.records.RecordReader;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.records.RecordsTrust;
import dev.kcshare.host.report.VerdictReport;
import dev.kcshare.host.seeding.SeedService;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

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
  private final RecordsDirectory records;
  private final Map<String, String> environment;
  private final Path workingDirectory;
  private final InstantSource wallClock;
  private final DoubleSupplier clock;
  private final HostProfile profile;
  private final Set<String> identityKeys;
  private final AtomicBoolean readChecked = new AtomicBoolean();
  private final PassEngine engine; // the prober and the pass runner, made by the first pass
  private final RecordReader reader;
  private final Consumer<RecordsException> onFlushFailure;
  private final Lifecycle lifecycle; // what this facade started and must stop

  private Shareability(Builder b) {
    this.workingDirectory = b.workingDirectory.toAbsolutePath().normalize();
    this.records =
        new RecordsDirectory(
            RecordsDirectory.withoutDotSegments(workingDirectory.resolve(b.recordsDirectory)),
            RecordsDirectory.Rule.OPTION);
    this.environment = Map.copyOf(b.environment);
    this.wallClock = b.clock;
    this.clock = () -> wallClock.millis() / 1000.0; // epoch seconds, as the record files keep them
    this.profile = b.profile;
    this.identityKeys = Set.copyOf(b.identityKeys);
    this.engine =
        new PassEngine(
            environment, workingDirectory, b.probeTimeout, b.processCeiling, clock, b.threads);
    this.reader = b.reader;
    this.onFlushFailure = b.onFlushFailure;
    this.lifecycle = new Lifecycle(b.threads.facadeThreads(), engine::close);
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

  /**
   * The start-up check: whether the records directory can be used as kcshare uses it, without
   * creating or writing anything. Call it once when the gateway starts, before opening the ledger;
   * a problem it reports is the operator's to fix, and every write would fail the same way. It
   * refuses a path that is not a directory, a directory others may write (or under an ancestor that
   * lets them; docs/security.md#who-may-write-the-records-directory), and one this process cannot
   * write. A directory that does not exist yet passes when it can be created where its path exists.
   * Blocking: file I/O.
   *
   * @throws RecordsException naming the path and the reason; {@link RecordsException#isRefused()}
   *     for a directory others may write
   * @throws IllegalStateException if this facade is closed
   */
  public void checkRecordsDirectory() throws RecordsException {
    ensureOpen();
    try {
      RecordsTrust.check(records.path());
    } catch (IOException e) {
      throw FileProblems.asRecordsException(e, records.path());
    }
  }

  /** On the first read of the records, warns once when others may write the directory. */
  private void warnOnceWhenOthersMayWrite() {
    if (readChecked.compareAndSet(false, true)) {
      RecordsTrust.warnOnRead(records.path());
    }
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
    return openWriter(null);
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
    LedgerWriter.requireFlushPeriod(flushEvery);
    return openWriter(flushEvery);
  }

  private LedgerWriter openWriter(@Nullable Duration flushEvery) {
    return lifecycle.openLedger(
        forget ->
            new LedgerWriter(
                this,
                new LedgerStore(records.ledgerFile(), clock),
                problem -> Callbacks.run(() -> onFlushFailure.accept(problem)),
                forget),
        flushEvery,
        () -> records.ledgerFile().toString());
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
    return engine.servers(definitions);
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
    return engine.launchIdentity(definition, identityKeys);
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
    warnOnceWhenOthersMayWrite();
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
    warnOnceWhenOthersMayWrite();
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
          request);
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
    warnOnceWhenOthersMayWrite();
    return VerdictReport.load(records, reader, VerdictReport.namesOf(servers))
        .verdicts(servers, host.hostProfile(), host.identityKeys());
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
    return runPass(
        List.copyOf(servers), options, Callbacks.of(listener), lifecycle.takeHeadStart());
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
      return engine.runner().run(servers, records.cacheFile(), options, listener, head);
    } catch (IOException e) {
      throw FileProblems.asRecordsException(e, records.path());
    }
  }

  /**
   * Begins a pass of {@link PassOptions.Kind#NAMED} over the one server {@code server} now, so that
   * its two spawns overlap whatever the caller still has to do before it asks for the result (the
   * {@code kcshare} command begins one before it has parsed its command line; docs/performance.md).
   * It is begun only when it would spawn at once: the server may be spawned and the cache lock is
   * free now; otherwise nothing is spawned and {@code false} is returned. The next {@link #pass} of
   * exactly this server and these options continues it; a pass of anything else, or {@link
   * #close()}, ends it (its processes torn down, the lock released) before doing its own work.
   *
   * @param server the configured server
   * @param options the options the later pass will use
   * @return whether it was begun
   * @throws RecordsException when the records directory or the lock cannot be used, or the cache
   *     file must be left as it is (that file is read while the server starts: its processes are
   *     torn down and the lock released before this is thrown)
   * @throws InterruptedException when interrupted while taking the lock
   * @throws IllegalStateException when one is begun already, or after {@link #close()}
   */
  public boolean beginPass(ConfiguredServer server, PassOptions options)
      throws RecordsException, InterruptedException {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(options, "options");
    try {
      return lifecycle.beginHeadStart(
          () -> engine.runner().startEarly(server, records.cacheFile(), options));
    } catch (IOException e) {
      throw FileProblems.asRecordsException(e, records.path());
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
   * @param options as a pass of them would measure the server
   *     (docs/design.md#which-era-is-measured): its era choice ({@link PassOptions#era}) and
   *     whether it runs a designated isolation self-test ({@link PassOptions#selfTest}); its other
   *     options do not apply to one pre-flight ({@link PassOptions#named()} for the defaults)
   * @return the result: {@code stored} false, {@code failuresInARow} 0
   * @throws RecordsException if the capture directory or a capture file cannot be written (nothing
   *     is spawned when the directory cannot be prepared)
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
          engine.prober().withEra(options.era()).withSelfTest(options.selfTest()),
          server.first().definition(),
          root);
    } catch (IOException e) {
      throw FileProblems.asRecordsException(e, Objects.requireNonNull(root));
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
        new AtomicReference<>(new Results.PassProgress(true, 0, 0, snapshot.size()));
    return lifecycle.startPass(
        threads ->
            BackgroundPass.start(
                this,
                progress,
                () ->
                    runPass(
                        snapshot,
                        PassOptions.uncapped(),
                        Callbacks.publishing(listener, progress),
                        null),
                threads));
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
      throw FileProblems.asRecordsException(e, records.ledgerFile());
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
    return new SeedService(records, reader).seed(section, verdicts, writer::write).plan();
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
   * writer and of its passes throws {@link IllegalStateException}. Blocking, except when called
   * from one of this facade's callbacks (a pass listener, the flush-failure listener): it then
   * cancels the passes and returns at once, and the rest of the close runs on a thread of the
   * builder's {@link Builder#threadFactory}. Call it after any budgeted pass of yours has returned.
   */
  @Override
  public void close() {
    lifecycle.close();
  }

  boolean isClosed() {
    return lifecycle.isClosed();
  }

  private void ensureOpen() {
    lifecycle.ensureOpen();
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
    private KcshareThreads threads = KcshareThreads.defaults();
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
     * Makes every thread kcshare starts for this facade (docs/embedding.md#threads): its own (the
     * ledger's flush thread, each uncapped pass's thread, a close finisher), used as the factory
     * makes them, and those of each pass (its workers, the head start, the version re-check, the
     * pre-flight's pool and each spawned server's stdin, stdout and stderr pumps), which kcshare
     * names by appending its name for the job ({@code /kcshare-probe-3-stdout}) and always makes
     * daemons. Not from it: the JDK's {@code process reaper} threads that wait for each server, and
     * kcshare's JVM shutdown hook ({@code kcshare-probe-shutdown}). Default: daemon threads named
     * {@code kcshare-embed-N} and {@code kcshare-...} for each job.
     *
     * @param threads the factory (for example the gateway's own, to name and group them); a null
     *     thread from it is a refusal, which fails the pre-flight or pass that needed the thread
     * @return this builder
     * @throws NullPointerException if {@code threads} is null
     */
    public Builder threadFactory(ThreadFactory threads) {
      this.threads = KcshareThreads.of(Objects.requireNonNull(threads, "threads"));
      return this;
    }

    /**
     * Told when a flush of the ledger writer fails: when scheduled flushes ({@link
     * #openLedger(Duration)}) start failing, on the flush thread, while the gateway runs (once
     * while the same failure lasts; the next flush retries and nothing recorded is lost meanwhile),
     * and the last flush at close, on the closing thread (what was recorded since the last
     * successful flush did not reach the file). It must not block, and a listener that throws is
     * ignored; it may call {@link Shareability#close()}. The failure is logged too. Default:
     * nothing beyond the log.
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
