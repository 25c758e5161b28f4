package dev.kcshare.host.evaluation;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.policy.RuntimeResolved;
import dev.kcshare.core.policy.Selection;
import dev.kcshare.core.records.CacheLookup;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.RecordLimits;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.FileProblems;
import dev.kcshare.host.config.ConfiguredDefinition;
import dev.kcshare.host.config.ConfiguredServer;
import dev.kcshare.host.prober.ProbeOutcome;
import dev.kcshare.host.prober.ServerDefinition;
import dev.kcshare.host.prober.SpawnRegistry;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.records.CacheStore;
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
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs evaluation passes (engine spec §10): holds the cache lock from the cache read through the
 * flush, selects what is due with the core policy, measures it concurrently under the prober's
 * process ceiling, stores what ran, and flushes once at the end.
 *
 * <p>A failure measuring one server becomes {@code ran:false} for that server and never ends the
 * pass; such results are reported but never stored. Cancellation (interruption) flushes the
 * verdicts already paid for, then propagates.
 */
public final class EvaluationRunner {
  private static final Logger log = LoggerFactory.getLogger(EvaluationRunner.class);

  /** How long a stopped pass waits for its pre-flights' teardown before giving up on them. */
  private static final long STOP_WAIT_SECONDS = 30;

  private final StdioProber prober;
  private final int workers;
  private final DoubleSupplier clock;

