package dev.kcshare.host.evaluation;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.policy.Backoff;
import dev.kcshare.core.policy.RuntimeResolved;
import dev.kcshare.core.policy.Selection;
import dev.kcshare.core.records.AttemptRecord;
import dev.kcshare.core.records.CacheLookup;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.FailedAttempts;
import dev.kcshare.core.records.RecordLimits;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.embed.ConfiguredServer;
import dev.kcshare.embed.ServerDefinition;
import dev.kcshare.host.FileProblems;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.prober.ProbeOutcome;
import dev.kcshare.host.prober.SpawnRegistry;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.records.AttemptStore;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.LockHolder;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs evaluation passes (docs/design.md#evaluation-passes): holds the cache lock from the cache
 * read through the flush, selects what is due with the core policy, measures it concurrently under
 * the prober's process ceiling, stores what ran, and flushes once at the end.
 *
 * <p>A failure measuring one server becomes {@code ran:false} for that server and never ends the
 * pass; such results are reported but never stored in the cache. They are remembered, per server,
 * in kcshare's own attempts file beside it ({@link AttemptStore}), and a pass of due servers skips
 * a server whose pre-flight keeps failing under the same identity ({@link Backoff}); a success
 * forgets the failures. A server that timed out while others were measured at the same time is
 * tried once more at the end of the pass, alone, with twice the timeout, before its failure counts.
 * Cancellation (interruption) flushes the verdicts already paid for, then propagates.
 */
public final class EvaluationRunner {
  /**
   * Looked up when there is something to log, not in a static field: a pass that logs nothing never
   * starts the logging backend (docs/performance.md).
   */
  private static Logger log() {
    return LoggerFactory.getLogger(EvaluationRunner.class);
  }

  /** How long a stopped pass waits for its pre-flights' teardown before giving up on them. */
  private static final long STOP_WAIT_SECONDS = 30;

  private final Preflights prober;
  private final int workers;
  private final DoubleSupplier clock;

  /**
   * @param prober the prober; its process permits bound live server processes across the pass
   * @param workers how many servers are measured at once (each needs up to 2 processes)
   * @param clock wall-clock epoch seconds, for {@code evaluatedAt}, failed attempts and backoff
   */
  public EvaluationRunner(StdioProber prober, int workers, DoubleSupplier clock) {
    this(Preflights.of(prober), workers, clock);
  }

  EvaluationRunner(Preflights prober, int workers, DoubleSupplier clock) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1: " + workers);
    }
    this.prober = Objects.requireNonNull(prober, "prober");
    this.workers = workers;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The response timeout of the end-of-pass retry: twice the pass's, at most {@link
   * ProbeOptions#MAX_TIMEOUT}.
   */
  static Duration retryTimeout(Duration timeout) {
    Duration doubled = timeout.multipliedBy(2);
    return doubled.compareTo(ProbeOptions.MAX_TIMEOUT) > 0 ? ProbeOptions.MAX_TIMEOUT : doubled;
  }

  /** What a pass should do. */
  public enum Mode {
    /** Measure everything due; wait for another pass unless told not to. */
    UNCAPPED,
    /** Measure at most a budget; never wait: serve stored rows when another pass runs. */
    BUDGETED,
    /**
     * Measure exactly the given servers now, whatever the cache holds; waits like UNCAPPED. A
     * disabled or command-less server is reported as could-not-run and never spawned.
     */
    FORCED
  }

  /**
   * Options of one pass.
   *
   * @param mode the pass mode
   * @param budget the budget of a BUDGETED pass
   * @param waitForLock whether an UNCAPPED or FORCED pass waits for a running pass
   * @param retryFailed an UNCAPPED or BUDGETED pass also tries servers it would skip because their
   *     pre-flight kept failing (a FORCED pass always does)
   */
  public record Options(Mode mode, int budget, boolean waitForLock, boolean retryFailed) {
    /** An uncapped pass ({@code measure --all}). */
    public static Options uncapped(boolean waitForLock) {
      return new Options(Mode.UNCAPPED, Selection.UNCAPPED, waitForLock, false);
    }

    /** A budgeted pass reached incidentally. */
    public static Options budgeted(int budget) {
      return new Options(Mode.BUDGETED, budget, false, false);
    }

    /** The given servers, measured now. */
    public static Options forced(boolean waitForLock) {
      return new Options(Mode.FORCED, Selection.UNCAPPED, waitForLock, true);
    }

    /** A copy that tries failing servers at once, or not ({@code measure --all --retry-failed}). */
    public Options withRetryFailed(boolean retry) {
      return new Options(mode, budget, waitForLock, retry || mode == Mode.FORCED);
    }
  }

  /**
   * Runs one pass over {@code servers} (config order) against the cache file.
   *
   * @throws InterruptedException when cancelled, after flushing what was already measured
   * @throws IOException when the lock or the final write fails (kcshare's own failure)
   */
  public PassResult run(
      List<ConfiguredServer> servers,
      Path cacheFile,
      Options options,
      PassProgress.Listener listener)
      throws IOException, InterruptedException {
    return run(servers, cacheFile, options, listener, null);
  }

  /**
   * {@link #run(List, Path, Options, PassProgress.Listener)}, continuing {@code head} when it was
   * begun ({@link #startEarly}) for exactly this pass: its lock, and its pre-flight for its server.
   * A head start for anything else is ended first (its pre-flight stopped, its lock released).
   *
   * @throws InterruptedException when cancelled, after flushing what was already measured
   * @throws IOException when the lock or the final write fails (kcshare's own failure)
   */
  public PassResult run(
      List<ConfiguredServer> servers,
      Path cacheFile,
      Options options,
      PassProgress.Listener listener,
      @Nullable HeadStart head)
      throws IOException, InterruptedException {
    Objects.requireNonNull(servers, "servers");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(listener, "listener");
    PassProgress.Listener events = new SafeListener(listener);
    if (head != null && !head.isFor(this, servers, cacheFile, options)) {
      head.close();
      head = null;
    }
    Path recordsDir = cacheFile.toAbsolutePath().getParent();
    CacheStore.Session session;
    SpawnRegistry registry;
    if (head != null) {
      // The head start reaped, took the lock and opened the registry, as below, before it spawned.
      session = head.take();
      registry = head.registry;
    } else {
      // What a killed pass left running on these records ends before this pass spawns anything
      // (docs/design.md#process-registry); a live pass's processes are left alone.
      SpawnRegistry.reapOrphans(recordsDir);
      Duration wait =
          options.mode() == Mode.BUDGETED || !options.waitForLock() ? Duration.ZERO : null;
      session = CacheStore.open(cacheFile, wait, events::onWaitingForLock);
      if (session == null) {
        return busy(servers, cacheFile, options);
      }
      registry = SpawnRegistry.open(recordsDir);
    }
    try (session;
        registry) {
      return runLocked(
          servers,
          session,
          AttemptStore.besideCache(cacheFile),
          options,
          events,
          prober.withSpawnWatcher(registry),
          head);
    } finally {
      if (head != null) {
        head.close(); // its pre-flight was awaited, or stopped: this only ends its thread
      }
    }
  }

  /**
   * Begins a pass of {@link Mode#FORCED} over the one server {@code server}: does what {@link #run}
   * does before its first spawn — reaps what a killed pass left running, takes the cache lock (only
   * if it is free now), opens the spawn registry — and starts the server's pre-flight on a thread
   * of its own, its processes recorded in the registry like any pass's. Returns null, having
   * spawned nothing, when the pass would not spawn it at once: the server is refused (disabled,
   * nothing to spawn) or the lock is held. Continue it with {@link #run(List, Path, Options,
   * PassProgress.Listener, HeadStart)}; close a head start that is not continued.
   *
   * @throws IOException when the lock cannot be taken (as {@link #run} would fail)
   * @throws IllegalArgumentException unless {@code options} is a FORCED pass
   */
  public @Nullable HeadStart startEarly(ConfiguredServer server, Path cacheFile, Options options)
      throws IOException, InterruptedException {
    Objects.requireNonNull(server, "server");
    if (options.mode() != Mode.FORCED) {
      throw new IllegalArgumentException("only a forced pass starts early: " + options.mode());
    }
    if (refusal(server) != null) {
      return null;
    }
    Path recordsDir = cacheFile.toAbsolutePath().getParent();
    SpawnRegistry.reapOrphans(recordsDir);
    CacheStore.Session session = CacheStore.open(cacheFile, Duration.ZERO, null);
    if (session == null) {
      return null;
    }
    SpawnRegistry registry = null;
    try {
      registry = SpawnRegistry.open(recordsDir);
      return new HeadStart(this, server, cacheFile, options, session, registry);
    } catch (RuntimeException | Error e) {
      if (registry != null) {
        registry.close();
      }
      session.close();
      throw e;
    }
  }

  /**
   * A forced pass of one server begun by {@link #startEarly}: it holds the cache lock, and its
   * server's pre-flight runs on a thread of its own. Closing it (idempotent) stops a pre-flight
   * that nobody awaited, waits for its teardown and releases the lock.
   */
  public static final class HeadStart implements AutoCloseable {
    private final EvaluationRunner runner;
    private final ConfiguredServer server;
    private final Path cacheFile;
    private final Options options;
    private final CacheStore.Session session;
    private final SpawnRegistry registry;
    private final FutureTask<Measured> task;
    private final Thread thread;
    private boolean taken;

    private HeadStart(
        EvaluationRunner runner,
        ConfiguredServer server,
        Path cacheFile,
        Options options,
        CacheStore.Session session,
        SpawnRegistry registry) {
      this.runner = runner;
      this.server = server;
      this.cacheFile = cacheFile;
      this.options = options;
      this.session = session;
      this.registry = registry;
      PassProgress.Listener none = progress -> {}; // its events come when the pass awaits it
      Preflights prober = runner.prober.withSpawnWatcher(registry);
      this.task = new FutureTask<>(() -> runner.measure(server, prober, prober.timeout(), none));
      this.thread = new Thread(task, "kcshare-head-start");
      thread.setDaemon(true);
      thread.start();
    }

    boolean isFor(EvaluationRunner other, List<ConfiguredServer> servers, Path file, Options opts) {
      // Compared by identity and field by field: a record's generated equals is bootstrapped
      // through method handles on first use, tens of milliseconds at start-up.
      return other == runner
          && !taken
          && servers.size() == 1
          && servers.get(0) == server
          && file.equals(cacheFile)
          && opts.mode() == options.mode()
          && opts.budget() == options.budget()
          && opts.waitForLock() == options.waitForLock()
          && opts.retryFailed() == options.retryFailed();
    }

    /** The lock, handed to the pass that continues this head start. */
    private synchronized CacheStore.Session take() {
      taken = true;
      return session;
    }

    boolean measures(ConfiguredServer s) {
      return s == server;
    }

    /**
     * The pre-flight's result; when the waiting thread is interrupted, the pre-flight is stopped
     * (its processes torn down) before the interruption propagates.
     */
    private Measured await() throws InterruptedException {
      try {
        return task.get();
      } catch (InterruptedException e) {
        stop();
        throw e;
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof InterruptedException ie) {
          throw ie;
        }
        if (cause instanceof Error error) {
          throw error;
        }
        throw new IllegalStateException("pre-flight task failed", cause);
      }
    }

    /** Interrupts the pre-flight and waits until it has ended (teardown included). */
    private void stop() {
      thread.interrupt();
      boolean interrupted = false;
      while (true) {
        try {
          thread.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void close() {
      stop(); // at once when the pre-flight had ended
      boolean release;
      synchronized (this) {
        release = !taken;
        taken = true;
      }
      if (release) {
        registry.close();
        try {
          session.close();
        } catch (IOException e) {
          log().debug("releasing the cache lock failed", e);
        }
      }
    }
  }

  private PassResult busy(List<ConfiguredServer> servers, Path cacheFile, Options options) {
    if (options.mode() != Mode.BUDGETED) {
      return new PassResult(
          PassResult.Outcome.BUSY, List.of(), Map.of(), new PassProgress(false, 0, 0, 0));
    }
    // Yield: the running pass measures the same servers; serve stored rows by name.
    VerdictCache cache = VerdictCache.of(CacheStore.read(cacheFile));
    Map<String, CacheRow> stored = new LinkedHashMap<>();
    for (ConfiguredServer s : servers) {
      CacheRow row = cache.getByName(s.name());
      if (row != null) {
        stored.put(s.name(), row);
      }
    }
    return new PassResult(
        PassResult.Outcome.YIELDED, List.of(), stored, new PassProgress(false, 0, 0, 0));
  }

  private PassResult runLocked(
      List<ConfiguredServer> servers,
      CacheStore.Session session,
      Path attemptsFile,
      Options options,
      PassProgress.Listener listener,
      Preflights prober,
      @Nullable HeadStart head)
      throws IOException, InterruptedException {
    VerdictCache cache = session.cache();
    FailedAttempts attempts = AttemptStore.load(attemptsFile);
    Map<String, ConfiguredServer> byName = new LinkedHashMap<>();
    for (ConfiguredServer s : servers) {
      byName.putIfAbsent(s.name(), s);
    }

    Map<String, String> versions;
    try {
      versions =
          options.mode() == Mode.UNCAPPED
              ? recheckVersions(byName.values(), cache, prober)
              : Map.of();
    } catch (InterruptedException | RuntimeException | Error e) {
      flushQuietly(session, null, null); // handshakes refreshed so far
      throw e;
    }
    List<Selection.Candidate> candidates = new ArrayList<>();
    for (ConfiguredServer s : byName.values()) {
      candidates.add(candidate(s, versions.getOrDefault(s.name(), "")));
    }
    Map<String, Double> heldBack =
        options.mode() == Mode.FORCED || options.retryFailed() || attempts.all().isEmpty()
            ? Map.of()
            : Backoff.heldBack(candidates, attempts, clock.getAsDouble());
    Selection selection =
        Selection.select(
            candidates,
            cache,
            options.mode() == Mode.BUDGETED ? options.budget() : Selection.UNCAPPED,
            heldBack);
    for (Map.Entry<String, CacheLookup> drop : selection.versionDrops().entrySet()) {
      log().info(drop.getValue().versionDropMessage(drop.getKey()));
    }
    List<String> due = selection.due();
    if (options.mode() == Mode.FORCED) {
      due = new ArrayList<>(byName.keySet());
    }

    Tally tally = new Tally(cache, attempts, options.mode() != Mode.FORCED, due.size(), listener);
    int poolSize = Math.max(1, Math.min(workers, due.size()));
    // Servers measured side by side compete for the host: a timeout there may be the host's.
    boolean busy = poolSize > 1 && due.size() > 1;
    Duration timeout = prober.timeout();
    ExecutorService pool = Executors.newFixedThreadPool(poolSize, daemonThreads("kcshare-pass"));
    CompletionService<Measured> completions = new ExecutorCompletionService<>(pool);
    int pending = 0;
    try {
      for (String name : due) {
        ConfiguredServer server = byName.get(name);
        if (head != null && head.measures(server)) {
          completions.submit(() -> continued(head, listener));
        } else {
          completions.submit(() -> measure(server, prober, timeout, listener));
        }
        pending++;
      }
      List<ConfiguredServer> timedOut = new ArrayList<>();
      while (pending > 0) {
        Measured m = take(completions);
        pending--;
        if (busy && m.timedOut()) {
          timedOut.add(byName.get(m.name()));
        } else {
          tally.count(m);
        }
      }
      Duration longer = retryTimeout(timeout);
      for (ConfiguredServer server : timedOut) {
        listener.onRetrying(server.name(), longer);
        completions.submit(() -> measure(server, prober, longer, listener));
        pending++;
        Measured m = take(completions);
        pending--;
        tally.count(m);
      }
    } catch (InterruptedException | RuntimeException | Error e) {
      // Cancellation, or kcshare's own failure: stop every pre-flight, wait for their teardown,
      // keep whatever completed meanwhile, and save what was paid for before giving up.
      stopAndAwait(pool);
      for (Future<Measured> f; pending > 0 && (f = completions.poll()) != null; pending--) {
        Measured m = completedOrNull(f);
        if (m != null && !(busy && m.timedOut())) {
          tally.store(m);
        }
      }
      flushQuietly(session, attemptsFile, attempts);
      throw e;
    } finally {
      pool.shutdownNow();
    }
    try {
      session.flush();
    } catch (ClosedByInterruptException e) {
      // Cancelled during the final write: the interrupt closed the file channel. Clear it, save
      // what was measured, then let the cancellation pass through
      // (docs/design.md#failure-isolation).
      Thread.interrupted();
      flushQuietly(session, attemptsFile, attempts);
      InterruptedException cancelled = new InterruptedException("cancelled while saving the pass");
      cancelled.initCause(e);
      throw cancelled;
    }
    flushAttempts(attemptsFile, attempts);
    PassProgress last = new PassProgress(false, tally.done, tally.measured, tally.total);
    report(listener, last);
    return new PassResult(
        PassResult.Outcome.RAN, tally.fresh, selection.stored(), last, selection.skipped());
  }

  /** The results of a pass as they complete: stored, remembered, counted and reported. */
  private final class Tally {
    final VerdictCache cache;
    final FailedAttempts attempts;

    /** Whether a failure counts toward the backoff: not in a pass of servers named explicitly. */
    final boolean failuresCount;

    final int total;
    final PassProgress.Listener listener;
    final List<ServerResult> fresh = new ArrayList<>();
    int done;
    int measured;

    Tally(
        VerdictCache cache,
        FailedAttempts attempts,
        boolean failuresCount,
        int total,
        PassProgress.Listener listener) {
      this.cache = cache;
      this.attempts = attempts;
      this.failuresCount = failuresCount;
      this.total = total;
      this.listener = listener;
    }

    void count(Measured m) {
      ServerResult r = store(m);
      fresh.add(r);
      done++;
      if (r.stored()) {
        measured++;
      }
      listener.onFinished(r);
      report(listener, new PassProgress(true, done, measured, total));
    }

    /**
     * Stores a ran result and forgets the server's failures, or remembers a failure; returns what
     * the pass reports for it.
     */
    ServerResult store(Measured m) {
      boolean stored = false;
      CacheRow row = m.row();
      if (row != null) {
        stored = cache.put(m.name(), row);
        if (!stored) {
          log()
              .warn(
                  "not storing the measurement of {}: {}",
                  Escaper.quoted(m.name(), Escaper.SHORT_LIMIT),
                  RecordLimits.rowRefusal(m.name(), row));
        }
      }
      AttemptRecord last = null;
      if (m.result().ran()) {
        attempts.recordSuccess(m.name());
      } else if (m.identity() != null) {
        ProbeOutcome o = m.outcome();
        try {
          double at = clock.getAsDouble();
          String detail = m.result().detail();
          String exit = o == null ? null : o.lastExitStatus();
          String tail = o == null ? "" : o.lastStderrTail();
          last =
              failuresCount
                  ? attempts.recordFailure(m.name(), m.identity(), at, detail, exit, tail)
                  : attempts.recordUncountedFailure(m.name(), m.identity(), at, detail, exit, tail);
        } catch (RuntimeException e) { // a broken clock must not end the pass
          log().debug("not remembering the failed pre-flight", e);
        }
      }
      ProbeOutcome o = m.outcome();
      return new ServerResult(
          m.name(),
          m.result(),
          stored,
          o == null ? "" : o.lastStderrTail(),
          o == null ? null : o.lastExitStatus(),
          o == null ? List.of() : o.attempts(),
          o == null ? null : o.launch(),
          last);
    }
  }

  /**
   * One server measured: its result, the prober's outcome (null when it was refused or failed
   * unexpectedly) and, when it ran, the row to store. Built in the task, so a failure building the
   * row is isolated to that server like any other (docs/design.md#failure-isolation).
   *
   * @param identity the execution identity it was spawned under; null when it was refused (never
   *     spawned), so nothing is remembered about it
   */
  private record Measured(
      String name,
      PreflightResult result,
      @Nullable ProbeOutcome outcome,
      @Nullable CacheRow row,
      @Nullable String identity) {
    boolean timedOut() {
      return outcome != null && outcome.timedOut();
    }
  }

  /** The head start's pre-flight, awaited as if this pass had started it now. */
  private static Measured continued(HeadStart head, PassProgress.Listener events)
      throws InterruptedException {
    events.onStarted(head.server.name());
    return head.await();
  }

  private Measured measure(
      ConfiguredServer server, Preflights prober, Duration timeout, PassProgress.Listener events)
      throws InterruptedException {
    String name = server.name();
    String identity = null;
    try {
      ServerDefinition def = server.first().definition();
      String refusal = refusal(server);
      String agreed = server.commonIdentity();
      if (refusal != null || agreed == null) {
        // Consent withheld, nothing to spawn (a url server may carry a command), or definitions
        // that disagree: never spawned.
        return new Measured(
            name,
            PreflightResult.couldNotRun(refusal != null ? refusal : CONFLICT, null, null),
            null,
            null,
            null);
      }
      identity = agreed;
      events.onStarted(name);
      ProbeOutcome outcome = prober.probe(def, timeout);
      PreflightResult r = outcome.result();
      return new Measured(
          name, r, outcome, r.ran() ? row(outcome, agreed) : /* row= */ null, identity);
    } catch (InterruptedException e) {
      throw e;
    } catch (
        Throwable t) { // docs/design.md#failure-isolation: one server's failure never ends the pass
      if (!isolatable(t)) {
        throw t;
      }
      log().debug("measuring {} failed", Escaper.quoted(name, Escaper.SHORT_LIMIT), t);
      return new Measured(
          name,
          PreflightResult.couldNotRun(PreflightResult.PREFLIGHT_ERROR, null, null),
          null,
          /* row= */ null,
          identity);
    }
  }

  /** Why a server with definitions that disagree is never measured. */
  private static final String CONFLICT = "definitions conflict";

  /**
   * Why a server is never spawned (docs/design.md#pre-flight-ground-rules,
   * docs/design.md#spawning), or null when it may be: its first definition's refusal ({@link
   * ServerDefinition#refusal}, a template that cannot be measured as written first), else a
   * conflict among its definitions (no common identity: no measurement of one definition could
   * count for the name, so none is made, as in the commands).
   */
  private static @Nullable String refusal(ConfiguredServer s) {
    String unmeasurable = s.first().unmeasurable();
    if (unmeasurable != null) {
      return unmeasurable;
    }
    String refusal = s.first().definition().refusal();
    if (refusal != null) {
      return refusal;
    }
    return s.commonIdentity() == null ? CONFLICT : null;
  }

  private static Measured take(CompletionService<Measured> completions)
      throws InterruptedException {
    Future<Measured> f = completions.take();
    try {
      return f.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof InterruptedException ie) {
        throw ie;
      }
      if (cause instanceof Error error) {
        throw error; // not isolatable: a JVM failure
      }
      throw new IllegalStateException("pre-flight task failed", cause);
    }
  }

  private static @Nullable Measured completedOrNull(Future<Measured> f) {
    try {
      return f.isDone() && !f.isCancelled() ? f.get() : null;
    } catch (ExecutionException | InterruptedException | RuntimeException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return null;
    }
  }

  /**
   * Interrupts every task and waits (bounded) until their processes are torn down, deferring an
   * interrupt that arrives meanwhile: the caller is already on its way out.
   */
  private static void stopAndAwait(ExecutorService pool) {
    pool.shutdownNow();
    boolean interrupted = Thread.interrupted();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_SECONDS);
    while (true) {
      try {
        if (pool.awaitTermination(
            Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          break;
        }
        log().warn("pre-flights still running {} s after the pass was stopped", STOP_WAIT_SECONDS);
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory daemonThreads(String name) {
    return task -> {
      Thread t = new Thread(task, name);
      t.setDaemon(true);
      return t;
    };
  }

  private CacheRow row(ProbeOutcome outcome, String identity) {
    PreflightResult r = outcome.result();
    Answer a = r.answerA();
    return new CacheRow(
        true,
        r.callerSensitive(),
        r.reasons(),
        clock.getAsDouble(),
        identity,
        r.reportedVersion(),
        r.era() == null ? Era.LEGACY : r.era(),
        a == null ? null : StoredHandshake.of(a),
        outcome.cost());
  }

  /** Everything but a JVM failure other than stack or heap exhaustion is isolated to one server. */
  private static boolean isolatable(Throwable t) {
    return !(t instanceof VirtualMachineError)
        || t instanceof StackOverflowError
        || t instanceof OutOfMemoryError;
  }

  private static Selection.Candidate candidate(ConfiguredServer s, String version) {
    return new Selection.Candidate(s.name(), s.commonIdentity(), version, refusal(s) == null);
  }

  /**
   * The version re-check of docs/design.md#version-re-check: for every runtime-resolved server with
   * a stored hit, one identity-A exchange; its reported version becomes the current version, and
   * its answer refreshes the handshake of a row it does not invalidate. Its failure changes
   * nothing.
   */
  private Map<String, String> recheckVersions(
      Iterable<ConfiguredServer> servers, VerdictCache cache, Preflights prober)
      throws InterruptedException {
    List<ConfiguredServer> due = new ArrayList<>();
    for (ConfiguredServer s : servers) {
      ServerDefinition def = s.first().definition();
      if (refusal(s) == null
          && RuntimeResolved.isRuntimeResolved(Objects.requireNonNull(def.command()), def.args())
          && cache.get(s.name(), Objects.requireNonNull(s.commonIdentity()), "").isHit()) {
        due.add(s);
      }
    }
    Map<String, String> versions = new LinkedHashMap<>();
    if (due.isEmpty()) {
      return versions;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(workers, due.size())), daemonThreads("kcshare-recheck"));
    try {
      Map<String, Future<Optional<Answer>>> futures = new LinkedHashMap<>();
      for (ConfiguredServer s : due) {
        ServerDefinition def = s.first().definition();
        futures.put(s.name(), pool.submit(() -> prober.probeOnce(def)));
      }
      for (Map.Entry<String, Future<Optional<Answer>>> f : futures.entrySet()) {
        Optional<Answer> answer;
        try {
          answer = f.getValue().get();
        } catch (ExecutionException e) {
          log()
              .debug(
                  "version re-check of {} failed",
                  Escaper.quoted(f.getKey(), Escaper.SHORT_LIMIT),
                  e.getCause());
          continue;
        }
        if (answer.isEmpty()) {
          continue;
        }
        String version = answer.get().reportedVersion();
        if (!version.isEmpty()) {
          versions.put(f.getKey(), version);
        }
        refreshHandshake(cache, f.getKey(), version, answer.get());
      }
    } catch (InterruptedException | RuntimeException | Error e) {
      stopAndAwait(pool);
      throw e;
    } finally {
      pool.shutdownNow();
    }
    return versions;
  }

  /**
   * A row the fresh answer does not invalidate (same version, or either side unknown) keeps its
   * measurement; its handshake is refreshed from the answer.
   */
  private static void refreshHandshake(
      VerdictCache cache, String name, String version, Answer answer) {
    CacheRow row = cache.getByName(name);
    if (row == null
        || (!row.reportedVersion().isEmpty()
            && !version.isEmpty()
            && !row.reportedVersion().equals(version))) {
      return;
    }
    StoredHandshake fresh = StoredHandshake.of(answer);
    if (fresh.equals(row.handshake())) {
      return;
    }
    cache.put(name, row.withHandshake(fresh)); // a re-check is not a measurement: cost kept
  }

  /** An I/O failure in plain words (path and reason); anything else as it is (a defect). */
  private static String describe(Exception e) {
    if (e instanceof dev.kcshare.host.FileProblem problem) {
      return problem.getMessage();
    }
    if (e instanceof IOException) {
      String path = FileProblems.pathOf(e);
      return path == null ? FileProblems.reason(e) : path + ": " + FileProblems.reason(e);
    }
    return e.toString();
  }

  private static void report(PassProgress.Listener listener, PassProgress progress) {
    listener.onProgress(progress);
  }

  /** Passes every event on, ignoring a listener that fails (docs/design.md#progress). */
  private static final class SafeListener implements PassProgress.Listener {
    private final PassProgress.Listener delegate;

    SafeListener(PassProgress.Listener delegate) {
      this.delegate = Objects.requireNonNull(delegate, "listener");
    }

    @Override
    public void onProgress(PassProgress progress) {
      call(() -> delegate.onProgress(progress));
    }

    @Override
    public void onWaitingForLock(LockHolder holder) {
      call(() -> delegate.onWaitingForLock(holder));
    }

    @Override
    public void onStarted(String server) {
      call(() -> delegate.onStarted(server));
    }

    @Override
    public void onFinished(ServerResult result) {
      call(() -> delegate.onFinished(result));
    }

    @Override
    public void onRetrying(String server, Duration timeout) {
      call(() -> delegate.onRetrying(server, timeout));
    }

    private static void call(Runnable event) {
      try {
        event.run();
      } catch (RuntimeException e) {
        log().debug("progress listener failed", e);
      }
    }
  }

  /**
   * Writes the failed attempts after the cache. They only steer later passes and what {@code
   * assess} shows, so a failed write is a warning, never the pass's failure.
   */
  private static void flushAttempts(Path file, FailedAttempts attempts) {
    try {
      AttemptStore.flush(file, attempts);
    } catch (IOException | RuntimeException e) {
      log()
          .warn(
              "could not record the failed pre-flights in {}: {}",
              Escaper.quoted(file.toString(), Escaper.LONG_LIMIT),
              Escaper.esc(String.valueOf(e.getMessage()), Escaper.LONG_LIMIT));
    }
  }

  /**
   * The best-effort flush of a pass that is being abandoned. A pending interrupt is set aside for
   * the write (an interrupted thread cannot use a file channel) and restored afterwards.
   */
  private static void flushQuietly(
      CacheStore.Session session, @Nullable Path attemptsFile, @Nullable FailedAttempts attempts) {
    boolean interrupted = Thread.interrupted();
    try {
      session.flush();
    } catch (IOException | RuntimeException e) {
      log()
          .warn(
              "could not save the verdicts measured before the interruption: {}",
              Escaper.esc(describe(e), Escaper.LONG_LIMIT));
    } finally {
      if (attemptsFile != null && attempts != null) {
        flushAttempts(attemptsFile, attempts);
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
