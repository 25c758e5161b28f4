package dev.kcshare.host.prober;

import java.time.Duration;
import java.util.Objects;

/**
 * Timing of one pre-flight (docs/design.md#reading-messages, docs/design.md#teardown).
 *
 * @param timeout the deadline of each awaited response, counted from writing its request (5 to 120
 *     s)
 * @param stdinGrace how long teardown waits for the server to exit after its stdin is closed
 * @param termGrace how long teardown waits after SIGTERM before it sends SIGKILL
 */
public record ProbeOptions(Duration timeout, Duration stdinGrace, Duration termGrace) {
  /** The smallest allowed response timeout. */
  public static final Duration MIN_TIMEOUT = Duration.ofSeconds(5);

  /** The largest allowed response timeout. */
  public static final Duration MAX_TIMEOUT = Duration.ofSeconds(120);

  /** The default response timeout. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

  /** The default wait after closing stdin, and after SIGTERM. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

  public ProbeOptions {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(stdinGrace, "stdinGrace");
    Objects.requireNonNull(termGrace, "termGrace");
    if (timeout.compareTo(MIN_TIMEOUT) < 0 || timeout.compareTo(MAX_TIMEOUT) > 0) {
      throw new IllegalArgumentException("timeout must be between 5 and 120 seconds: " + timeout);
    }
    if (stdinGrace.isNegative() || termGrace.isNegative()) {
      throw new IllegalArgumentException("grace periods must not be negative");
    }
  }

  /** 15 s per response, 2 s after closing stdin, 2 s after SIGTERM. */
  public static ProbeOptions defaults() {
    return new ProbeOptions(DEFAULT_TIMEOUT, DEFAULT_GRACE, DEFAULT_GRACE);
  }

  /** A copy with another response timeout. */
  public ProbeOptions withTimeout(Duration newTimeout) {
    return new ProbeOptions(newTimeout, stdinGrace, termGrace);
  }
}
