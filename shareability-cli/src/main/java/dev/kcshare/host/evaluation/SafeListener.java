package dev.kcshare.host.evaluation;

import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import java.time.Duration;
import java.util.Objects;

/** Passes every event on, ignoring a listener that fails (docs/design.md#progress). */
final class SafeListener implements PassProgress.Listener {
  private final PassProgress.Listener delegate;

  SafeListener(PassProgress.Listener delegate) {
    this.delegate = Objects.requireNonNull(delegate, "listener");
  }

  @Override
  public void onProgress(PassProgress progress) {
    call(() -> delegate.onProgress(progress));
  }

  @Override
  public void onDue(int total) {
    call(() -> delegate.onDue(total));
  }

  @Override
  public void onWaitingForLock(String holder) {
    call(() -> delegate.onWaitingForLock(holder));
  }

  @Override
  public void onStarted(String server) {
    call(() -> delegate.onStarted(server));
  }

  @Override
  public void onFinished(PassResult.Measured result) {
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
      PassLog.log().debug("progress listener failed", e);
    }
  }
}
