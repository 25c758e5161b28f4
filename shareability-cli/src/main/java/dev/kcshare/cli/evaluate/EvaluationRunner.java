package dev.kcshare.cli.evaluate;

import dev.kcshare.cli.config.ConfiguredDefinition;
import dev.kcshare.cli.config.ConfiguredServer;
import dev.kcshare.cli.preflight.ProbeOutcome;
import dev.kcshare.cli.preflight.ServerDefinition;
import dev.kcshare.cli.preflight.StdioProber;
import dev.kcshare.cli.records.CacheStore;
import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.policy.RuntimeResolved;
import dev.kcshare.core.policy.Selection;
import dev.kcshare.core.records.CacheLookup;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.text.Escaper;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;
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
    /** Measure exactly the given servers now, whatever the cache holds; waits like UNCAPPED. */
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
    Duration wait =
        options.mode() == Mode.BUDGETED || !options.waitForLock() ? Duration.ZERO : null;
    CacheStore.Session session = CacheStore.open(cacheFile, wait);
    if (session == null) {
      return busy(servers, cacheFile, options);
    }
    try (session) {
      return runLocked(servers, session, options, listener);
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
      PassProgress.Listener listener)
      throws IOException, InterruptedException {
    VerdictCache cache = session.cache();
    Map<String, ConfiguredServer> byName = new LinkedHashMap<>();
    for (ConfiguredServer s : servers) {
      byName.putIfAbsent(s.name(), s);
    }

    Map<String, String> versions =
        options.mode() == Mode.UNCAPPED ? recheckVersions(servers, cache) : Map.of();
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
    AtomicInteger done = new AtomicInteger();
    AtomicInteger measured = new AtomicInteger();
    int total = due.size();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(workers, total)),
            task -> {
              Thread t = new Thread(task, "kcshare-pass");
              t.setDaemon(true);
              return t;
            });
    try {
      CompletionService<Measured> completions = new ExecutorCompletionService<>(pool);
      for (String name : due) {
        ServerDefinition def = byName.get(name).first().definition();
        completions.submit(() -> measure(def));
      }
      for (int i = 0; i < total; i++) {
        Measured m = take(completions);
        boolean stored = false;
        if (m.outcome().result().ran()) {
          cache.put(m.name(), row(m, byName.get(m.name())));
          stored = true;
          measured.incrementAndGet();
        }
        fresh.add(
            new ServerResult(m.name(), m.outcome().result(), stored, m.outcome().lastStderrTail()));
        done.incrementAndGet();
        report(listener, new PassProgress(true, done.get(), measured.get(), total));
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      pool.awaitTermination(15, TimeUnit.SECONDS);
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
    PassProgress last = new PassProgress(false, done.get(), measured.get(), total);
    report(listener, last);
    return new PassResult(PassResult.Outcome.RAN, fresh, selection.stored(), last);
  }

  private record Measured(String name, ProbeOutcome outcome) {}

  private Measured measure(ServerDefinition def) throws InterruptedException {
    try {
      return new Measured(def.name(), prober.probe(def, false));
    } catch (InterruptedException e) {
      throw e;
    } catch (RuntimeException | StackOverflowError e) {
      // engine spec §10.4: one server's failure never ends the pass
      log.debug("measuring {} failed", def.name(), e);
      return new Measured(
          def.name(),
          new ProbeOutcome(
              PreflightResult.couldNotRun(PreflightResult.PREFLIGHT_ERROR, null, null),
              List.of(),
              Map.of()));
    }
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
      throw new IllegalStateException("pre-flight task failed", cause);
    }
  }

  private CacheRow row(Measured m, ConfiguredServer server) {
    PreflightResult r = m.outcome().result();
    ConfiguredDefinition first = server.first();
    Answer a = r.answerA();
    return new CacheRow(
        true,
        r.callerSensitive(),
        r.reasons(),
        clock.getAsDouble(),
        Objects.requireNonNull(first.identity(), "a measured server has an identity"),
        r.reportedVersion(),
        r.era() == null ? dev.kcshare.core.handshake.Era.LEGACY : r.era(),
        a == null ? null : StoredHandshake.of(a));
  }

  private static Selection.Candidate candidate(ConfiguredServer s, String version) {
    ConfiguredDefinition first = s.first();
    ServerDefinition def = first.definition();
    boolean spawnable =
        first.stdio()
            && def.command() != null
            && !def.command().isEmpty()
            && !def.disabled()
            && first.identity() != null;
    return new Selection.Candidate(s.name(), first.identity(), version, spawnable);
  }

  /**
   * The version re-check of prober spec §12: for every runtime-resolved server with a stored hit,
   * one identity-A exchange; its reported version becomes the current version. Its failure changes
   * nothing.
   */
  private Map<String, String> recheckVersions(List<ConfiguredServer> servers, VerdictCache cache)
      throws InterruptedException {
    List<ConfiguredServer> due = new ArrayList<>();
    for (ConfiguredServer s : servers) {
      ConfiguredDefinition first = s.first();
      ServerDefinition def = first.definition();
      Selection.Candidate c = candidate(s, "");
      if (c.spawnable()
          && RuntimeResolved.isRuntimeResolved(def.command(), def.args())
          && cache.get(s.name(), first.identity(), "").isHit()) {
        due.add(s);
      }
    }
    Map<String, String> versions = new LinkedHashMap<>();
    if (due.isEmpty()) {
      return versions;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(workers, due.size())));
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
          log.debug("version re-check of {} failed", f.getKey(), e.getCause());
          continue;
        }
        if (answer.isEmpty() || answer.get().reportedVersion().isEmpty()) {
          continue;
        }
        String version = answer.get().reportedVersion();
        versions.put(f.getKey(), version);
        refreshHandshake(cache, f.getKey(), version, answer.get());
      }
    } finally {
      pool.shutdownNow();
    }
    return versions;
  }

  /** An unchanged version keeps the row; its handshake is refreshed from the new answer. */
  private static void refreshHandshake(
      VerdictCache cache, String name, String version, Answer answer) {
    CacheRow row = cache.getByName(name);
    if (row == null || !row.reportedVersion().equals(version)) {
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

  private static void report(PassProgress.Listener listener, PassProgress progress) {
    try {
      listener.onProgress(progress);
    } catch (RuntimeException e) {
      log.debug("progress listener failed", e);
    }
  }

  private static void flushQuietly(CacheStore.Session session) {
    try {
      session.flush();
    } catch (IOException | RuntimeException e) {
      log.warn(
          "could not save the verdicts measured before the interruption: {}",
          Escaper.esc(String.valueOf(e), Escaper.LONG_LIMIT));
    }
  }
}
