package dev.kcshare.api;

import java.time.Duration;

/**
 * Where a pass stands. {@code done} counts servers ATTEMPTED and drives a progress line; {@code
 * measured} counts servers that produced a stored verdict and is the only number any claim about
 * the outcome may be built from. Immutable; kcshare implements it (two reports are equal when their
 * counters are), and later versions may add accessors.
 */
public interface PassProgress {
  /**
   * Whether the pass has not finished.
   *
   * @return true while it runs
   */
  boolean running();

  /**
   * Servers attempted so far.
   *
   * @return the count
   */
  int done();

  /**
   * Servers that produced a stored verdict.
   *
   * @return the count
   */
  int measured();

  /**
   * Servers due in this pass.
   *
   * @return the count (0 until the pass knows)
   */
  int total();

  /**
   * Receives a report after each completed server and, if it likes, the events of a pass for a live
   * display. Every method is called on a pass thread and must return quickly; a listener that
   * throws is ignored.
   */
  @FunctionalInterface
  interface Listener {
    /**
     * One report, after the latest completed server and once at the end.
     *
     * @param progress the counters
     */
    void onProgress(PassProgress progress);

    /**
     * The pass is about to wait for another pass (in this process or another) that holds the
     * records' lock.
     *
     * @param holder who holds it, as far as the lock file tells ({@code process 4242 (kcshare
     *     measure --all)}, or {@code another process})
     */
    default void onWaitingForLock(String holder) {}

    /**
     * The pass has chosen which servers are due, before it measures any: the {@code total} every
     * later report carries.
     *
     * @param total how many servers the pass will measure
     */
    default void onDue(int total) {}

    /**
     * A server's pre-flight starts (several may run at once).
     *
     * @param server the server name
     */
    default void onStarted(String server) {}

    /**
     * A server's result is known, before the progress report that counts it.
     *
     * @param result the server's result
     */
    default void onFinished(PassResult.Measured result) {}

    /**
     * A server that timed out while the pass measured others is tried again, alone.
     *
     * @param server the server name
     * @param timeout the response timeout of the retry
     */
    default void onRetrying(String server, Duration timeout) {}
  }
}
