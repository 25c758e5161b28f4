package dev.kcshare.embed;

import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A pass listener that also publishes each progress report, for {@link BackgroundPass#progress}.
 */
final class PublishingListener implements PassProgress.Listener {
  private final PassProgress.Listener listener;
  private final AtomicReference<PassProgress> sink;

  PublishingListener(PassProgress.Listener listener, AtomicReference<PassProgress> sink) {
    this.listener = listener;
    this.sink = sink;
  }

  @Override
  public void onProgress(PassProgress progress) {
    sink.set(progress);
    listener.onProgress(progress);
  }

  @Override
  public void onDue(int total) {
    PassProgress p = sink.get();
    sink.set(new PassProgress(p.running(), p.done(), p.measured(), total));
    listener.onDue(total);
  }

  @Override
  public void onWaitingForLock(String holder) {
    listener.onWaitingForLock(holder);
  }

  @Override
  public void onStarted(String server) {
    listener.onStarted(server);
  }

  @Override
  public void onFinished(PassResult.Measured result) {
    listener.onFinished(result);
  }

  @Override
  public void onRetrying(String server, Duration timeout) {
    listener.onRetrying(server, timeout);
  }
}
