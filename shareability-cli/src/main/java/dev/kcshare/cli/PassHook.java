package dev.kcshare.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The shutdown hook of a measure pass: SIGTERM or Ctrl-C interrupts the thread running the pass and
 * waits until the pass has torn down its servers and saved what it measured. It waits for the pass,
 * not for the thread to end: the thread then blocks in {@code System.exit} until every hook has
 * returned.
 */
final class PassHook {
  private static final long WAIT_SECONDS = 20;

  private final CountDownLatch passEnded = new CountDownLatch(1);
  private final Thread hook;

  private PassHook(Thread worker) {
    hook = new Thread(() -> interruptAndAwait(worker, passEnded), "kcshare-shutdown");
  }

  /** Installs the hook for a pass run by the calling thread. */
  static PassHook install() {
    PassHook h = new PassHook(Thread.currentThread());
    Runtime.getRuntime().addShutdownHook(h.hook);
    return h;
  }

  /** The pass has ended (flushed or given up): the hook returns at once, and is removed. */
  void ended() {
    passEnded.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down: the hook is running
    }
  }

  private static void interruptAndAwait(Thread worker, CountDownLatch passEnded) {
    worker.interrupt();
    try {
      passEnded.await(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
