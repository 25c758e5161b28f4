package dev.kcshare.host;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Where every thread kcshare starts comes from: the embedder's {@link ThreadFactory} (the facade's
 * {@code Builder.threadFactory}), or kcshare's default, which makes plain daemon threads (the
 * {@code kcshare} command uses the default). One is made per facade and handed down to everything
 * that starts a thread: the facade's own threads, the pass engine, its runner, worker pools, head
 * start and version re-check, the prober's pool and each spawned server's three stream pumps.
 *
 * <p>Names: kcshare names each thread for its job ({@code kcshare-probe-3-stdout}); with an
 * embedder's factory the job is appended to the name the factory gave ({@code
 * gateway-7/kcshare-probe-3-stdout}), so its naming, group, priority and handlers are kept. The
 * facade's own threads ({@link #facadeThreads()}) are the factory's as it makes them.
 *
 * <p>Daemons: the threads of a pass ({@link #newThread}, {@link #pool}) are always made daemons,
 * whatever the factory gave: none of them may keep the JVM from exiting while a server still runs,
 * since the shutdown hook tears the servers down only once the JVM exits. The facade's own threads
 * keep what the factory gives (the default's are daemons).
 *
 * <p>Not covered, because the JDK or the JVM makes them: the JDK's {@code process reaper} threads
 * that {@link ProcessBuilder#start()} uses to wait for each server, and the JVM shutdown hooks
 * ({@code kcshare-probe-shutdown}, and the command's {@code kcshare-shutdown}), which must be
 * unstarted threads registered with {@link Runtime#addShutdownHook}. The teardown threads the
 * probe's hook starts do come from the factory of the facade that spawned each server.
 *
 * <p>Thread-safe. There is no global instance: each owner holds its own.
 */
public final class KcshareThreads {
  private final @Nullable ThreadFactory embedders; // null: kcshare's default

  private KcshareThreads(@Nullable ThreadFactory embedders) {
    this.embedders = embedders;
  }

  /**
   * kcshare's default: daemon threads named for their job.
   *
   * @return a new instance
   */
  public static KcshareThreads defaults() {
    return new KcshareThreads(null);
  }

  /**
   * An embedder's factory.
   *
   * @param factory makes every thread; a null thread from it is a refusal
   * @return a new instance
   */
  public static KcshareThreads of(ThreadFactory factory) {
    return new KcshareThreads(Objects.requireNonNull(factory, "factory"));
  }

  /**
   * The factory of the facade's own threads (an uncapped pass's thread, the flush thread, a close
   * finisher): the embedder's factory as it is, or daemon threads named {@code kcshare-embed-N},
   * numbered per call of this method.
   *
   * @return the factory
   */
  public ThreadFactory facadeThreads() {
    ThreadFactory e = embedders;
    return e != null ? e : new Pool(this, "kcshare-embed");
  }

  /**
   * An unstarted daemon thread for {@code task}, named for its job.
   *
   * @param task what the thread runs
   * @param name the job's name ({@code kcshare-...}); appended to the name an embedder's factory
   *     gave
   * @return the thread, not started
   * @throws IllegalStateException if the embedder's factory gave no thread
   */
  public Thread newThread(Runnable task, String name) {
    ThreadFactory e = embedders;
    Thread t;
    if (e == null) {
      t = new Thread(task, name);
    } else {
      t = e.newThread(task);
      if (t == null) {
        throw new IllegalStateException("the thread factory gave no thread for " + name);
      }
      t.setName(t.getName() + "/" + name);
    }
    t.setDaemon(true);
    return t;
  }

  /**
   * A factory for a pool's threads: daemons named {@code prefix-1}, {@code prefix-2}, ... (after
   * the embedder's names). When the embedder's factory gives no thread it throws {@link
   * IllegalStateException} rather than return null: a pool without a thread would keep its task
   * queued for ever, while the exception fails the pre-flight or pass that submitted it.
   *
   * @param prefix the job's name
   * @return the factory
   */
  public ThreadFactory pool(String prefix) {
    return new Pool(this, Objects.requireNonNull(prefix, "prefix"));
  }

  /**
   * Numbered threads of one job (a named class, not a lambda: see the prober's package
   * documentation).
   */
  private static final class Pool implements ThreadFactory {
    private final KcshareThreads owner;
    private final String prefix;
    private final AtomicInteger sequence = new AtomicInteger();

    Pool(KcshareThreads owner, String prefix) {
      this.owner = owner;
      this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable task) {
      return owner.newThread(task, prefix + "-" + sequence.incrementAndGet());
    }
  }
}
