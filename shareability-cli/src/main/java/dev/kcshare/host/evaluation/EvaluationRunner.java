package dev.kcshare.host.evaluation;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.policy.internal.Selection;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.records.internal.FailedAttempts;
import dev.kcshare.host.KcshareThreads;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.prober.SpawnRegistry;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.records.AttemptStore;
import dev.kcshare.host.records.CacheStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

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
  private final Preflights prober;
  private final KcshareThreads threads;
  private final int workers;
  private final DoubleSupplier clock;
  private final ServerMeasurer measurer;

  /**
   * @param prober the prober; its process permits bound live server processes across the pass, and
   *     its threads ({@link StdioProber#threads()}) make the pass's workers too
   * @param workers how many servers are measured at once (each needs up to 2 processes)
   * @param clock wall-clock epoch seconds, for {@code evaluatedAt}, failed attempts and backoff
   */
  public EvaluationRunner(StdioProber prober, int workers, DoubleSupplier clock) {
    this(Preflights.of(prober), prober.threads(), workers, clock);
  }

  /** A runner over a stand-in prober, on kcshare's default threads. */
  EvaluationRunner(Preflights prober, int workers, DoubleSupplier clock) {
    this(prober, KcshareThreads.defaults(), workers, clock);
  }

  EvaluationRunner(Preflights prober, KcshareThreads threads, int workers, DoubleSupplier clock) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1: " + workers);
    }
    this.prober = Objects.requireNonNull(prober, "prober");
    this.threads = Objects.requireNonNull(threads, "threads");
    this.workers = workers;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.measurer = new ServerMeasurer(clock);
  }

  /**
   * The response timeout of the end-of-pass retry: twice the pass's, at most {@link
   * ProbeOptions#MAX_TIMEOUT}.
   */
  static Duration retryTimeout(Duration timeout) {
    return PassPool.retryTimeout(timeout);
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
      PassOptions options,
      PassProgress.Listener listener)
      throws IOException, InterruptedException {
    return run(servers, cacheFile, options, listener, null);
  }

  /**
   * {@link #run(List, Path, PassOptions, PassProgress.Listener)}, continuing {@code head} when it
   * was begun ({@link #startEarly}) for exactly this pass: its lock, and its pre-flight for its
   * server. A head start for anything else is ended first (its pre-flight stopped, its lock
   * released).
   *
   * @throws InterruptedException when cancelled, after flushing what was already measured
   * @throws IOException when the lock or the final write fails (kcshare's own failure)
   */
  public PassResult run(
      List<ConfiguredServer> servers,
      Path cacheFile,
      PassOptions options,
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
      registry = head.registry();
    } else {
      // What a killed pass left running on these records ends before this pass spawns anything
      // (docs/design.md#process-registry); a live pass's processes are left alone.
      SpawnRegistry.reapOrphans(recordsDir);
      Duration wait =
          options.kind() == PassOptions.Kind.BUDGETED || !options.waitForLock()
              ? Duration.ZERO
              : null;
      session =
          CacheStore.open(cacheFile, wait, holder -> events.onWaitingForLock(holder.describe()));
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
          prober.withSpawnWatcher(registry).forPass(options),
          head);
    } finally {
      if (head != null) {
        head.close(); // its pre-flight was awaited, or stopped: this only ends its thread
      }
    }
  }

  /** What the threads of this runner's passes come from. */
  KcshareThreads threads() {
    return threads;
  }

  /**
   * Begins a pass of {@link PassOptions.Kind#NAMED} over the one server {@code server}: does what
   * {@link #run} does before its first spawn — reaps what a killed pass left running, takes the
   * cache lock (only if it is free now), opens the spawn registry — and starts the server's
   * pre-flight on a thread of its own, its processes recorded in the registry like any pass's.
   * Returns null, having spawned nothing, when the pass would not spawn it at once: the server is
   * refused (disabled, nothing to spawn) or the lock is held. Continue it with {@link #run(List,
   * Path, PassOptions, PassProgress.Listener, HeadStart)}; close a head start that is not
   * continued.
   *
   * @throws IOException when the lock cannot be taken (as {@link #run} would fail)
   * @throws IllegalArgumentException unless {@code options} is a named pass
   */
  public @Nullable HeadStart startEarly(
      ConfiguredServer server, Path cacheFile, PassOptions options)
      throws IOException, InterruptedException {
    Objects.requireNonNull(server, "server");
    if (options.kind() != PassOptions.Kind.NAMED) {
      throw new IllegalArgumentException("only a named pass starts early: " + options.kind());
    }
    if (server.refusal() != null) {
      return null;
    }
    return HeadStart.begin(this, prober, measurer, server, cacheFile, options);
  }

  private PassResult busy(List<ConfiguredServer> servers, Path cacheFile, PassOptions options) {
    if (options.kind() != PassOptions.Kind.BUDGETED) {
      return new Results.PassResult(
          PassResult.Outcome.BUSY,
          List.of(),
          Map.of(),
          new Results.PassProgress(false, 0, 0, 0),
          Map.of());
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
    return new Results.PassResult(
        PassResult.Outcome.YIELDED,
        List.of(),
        PassRecords.stored(stored),
        new Results.PassProgress(false, 0, 0, 0),
        Map.of());
  }

  private PassResult runLocked(
      List<ConfiguredServer> servers,
      CacheStore.Session session,
      Path attemptsFile,
      PassOptions options,
      PassProgress.Listener listener,
      Preflights prober,
      @Nullable HeadStart head)
      throws IOException, InterruptedException {
    VerdictCache cache = session.cache();
    FailedAttempts attempts = AttemptStore.load(attemptsFile);
    Map<String, ConfiguredServer> byName = PassSelection.byName(servers);
    Map<String, String> versions;
    try {
      versions =
          options.kind() == PassOptions.Kind.UNCAPPED
              ? VersionRecheck.run(byName.values(), cache, prober, workers, options.era(), threads)
              : Map.of();
    } catch (InterruptedException | RuntimeException | Error e) {
      PassFlush.flushQuietly(session, null, null); // handshakes refreshed so far
      throw e;
    }
    PassSelection selected =
        PassSelection.of(byName.values(), versions, cache, attempts, options, clock);
    List<String> due = selected.due();
    PassTally tally =
        new PassTally(
            cache, attempts, options.kind() != PassOptions.Kind.NAMED, due.size(), listener, clock);
    listener.onDue(due.size());
    try {
      PassPool.run(due, byName, workers, prober, measurer, head, listener, tally, threads);
    } catch (InterruptedException | RuntimeException | Error e) {
      // Cancellation, or kcshare's own failure: save what was paid for before giving up.
      PassFlush.flushQuietly(session, attemptsFile, attempts);
      throw e;
    }
    PassFlush.flush(session, attemptsFile, attempts);
    PassProgress last = tally.finish();
    Selection selection = selected.selection();
    return new Results.PassResult(
        PassResult.Outcome.RAN,
        tally.fresh(),
        PassRecords.stored(selection.stored()),
        last,
        PassRecords.skipped(selection.skipped()));
  }
}
