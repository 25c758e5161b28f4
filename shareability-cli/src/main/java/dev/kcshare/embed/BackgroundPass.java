package dev.kcshare.embed;

import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.RecordsException;
import dev.kcshare.api.internal.Results;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A handle on an uncapped evaluation pass running on its own thread (docs/design.md#progress): its
 * progress {@code {running, done, measured, total}} for a status endpoint, cancellation, and its
 * result. Obtained from {@link Shareability#startUncappedPass}.
 *
 * <pre>{@code
 * BackgroundPass pass = kc.startUncappedPass(servers);
 * PassProgress p = pass.progress();   // event loop: {running, done, measured, total}
 * pass.cancel();                      // event loop: asks the pass to stop
 * pass.await();                       // worker thread: returns, or throws CancellationException
 * }</pre>
 *
 * <p>{@code done} counts servers attempted and drives a progress line; {@code measured} counts
 * stored verdicts and is the only number a claim about the outcome may use.
 *
 * <p>Cancellation passes through: the pass flushes the verdicts it already paid for and tears its
 * server processes down; only then does {@link #await} end, with {@link CancellationException}.
 * Once the facade that started it is closed, every method throws {@link IllegalStateException}.
 * Thread-safe.
 */
public final class BackgroundPass {
  private final Shareability owner;
  private final AtomicReference<PassProgress> progress;
  private final FutureTask<PassResult> task;
  private final CountDownLatch ended = new CountDownLatch(1);

  private BackgroundPass(
      Shareability owner, AtomicReference<PassProgress> progress, Callable<PassResult> pass) {
    this.owner = owner;
    this.progress = Objects.requireNonNull(progress, "progress");
    this.task = new FutureTask<>(pass);
  }

  /**
   * Runs {@code pass} on a new thread of {@code threads}; {@code progress} is the reference the
   * pass publishes its progress to.
   *
   * @throws IllegalStateException if the factory gives no thread
   */
  static BackgroundPass start(
      Shareability owner,
      AtomicReference<PassProgress> progress,
      Callable<PassResult> pass,
      ThreadFactory threads) {
    BackgroundPass handle = new BackgroundPass(owner, progress, pass);
    Thread thread =
        threads.newThread(
            () -> {
              try {
                handle.task.run();
              } finally {
                handle.ended.countDown();
              }
            });
    if (thread == null) {
      throw new IllegalStateException("the thread factory gave no thread for the pass");
    }
    thread.start();
    return handle;
  }

  private void ensureOpen() {
    if (owner.isClosed()) {
      throw new IllegalStateException("the Shareability that started this pass is closed");
    }
  }

  /**
   * The latest progress: {@code total} is the number of servers given from the start, and the
   * number due once the pass has chosen them (before it measures any); {@code running} turns false
   * once the pass thread has ended (finished, failed or cancelled). Cheap and non-blocking: safe on
   * an event loop.
   *
   * @return the latest progress report
   * @throws IllegalStateException if the facade is closed
   */
  public PassProgress progress() {
    ensureOpen();
    PassProgress p = progress.get();
    if (ended() && p.running()) {
      return new Results.PassProgress(false, p.done(), p.measured(), p.total());
    }
    return p;
  }

  /**
   * Whether the pass thread has ended: finished, failed, or cancelled AND cleaned up. Non-blocking.
   *
   * @return true once {@link #await()} would return or throw without waiting
   * @throws IllegalStateException if the facade is closed
   */
  public boolean isDone() {
    ensureOpen();
    return ended();
  }

  boolean ended() {
    return ended.getCount() == 0;
  }

  /**
   * Requests cancellation by interrupting the pass. Non-blocking: the pass then saves what it
   * measured and tears its processes down; {@link #await()} waits for that.
   *
   * @return false if the pass had already completed, or was already cancelled
   * @throws IllegalStateException if the facade is closed
   */
  public boolean cancel() {
    ensureOpen();
    return cancelPass();
  }

  boolean cancelPass() {
    return task.cancel(true);
  }

  /**
   * Waits for the pass thread to end. Blocking: never on an event loop.
   *
   * @return the pass result ({@link PassResult.Outcome#RAN}; an uncapped pass waits for the lock,
   *     so it never yields)
   * @throws CancellationException if it was cancelled (thrown after the pass saved its rows and
   *     tore its processes down)
   * @throws RecordsException if the records directory could not be used (the pass stopped)
   * @throws InterruptedException if the waiting thread is interrupted (the pass keeps running)
   * @throws IllegalStateException if the facade is closed, or the pass failed through an error of
   *     kcshare's own (the cause)
   */
  public PassResult await() throws RecordsException, InterruptedException {
    ensureOpen();
    ended.await();
    return result();
  }

  /**
   * Waits at most {@code timeout}; see {@link #await()}.
   *
   * @param timeout the longest wait
   * @return the pass result
   * @throws TimeoutException if the pass is still running after {@code timeout}
   * @throws CancellationException if it was cancelled
   * @throws RecordsException if the records directory could not be used
   * @throws InterruptedException if the waiting thread is interrupted
   * @throws IllegalStateException if the facade is closed, or the pass failed through an error of
   *     kcshare's own
   */
  public PassResult await(Duration timeout)
      throws RecordsException, InterruptedException, TimeoutException {
    Objects.requireNonNull(timeout, "timeout");
    ensureOpen();
    if (!ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new TimeoutException("the pass is still running after " + timeout);
    }
    return result();
  }

  private PassResult result() throws RecordsException, InterruptedException {
    try {
      return task.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RecordsException problem) {
        throw problem;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException("the pass failed: " + cause, cause);
    }
  }

  /**
   * Waits for the pass thread to end, without failing: for {@link Shareability#close()}.
   *
   * @return true if the waiting thread was interrupted meanwhile (its flag is then clear)
   */
  boolean awaitEnd() {
    boolean interrupted = false;
    while (true) {
      try {
        ended.await();
        return interrupted;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
  }
}
