package dev.kcshare.host.evaluation;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassProgress;
import dev.kcshare.host.KcshareThreads;
import dev.kcshare.host.prober.ProbeOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Runs the pre-flights of a pass: the due servers on a pool of workers, each result counted as it
 * completes; a server that timed out while others were measured beside it is tried once more at the
 * end, alone, with twice the timeout, before its failure counts. When the pass is stopped
 * (cancelled, or kcshare's own failure), every pre-flight is stopped and awaited, and what had
 * completed meanwhile is still stored.
 */
final class PassPool {
  /** How long a stopped pass waits for its pre-flights' teardown before giving up on them. */
  private static final long STOP_WAIT_SECONDS = 30;

  private PassPool() {}

  /**
   * The response timeout of the end-of-pass retry: twice the pass's, at most {@link
   * ProbeOptions#MAX_TIMEOUT}.
   */
  static Duration retryTimeout(Duration timeout) {
    Duration doubled = timeout.multipliedBy(2);
    return doubled.compareTo(ProbeOptions.MAX_TIMEOUT) > 0 ? ProbeOptions.MAX_TIMEOUT : doubled;
  }

  /**
   * Measures {@code due} (names of {@code byName}) at most {@code workers} at once, counting each
   * in {@code tally}, on workers of {@code threads}; the server of {@code head} is continued, not
   * spawned again.
   *
   * @throws InterruptedException when cancelled: every pre-flight was stopped and torn down, and
   *     what completed meanwhile was stored (not flushed)
   */
  static void run(
      List<String> due,
      Map<String, ConfiguredServer> byName,
      int workers,
      Preflights prober,
      ServerMeasurer measurer,
      @Nullable HeadStart head,
      PassProgress.Listener listener,
      PassTally tally,
      KcshareThreads threads)
      throws InterruptedException {
    int poolSize = Math.max(1, Math.min(workers, due.size()));
    // Servers measured side by side compete for the host: a timeout there may be the host's.
    boolean busy = poolSize > 1 && due.size() > 1;
    Duration timeout = prober.timeout();
    ExecutorService pool = Executors.newFixedThreadPool(poolSize, threads.pool("kcshare-pass"));
    CompletionService<Measurement> completions = new ExecutorCompletionService<>(pool);
    int pending = 0;
    try {
      for (String name : due) {
        ConfiguredServer server = byName.get(name);
        if (head != null && head.measures(server)) {
          completions.submit(() -> head.continued(listener));
        } else {
          completions.submit(() -> measurer.measure(server, prober, timeout, listener));
        }
        pending++;
      }
      List<ConfiguredServer> timedOut = new ArrayList<>();
      while (pending > 0) {
        Measurement m = take(completions);
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
        completions.submit(() -> measurer.measure(server, prober, longer, listener));
        pending++;
        Measurement m = take(completions);
        pending--;
        tally.count(m);
      }
    } catch (InterruptedException | RuntimeException | Error e) {
      // Cancellation, or kcshare's own failure: stop every pre-flight, wait for their teardown,
      // and keep whatever completed meanwhile; the caller saves what was paid for.
      stopAndAwait(pool);
      for (Future<Measurement> f; pending > 0 && (f = completions.poll()) != null; pending--) {
        Measurement m = completedOrNull(f);
        if (m != null && !(busy && m.timedOut())) {
          tally.store(m);
        }
      }
      throw e;
    } finally {
      pool.shutdownNow();
    }
  }

  /** The next completed pre-flight's measurement. */
  private static Measurement take(CompletionService<Measurement> completions)
      throws InterruptedException {
    Future<Measurement> f = completions.take();
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw unwrap(e);
    }
  }

  /**
   * The cause of a failed pre-flight task: an interruption or an {@link Error} (not isolatable: a
   * JVM failure) as it is, thrown; anything else wrapped, returned.
   */
  static IllegalStateException unwrap(ExecutionException e) throws InterruptedException {
    Throwable cause = e.getCause();
    if (cause instanceof InterruptedException ie) {
      throw ie;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new IllegalStateException("pre-flight task failed", cause);
  }

  private static @Nullable Measurement completedOrNull(Future<Measurement> f) {
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
  static void stopAndAwait(ExecutorService pool) {
    pool.shutdownNow();
    boolean interrupted = Thread.interrupted();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_SECONDS);
    while (true) {
      try {
        if (pool.awaitTermination(
            Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          break;
        }
        PassLog.log()
            .warn("pre-flights still running {} s after the pass was stopped", STOP_WAIT_SECONDS);
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
