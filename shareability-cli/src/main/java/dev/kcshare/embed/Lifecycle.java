package dev.kcshare.embed;

import dev.kcshare.host.evaluation.HeadStart;
import dev.kcshare.host.prober.ProbeShutdown;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link Shareability} has started and must stop when it closes: its ledger writer and the
 * thread that flushes it, its uncapped passes, and a head start no pass has continued yet. Every
 * change happens under one lock, so a close never misses what was started beside it.
 */
final class Lifecycle {
  /** Facades built and not yet closed, in this JVM: the last to close removes the hook. */
  private static final AtomicInteger OPEN = new AtomicInteger();

  private final ThreadFactory threads;
  private final Runnable stopEngine;
  private final Object lock = new Object();
  private volatile boolean closed; // written under lock
  private @Nullable LedgerWriter ledger; // guarded by lock
  private final List<BackgroundPass> passes = new ArrayList<>(); // guarded by lock
  private @Nullable ScheduledThreadPoolExecutor flusher; // guarded by lock
  private @Nullable HeadStart headStart; // guarded by lock

  /**
   * The lifecycle of a facade just built.
   *
   * @param threads makes the flush thread, the passes' threads and a close's finishing thread
   * @param stopEngine stops the prober and the pass runner, last
   */
  Lifecycle(ThreadFactory threads, Runnable stopEngine) {
    this.threads = threads;
    this.stopEngine = stopEngine;
    OPEN.incrementAndGet();
  }

  boolean isClosed() {
    return closed;
  }

  void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("this Shareability is closed");
    }
  }

  /**
   * Opens the one ledger writer, made by {@code make} from the callback that forgets it when it is
   * closed; with {@code flushEvery}, also flushes it on the facade's flush thread.
   */
  LedgerWriter openLedger(
      Function<Runnable, LedgerWriter> make, @Nullable Duration flushEvery, Supplier<String> file) {
    synchronized (lock) {
      ensureOpen();
      if (ledger != null) {
        throw new IllegalStateException(
            "a ledger writer of "
                + file.get()
                + " is open already on this Shareability: share that one, or close it first");
      }
      LedgerWriter[] self = new LedgerWriter[1];
      self[0] = make.apply(() -> forget(self[0]));
      ledger = self[0];
      if (flushEvery != null) {
        self[0].scheduleFlushes(flusher(), flushEvery);
      }
      return self[0];
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

  private void forget(LedgerWriter writer) {
    synchronized (lock) {
      if (ledger == writer) {
        ledger = null;
      }
    }
  }

  /** Takes the head start for the pass about to run: null when none is begun. */
  @Nullable HeadStart takeHeadStart() {
    synchronized (lock) {
      ensureOpen();
      HeadStart head = headStart;
      headStart = null;
      return head;
    }
  }

  /** A task that begins a head start, or gives null when it would not spawn at once. */
  interface HeadStarter {
    @Nullable HeadStart begin() throws java.io.IOException, InterruptedException;
  }

  /** Begins a head start and keeps it until a pass takes it or the facade closes. */
  boolean beginHeadStart(HeadStarter begin) throws java.io.IOException, InterruptedException {
    synchronized (lock) {
      ensureOpen();
      if (headStart != null) {
        throw new IllegalStateException("a head start is begun already");
      }
      HeadStart head = begin.begin();
      headStart = head;
      return head != null;
    }
  }

  /** Starts a pass on a thread of the factory and keeps its handle until close. */
  BackgroundPass startPass(Function<ThreadFactory, BackgroundPass> start) {
    synchronized (lock) {
      ensureOpen();
      passes.removeIf(BackgroundPass::ended);
      BackgroundPass pass = start.apply(threads);
      passes.add(pass);
      return pass;
    }
  }

  /** {@link Shareability#close()}. */
  void close() {
    List<BackgroundPass> running;
    LedgerWriter open;
    ScheduledThreadPoolExecutor scheduled;
    HeadStart head;
    synchronized (lock) {
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
    for (BackgroundPass pass : running) {
      pass.cancelPass();
    }
    Runnable rest = () -> finishClose(running, open, scheduled, head);
    if (Callbacks.inCallback()) {
      // Called back from a pass or a flush: waiting here would wait for this very thread. The
      // rest of the close runs on a thread of its own, and this call returns.
      Thread finisher = threads.newThread(rest);
      if (finisher != null) {
        finisher.start();
        return;
      }
    }
    rest.run();
  }

  /** Waits for what {@link #close()} cancelled, flushes the ledger and stops every thread. */
  private void finishClose(
      List<BackgroundPass> running,
      @Nullable LedgerWriter open,
      @Nullable ScheduledThreadPoolExecutor scheduled,
      @Nullable HeadStart head) {
    if (head != null) {
      head.close(); // a head start no pass continued: its pre-flight stopped, its lock released
    }
    boolean interrupted = false;
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
    stopEngine.run();
    if (OPEN.decrementAndGet() == 0) {
      ProbeShutdown.releaseIfIdle();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

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
}
