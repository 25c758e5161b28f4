package dev.kcshare.embed;

import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Every call kcshare makes into the embedder's code (a pass listener, the flush-failure listener)
 * goes through here, so that the facade knows when it is called back from one: {@link
 * Shareability#close()} made inside a callback must not wait for the very thread it runs on. A
 * background pass's listener also publishes each progress report, for {@link
 * BackgroundPass#progress}.
 */
final class Callbacks implements PassProgress.Listener {
  /** Set on a thread while it runs one of the embedder's callbacks. */
  private static final ThreadLocal<Boolean> RUNNING = new ThreadLocal<>();

  private final PassProgress.Listener listener;
  private final @Nullable AtomicReference<PassProgress> sink;

  private Callbacks(PassProgress.Listener listener, @Nullable AtomicReference<PassProgress> sink) {
    this.listener = listener;
    this.sink = sink;
  }

  /** The embedder's listener, called as a callback. */
  static PassProgress.Listener of(PassProgress.Listener listener) {
    return new Callbacks(listener, null);
  }

  /** The embedder's listener, called as a callback, with each report also kept in {@code sink}. */
  static PassProgress.Listener publishing(
      PassProgress.Listener listener, AtomicReference<PassProgress> sink) {
    return new Callbacks(listener, sink);
  }

  /** Whether the calling thread is inside one of the embedder's callbacks now. */
  static boolean inCallback() {
    return RUNNING.get() != null;
  }

  /** Runs one of the embedder's callbacks, marking the thread while it runs. */
  static void run(Runnable callback) {
    boolean outer = inCallback();
    RUNNING.set(Boolean.TRUE);
    try {
      callback.run();
    } finally {
      if (!outer) {
        RUNNING.remove();
      }
    }
  }

  @Override
  public void onProgress(PassProgress progress) {
    if (sink != null) {
      sink.set(progress);
    }
    run(() -> listener.onProgress(progress));
  }

  @Override
  public void onDue(int total) {
    if (sink != null) {
      PassProgress p = sink.get();
      sink.set(new Results.PassProgress(p.running(), p.done(), p.measured(), total));
    }
    run(() -> listener.onDue(total));
  }

  @Override
  public void onWaitingForLock(String holder) {
    run(() -> listener.onWaitingForLock(holder));
  }

  @Override
  public void onStarted(String server) {
    run(() -> listener.onStarted(server));
  }

  @Override
  public void onFinished(PassResult.Measured result) {
    run(() -> listener.onFinished(result));
  }

  @Override
  public void onRetrying(String server, Duration timeout) {
    run(() -> listener.onRetrying(server, timeout));
  }
}
