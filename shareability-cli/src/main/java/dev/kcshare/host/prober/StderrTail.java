package dev.kcshare.host.prober;

import dev.kcshare.host.KcshareThreads;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains a server's stderr continuously (a full pipe must never block the server) and keeps only
 * the last {@value #CAPACITY} bytes, for diagnostics. Raw: the prober masks the server's secrets in
 * it (docs/config.md#what-kcshare-masks), then escapes and bounds it, before anything shows or
 * stores it.
 */
final class StderrTail {
  static final int CAPACITY = 4096;

  private final byte[] ring = new byte[CAPACITY];
  private long total;
  private final Thread thread;

  /**
   * Starts draining {@code stderr} on a thread of {@code threads} named {@code threadName-stderr}.
   *
   * @throws IllegalStateException when {@code threads} gives no thread
   */
  StderrTail(InputStream stderr, String threadName, KcshareThreads threads) {
    thread = threads.newThread(new Drain(this, stderr), threadName + "-stderr");
    thread.start();
  }

  private void drain(InputStream stderr) {
    byte[] buffer = new byte[16 * 1024];
    try (stderr) {
      int n;
      while ((n = stderr.read(buffer)) >= 0) {
        append(buffer, n);
      }
    } catch (IOException e) {
      // stream closed by teardown
    }
  }

  private synchronized void append(byte[] buffer, int n) {
    int from = Math.max(0, n - CAPACITY);
    total += from; // bytes that would be overwritten within this very chunk
    for (int i = from; i < n; i++) {
      ring[(int) (total++ % CAPACITY)] = buffer[i];
    }
  }

  /** The last bytes written, decoded as UTF-8 with replacement (raw: escape before showing). */
  synchronized String text() {
    int length = (int) Math.min(total, CAPACITY);
    byte[] out = new byte[length];
    long start = total - length;
    for (int i = 0; i < length; i++) {
      out[i] = ring[(int) ((start + i) % CAPACITY)];
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /** Waits briefly for the drain to reach the end of the stream, so the tail is complete. */
  void awaitEnd(long millis) {
    try {
      thread.join(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The drain's loop (a named class: see the package documentation). */
  private static final class Drain implements Runnable {
    private final StderrTail tail;
    private final InputStream stderr;

    Drain(StderrTail tail, InputStream stderr) {
      this.tail = tail;
      this.stderr = stderr;
    }

    @Override
    public void run() {
      tail.drain(stderr);
    }
  }
}
