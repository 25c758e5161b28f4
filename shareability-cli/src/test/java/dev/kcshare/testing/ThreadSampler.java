package dev.kcshare.testing;

import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Every thread that appears in the JVM while a piece of code runs: the live threads are sampled
 * over and over (every 0.2 ms: a stream pump of a spawned server lives for its whole exchange), and
 * those that were alive before, the sampler's own and the test runner's are left out.
 */
public final class ThreadSampler implements AutoCloseable {
  /** Threads the JDK starts on kcshare's behalf, which no thread factory can make. */
  public static final Set<String> JDK_THREADS = Set.of("process reaper");

  private final Set<Thread> before = live();
  private final Set<Thread> seen = Collections.synchronizedSet(new HashSet<>());
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread thread = new Thread(this::sample, "test-thread-sampler");

  private ThreadSampler() {
    thread.setDaemon(true);
    thread.start();
  }

  /** Code that may throw. */
  @FunctionalInterface
  public interface Body {
    /** Runs it. */
    void run() throws Exception;
  }

  /** The threads that appeared while {@code body} ran, in no order. */
  public static List<Thread> during(Body body) throws Exception {
    ThreadSampler sampler = new ThreadSampler();
    try {
      body.run();
    } finally {
      sampler.close();
    }
    synchronized (sampler.seen) {
      return sampler.seen.stream()
          .filter(t -> !sampler.before.contains(t) && t != sampler.thread && !isTestRunners(t))
          .toList();
    }
  }

  private void sample() {
    while (!stop.get()) {
      seen.addAll(live());
      LockSupport.parkNanos(200_000);
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    thread.join();
  }

  /**
   * A worker of JUnit's own fork-join pool, which may grow while a test blocks (a worker of the
   * common pool would be the code's).
   */
  private static boolean isTestRunners(Thread t) {
    return t instanceof ForkJoinWorkerThread w && w.getPool() != ForkJoinPool.commonPool();
  }

  /** Every live thread of the JVM. */
  public static Set<Thread> live() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] threads = new Thread[root.activeCount() + 64];
    int n = root.enumerate(threads, true);
    Set<Thread> out = new HashSet<>();
    for (int i = 0; i < n; i++) {
      out.add(threads[i]);
    }
    return out;
  }
}
