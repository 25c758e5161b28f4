package dev.kcshare.host.prober;

import java.util.concurrent.Semaphore;

/**
 * The process ceiling (docs/design.md#running-a-pass): permits counted in live server processes,
 * shared by every prober of a pass. Each identity takes one permit before it spawns and returns it
 * after its teardown, so a pass never has more than the ceiling's number of servers running.
 */
public final class ProcessPermits {
  /** The default ceiling: 8 live processes, i.e. four pre-flights at once. */
  public static final int DEFAULT_CEILING = 8;

  private final Semaphore permits;
  private final int ceiling;

  private ProcessPermits(int ceiling) {
    this.ceiling = ceiling;
    this.permits = new Semaphore(ceiling, true);
  }

  /** A ceiling of {@code ceiling} live processes (at least 1). */
  public static ProcessPermits of(int ceiling) {
    if (ceiling < 1) {
      throw new IllegalArgumentException("the process ceiling must be at least 1: " + ceiling);
    }
    return new ProcessPermits(ceiling);
  }

  /** The default ceiling of {@value #DEFAULT_CEILING}. */
  public static ProcessPermits defaults() {
    return of(DEFAULT_CEILING);
  }

  /** The configured ceiling. */
  public int ceiling() {
    return ceiling;
  }

  /** Permits currently free (for progress output and tests). */
  public int available() {
    return permits.availablePermits();
  }

  void acquire() throws InterruptedException {
    permits.acquire();
  }

  void release() {
    permits.release();
  }
}
