package dev.kcshare.host.evaluation;

/**
 * Where a pass stands (engine spec §10.6). {@code done} counts servers ATTEMPTED and drives a
 * progress line; {@code measured} counts servers that produced a stored verdict and is the only
 * number any claim about the outcome may be built from.
 *
 * @param running the pass has not finished
 * @param done servers attempted so far
 * @param measured servers that produced a stored verdict ({@code ran:true})
 * @param total servers due in this pass
 */
public record PassProgress(boolean running, int done, int measured, int total) {
  /** Receives a report after each completed server; a failing listener is ignored. */
  @FunctionalInterface
  public interface Listener {
    /**
     * One report, on the pass's thread; must not block for long.
     *
     * @param progress the counters after the latest completed server
     */
    void onProgress(PassProgress progress);
  }
}
