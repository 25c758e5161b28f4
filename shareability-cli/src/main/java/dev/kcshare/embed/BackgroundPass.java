package dev.kcshare.embed;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A handle on an uncapped evaluation pass running on its own daemon thread
 * (docs/design.md#progress): its progress {@code {running, done, measured, total}} for a status
 * endpoint, cancellation, and its result. Obtained from {@link Shareability#startUncappedPass}.
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
 * Thread-safe.
 */
public final class BackgroundPass {
  private final AtomicReference<PassProgress> progress;
  private final FutureTask<PassResult> task;
  private final CountDownLatch ended = new CountDownLatch(1);

  private BackgroundPass(AtomicReference<PassProgress> progress, Callable<PassResult> pass) {
    this.progress = Objects.requireNonNull(progress, "progress");
    this.task = new FutureTask<>(pass);
  }

  /**
   * Runs {@code pass} on a new daemon thread named {@code threadName}; {@code progress} is the
   * reference the pass publishes its progress to.
   */
  static BackgroundPass start(
      AtomicReference<PassProgress> progress, Callable<PassResult> pass, String threadName) {
    BackgroundPass handle = new BackgroundPass(progress, pass);
    Thread thread =
        new Thread(
            () -> {
              try {
                handle.task.run();
              } finally {
                handle.ended.countDown();
              }
            },
            threadName);
    thread.setDaemon(true);
    thread.start();
    return handle;
  }

  /**
   * The latest progress: {@code total} is 0 until the pass knows what is due, and {@code running}
   * turns false once the pass thread has ended (finished, failed or cancelled). Cheap and
   * non-blocking: safe on an event loop.
   *
   * @return the latest progress report
   */
  public PassProgress progress() {
    PassProgress p = progress.get();
    if (isDone() && p.running()) {
      return new PassProgress(false, p.done(), p.measured(), p.total());
    }
    return p;
  }

  /**
   * Whether the pass thread has ended: finished, failed, or cancelled AND cleaned up. Non-blocking.
   *
   * @return true once {@link #await()} would return or throw without waiting
   */
  public boolean isDone() {
    return ended.getCount() == 0;
  }

  /**
   * Requests cancellation by interrupting the pass. Non-blocking: the pass then saves what it
   * measured and tears its processes down; {@link #await()} waits for that.
   *
   * @return false if the pass had already completed, or was already cancelled
   */
  public boolean cancel() {
    return task.cancel(true);
  }

  /**
   * Waits for the pass thread to end. Blocking: never on an event loop.
   *
   * @return the pass result ({@link PassResult.Outcome#RAN}; an uncapped pass waits for the lock,
   *     so it never yields)
   * @throws CancellationException if it was cancelled (thrown after the pass saved its rows and
   *     tore its processes down)
   * @throws ExecutionException if it failed (kcshare's own failure, for example an unwritable
   *     records directory)
   * @throws InterruptedException if the waiting thread is interrupted (the pass keeps running)
   */
  public PassResult await() throws ExecutionException, InterruptedException {
    ended.await();
    return task.get();
  }

  /**
   * Waits at most {@code timeout}; see {@link #await()}.
   *
   * @param timeout the longest wait
   * @return the pass result
   * @throws TimeoutException if the pass is still running after {@code timeout}
   * @throws CancellationException if it was cancelled
   * @throws ExecutionException if it failed
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public PassResult await(Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    Objects.requireNonNull(timeout, "timeout");
    if (!ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new TimeoutException("the pass is still running after " + timeout);
    }
    return task.get();
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
