package dev.kcshare.host.evaluation;

import dev.kcshare.host.records.LockHolder;
import java.time.Duration;

/**
 * Where a pass stands (docs/design.md#progress). {@code done} counts servers ATTEMPTED and drives a
 * progress line; {@code measured} counts servers that produced a stored verdict and is the only
 * number any claim about the outcome may be built from.
 *
 * @param running the pass has not finished
 * @param done servers attempted so far
 * @param measured servers that produced a stored verdict ({@code ran:true})
 * @param total servers due in this pass
 */
public record PassProgress(boolean running, int done, int measured, int total) {
  /**
   * Receives a report after each completed server, and, if it likes, the events of a pass for a
   * live display. Every method must return quickly; a failing listener is ignored.
   */
  @FunctionalInterface
  public interface Listener {
    /**
     * One report, on the pass's thread.
     *
     * @param progress the counters after the latest completed server
     */
    void onProgress(PassProgress progress);

    /**
     * The pass is about to wait for another pass (or a seeding) that holds the records' lock.
     *
     * @param holder the process holding it, as far as the lock file tells
     */
    default void onWaitingForLock(LockHolder holder) {}

    /**
     * A server's pre-flight starts, on the thread that runs it (several at once).
     *
     * @param server the server name
     */
    default void onStarted(String server) {}

    /**
     * A server's result is known, on the pass's thread, before the progress report that counts it.
     *
     * @param result the server's result
     */
    default void onFinished(ServerResult result) {}

    /**
     * A server that timed out while the pass measured others is tried again, alone.
     *
     * @param server the server name
     * @param timeout the response timeout of the retry
     */
    default void onRetrying(String server, Duration timeout) {}
  }
}
