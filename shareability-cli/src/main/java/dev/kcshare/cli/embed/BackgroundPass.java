package dev.kcshare.cli.embed;

import dev.kcshare.cli.evaluate.PassProgress;
import dev.kcshare.cli.evaluate.PassResult;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A handle on an uncapped evaluation pass running on its own thread: its progress {@code {running,
 * done, measured, total}} for a status endpoint, cancellation, and its result.
 *
 * <p>Cancellation passes through: the pass flushes the verdicts it already paid for, tears its
 * server processes down, and ends with {@link CancellationException} from {@link #await}.
 */
public final class BackgroundPass {
  private final AtomicReference<PassProgress> progress;
  private final Future<PassResult> future;

  BackgroundPass(AtomicReference<PassProgress> progress, Future<PassResult> future) {
    this.progress = Objects.requireNonNull(progress, "progress");
    this.future = Objects.requireNonNull(future, "future");
  }

  /**
   * The latest progress; {@code running} is false once the pass has ended. Cheap and non-blocking:
   * safe on an event loop.
   */
  public PassProgress progress() {
    PassProgress p = progress.get();
    if (future.isDone() && p.running()) {
      return new PassProgress(false, p.done(), p.measured(), p.total());
    }
    return p;
  }

  /** Whether the pass has ended (finished, failed or cancelled). */
  public boolean isDone() {
    return future.isDone();
  }

  /** Requests cancellation; returns false if the pass had already ended. Non-blocking. */
  public boolean cancel() {
    return future.cancel(true);
  }

  /**
   * Waits for the pass to end.
   *
   * @throws CancellationException if it was cancelled
   * @throws ExecutionException if it failed (kcshare's own failure, for example an unwritable
   *     records directory)
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public PassResult await() throws ExecutionException, InterruptedException {
    return future.get();
  }

  /** Waits at most {@code timeout}; see {@link #await()}. */
  public PassResult await(Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }
}