  /**
   * @param prober the prober; its process permits bound live server processes across the pass
   * @param workers how many servers are measured at once (each needs up to 2 processes)
   * @param clock wall-clock epoch seconds, for {@code evaluatedAt}
   */
  public EvaluationRunner(StdioProber prober, int workers, DoubleSupplier clock) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1: " + workers);
    }
    this.prober = Objects.requireNonNull(prober, "prober");
    this.workers = workers;
    this.clock = Objects.requireNonNull(clock, "clock");
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
   */
  public record Options(Mode mode, int budget, boolean waitForLock) {
    /** An uncapped pass ({@code measure --all}). */
    public static Options uncapped(boolean waitForLock) {
      return new Options(Mode.UNCAPPED, Selection.UNCAPPED, waitForLock);
    }

    /** A budgeted pass reached incidentally. */
    public static Options budgeted(int budget) {
      return new Options(Mode.BUDGETED, budget, false);
    }

    /** The given servers, measured now. */
    public static Options forced(boolean waitForLock) {
      return new Options(Mode.FORCED, Selection.UNCAPPED, waitForLock);
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
    Objects.requireNonNull(servers, "servers");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(listener, "listener");
    // What a killed pass left running on these records ends before this pass spawns anything
    // (records spec §9.5); a live pass's processes are left alone.
    Path recordsDir = cacheFile.toAbsolutePath().getParent();
    SpawnRegistry.reapOrphans(recordsDir);
    Duration wait =
        options.mode() == Mode.BUDGETED || !options.waitForLock() ? Duration.ZERO : null;
    CacheStore.Session session = CacheStore.open(cacheFile, wait);
    if (session == null) {
      return busy(servers, cacheFile, options);
    }
    try (session;
        SpawnRegistry registry = SpawnRegistry.open(recordsDir)) {
      return runLocked(servers, session, options, listener, prober.withSpawnWatcher(registry));
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
      Options options,
      PassProgress.Listener listener,
      StdioProber prober)
      throws IOException, InterruptedException {
    VerdictCache cache = session.cache();
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
      flushQuietly(session); // handshakes refreshed so far
      throw e;
    }
    List<Selection.Candidate> candidates = new ArrayList<>();
    for (ConfiguredServer s : byName.values()) {
      candidates.add(candidate(s, versions.getOrDefault(s.name(), "")));
    }
    Selection selection =
        Selection.select(
            candidates,
            cache,
            options.mode() == Mode.BUDGETED ? options.budget() : Selection.UNCAPPED);
    for (Map.Entry<String, CacheLookup> drop : selection.versionDrops().entrySet()) {
      log.info(drop.getValue().versionDropMessage(drop.getKey()));
    }
    List<String> due = selection.due();
    if (options.mode() == Mode.FORCED) {
      due = new ArrayList<>(byName.keySet());
    }

    List<ServerResult> fresh = new ArrayList<>();
    int total = due.size();
    int done = 0;
    int measured = 0;
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(workers, total)), daemonThreads("kcshare-pass"));
    CompletionService<Measured> completions = new ExecutorCompletionService<>(pool);
    int pending = 0;
    try {
      for (String name : due) {
        ConfiguredServer server = byName.get(name);
        completions.submit(() -> measure(server, prober));
        pending++;
      }
      while (pending > 0) {
        Measured m = take(completions);
        pending--;
        ServerResult r = store(cache, m);
        fresh.add(r);
        done++;
        if (r.stored()) {
          measured++;
        }
        report(listener, new PassProgress(true, done, measured, total));
      }
    } catch (InterruptedException | RuntimeException | Error e) {
      // Cancellation, or kcshare's own failure: stop every pre-flight, wait for their teardown,
      // keep whatever completed meanwhile, and save what was paid for before giving up.
      stopAndAwait(pool);
      for (Future<Measured> f; pending > 0 && (f = completions.poll()) != null; pending--) {
        Measured m = completedOrNull(f);
        if (m != null) {
          store(cache, m);
        }
      }
      flushQuietly(session);
      throw e;
    } finally {
      pool.shutdownNow();
    }
    try {
      session.flush();
    } catch (ClosedByInterruptException e) {
      // Cancelled during the final write: the interrupt closed the file channel. Clear it, save
      // what was measured, then let the cancellation pass through (engine spec §10.4).
      Thread.interrupted();
      flushQuietly(session);
      InterruptedException cancelled = new InterruptedException("cancelled while saving the pass");
      cancelled.initCause(e);
      throw cancelled;
    }
    PassProgress last = new PassProgress(false, done, measured, total);
    report(listener, last);
    return new PassResult(PassResult.Outcome.RAN, fresh, selection.stored(), last);
  }

  /**
   * One server measured: its result and, when it ran, the row to store. Built in the task, so a
   * failure building the row is isolated to that server like any other (engine spec §10.4).
   */
  private record Measured(
      String name, PreflightResult result, String stderrTail, @Nullable CacheRow row) {}

  private Measured measure(ConfiguredServer server, StdioProber prober)
      throws InterruptedException {
    String name = server.name();
    try {
      ConfiguredDefinition first = server.first();
      ServerDefinition def = first.definition();
      String refusal = refusal(first);
      if (refusal != null) {
        // Consent withheld or nothing to spawn (a url server may carry a command): never spawned.
        return new Measured(
            name, PreflightResult.couldNotRun(refusal, null, null), "", /* row= */ null);
      }
      ProbeOutcome outcome = prober.probe(def, false);
      PreflightResult r = outcome.result();
      return new Measured(
          name, r, outcome.lastStderrTail(), r.ran() ? row(r, first) : /* row= */ null);
    } catch (InterruptedException e) {
      throw e;
    } catch (Throwable t) { // engine spec §10.4: one server's failure never ends the pass
      if (!isolatable(t)) {
        throw t;
      }
      log.debug("measuring {} failed", Escaper.quoted(name, Escaper.SHORT_LIMIT), t);
      return new Measured(
          name,
          PreflightResult.couldNotRun(PreflightResult.PREFLIGHT_ERROR, null, null),
          "",
          /* row= */ null);
    }
  }

  /** Stores a ran result; returns what the pass reports for it. */
  private static ServerResult store(VerdictCache cache, Measured m) {
    boolean stored = false;
    CacheRow row = m.row();
    if (row != null) {
      stored = cache.put(m.name(), row);
      if (!stored) {
        log.warn(
            "not storing the measurement of {}: {}",
            Escaper.quoted(m.name(), Escaper.SHORT_LIMIT),
            RecordLimits.rowRefusal(m.name(), row));
      }
    }
    return new ServerResult(m.name(), m.result(), stored, m.stderrTail());
  }

  /** Why a definition is never spawned ({@code prober.md} §0, §2), or null when it may be. */
  private static @Nullable String refusal(ConfiguredDefinition d) {
    if (d.definition().disabled()) {
      return "disabled";
    }
    String command = d.definition().command();
    if (!d.stdio() || command == null || command.isEmpty() || d.identity() == null) {
      return "no command";
    }
    return null;
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
        log.warn("pre-flights still running {} s after the pass was stopped", STOP_WAIT_SECONDS);
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

  private CacheRow row(PreflightResult r, ConfiguredDefinition first) {
    Answer a = r.answerA();
    return new CacheRow(
        true,
        r.callerSensitive(),
        r.reasons(),
        clock.getAsDouble(),
        Objects.requireNonNull(first.identity(), "a measured server has an identity"),
        r.reportedVersion(),
        r.era() == null ? Era.LEGACY : r.era(),
        a == null ? null : StoredHandshake.of(a));
  }

  /** Everything but a JVM failure other than stack or heap exhaustion is isolated to one server. */
  private static boolean isolatable(Throwable t) {
    return !(t instanceof VirtualMachineError)
        || t instanceof StackOverflowError
        || t instanceof OutOfMemoryError;
  }

  private static Selection.Candidate candidate(ConfiguredServer s, String version) {
    ConfiguredDefinition first = s.first();
    return new Selection.Candidate(s.name(), first.identity(), version, refusal(first) == null);
  }

  /**
   * The version re-check of prober spec §12: for every runtime-resolved server with a stored hit,
   * one identity-A exchange; its reported version becomes the current version, and its answer
   * refreshes the handshake of a row it does not invalidate. Its failure changes nothing.
   */
  private Map<String, String> recheckVersions(
      Iterable<ConfiguredServer> servers, VerdictCache cache, StdioProber prober)
      throws InterruptedException {
    List<ConfiguredServer> due = new ArrayList<>();
    for (ConfiguredServer s : servers) {
      ConfiguredDefinition first = s.first();
      ServerDefinition def = first.definition();
      if (refusal(first) == null
          && RuntimeResolved.isRuntimeResolved(Objects.requireNonNull(def.command()), def.args())
          && cache.get(s.name(), Objects.requireNonNull(first.identity()), "").isHit()) {
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
          log.debug(
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
    cache.put(
        name,
        new CacheRow(
            row.ran(),
            row.callerSensitive(),
            row.reasons(),
            row.evaluatedAt(),
            row.identity(),
            row.reportedVersion(),
            row.era(),
            fresh));
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
    try {
      listener.onProgress(progress);
    } catch (RuntimeException e) {
      log.debug("progress listener failed", e);
    }
  }

  /**
   * The best-effort flush of a pass that is being abandoned. A pending interrupt is set aside for
   * the write (an interrupted thread cannot use a file channel) and restored afterwards.
   */
  private static void flushQuietly(CacheStore.Session session) {
    boolean interrupted = Thread.interrupted();
    try {
      session.flush();
    } catch (IOException | RuntimeException e) {
      log.warn(
          "could not save the verdicts measured before the interruption: {}",
          Escaper.esc(describe(e), Escaper.LONG_LIMIT));
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
