package dev.kcshare.host.evaluation;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.host.prober.SpawnRegistry;
import dev.kcshare.host.records.CacheStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.jspecify.annotations.Nullable;

/**
 * A named pass of one server begun before its pass ({@link EvaluationRunner#startEarly}): it holds
 * the cache lock, and its server's pre-flight runs on a thread of its own. The pass that continues
 * it ({@link EvaluationRunner#run(List, Path, PassOptions, PassProgress.Listener, HeadStart)})
 * takes the lock over and awaits that pre-flight as if it had started it. Closing it (idempotent)
 * stops a pre-flight that nobody awaited, waits for its teardown and releases the lock.
 */
public final class HeadStart implements AutoCloseable {
  private final EvaluationRunner runner;
  private final ConfiguredServer server;
  private final Path cacheFile;
  private final PassOptions options;
  private final CacheStore.Held lock;
  private CacheStore.@Nullable Session session; // read once the pre-flight is under way
  private final SpawnRegistry registry;
  private final FutureTask<Measurement> task;
  private final Thread thread;
  private boolean taken;

  private HeadStart(
      EvaluationRunner runner,
      Preflights prober,
      ServerMeasurer measurer,
      ConfiguredServer server,
      Path cacheFile,
      PassOptions options,
      CacheStore.Held lock,
      SpawnRegistry registry) {
    this.runner = runner;
    this.server = server;
    this.cacheFile = cacheFile;
    this.options = options;
    this.lock = lock;
    this.registry = registry;
    PassProgress.Listener none = progress -> {}; // its events come when the pass awaits it
    Preflights watched = prober.withSpawnWatcher(registry).forPass(options);
    this.task = new FutureTask<>(() -> measurer.measure(server, watched, watched.timeout(), none));
    this.thread = runner.threads().newThread(task, "kcshare-head-start");
    thread.start();
  }

  /**
   * Does what a pass does before its first spawn — reaps what a killed pass left running, takes the
   * cache lock (only if it is free now), opens the spawn registry — and starts the pre-flight of
   * {@code server}; null, having spawned nothing, when the lock is held. The cache is read while
   * the server starts (its decoding is then not in the way of the spawn): a cache file that must be
   * left as it is ends the head start, its processes torn down and the lock released, before the
   * {@link dev.kcshare.host.FileProblem} is thrown.
   */
  static @Nullable HeadStart begin(
      EvaluationRunner runner,
      Preflights prober,
      ServerMeasurer measurer,
      ConfiguredServer server,
      Path cacheFile,
      PassOptions options)
      throws IOException, InterruptedException {
    Path recordsDir = cacheFile.toAbsolutePath().getParent();
    SpawnRegistry.reapOrphans(recordsDir);
    CacheStore.Held lock = CacheStore.hold(cacheFile, Duration.ZERO, null);
    if (lock == null) {
      return null;
    }
    HeadStart begun;
    SpawnRegistry registry = null;
    try {
      registry = SpawnRegistry.open(recordsDir);
      begun = new HeadStart(runner, prober, measurer, server, cacheFile, options, lock, registry);
    } catch (RuntimeException | Error e) {
      if (registry != null) {
        registry.close();
      }
      lock.close();
      throw e;
    }
    try {
      CacheStore.Session session = lock.load();
      synchronized (begun) {
        begun.session = session;
      }
      return begun;
    } catch (IOException | RuntimeException | Error e) {
      begun.close(); // the pre-flight torn down while the lock is still held, then released
      throw e;
    }
  }

  /** Whether this head start was begun for exactly this pass, and not yet taken. */
  boolean isFor(
      EvaluationRunner other, List<ConfiguredServer> servers, Path file, PassOptions opts) {
    Objects.requireNonNull(file, "file");
    // Compared by identity and field by field: a record's generated equals is bootstrapped
    // through method handles on first use, tens of milliseconds at start-up.
    return other == runner
        && !taken
        && servers.size() == 1
        && servers.get(0) == server
        && file.equals(cacheFile)
        && opts.kind() == options.kind()
        && opts.budget() == options.budget()
        && opts.waitForLock() == options.waitForLock()
        && opts.retryFailed() == options.retryFailed()
        && opts.era() == options.era()
        && opts.selfTest() == options.selfTest();
  }

  /** The lock, handed to the pass that continues this head start. */
  synchronized CacheStore.Session take() {
    taken = true;
    return Objects.requireNonNull(session, "a head start is handed out once its cache is read");
  }

  /** The spawn registry its pre-flight records its processes in. */
  SpawnRegistry registry() {
    return registry;
  }

  boolean measures(ConfiguredServer s) {
    return s == server;
  }

  /** The pre-flight, awaited as if the pass had started it now. */
  Measurement continued(PassProgress.Listener events) throws InterruptedException {
    events.onStarted(server.name());
    return await();
  }

  /**
   * The pre-flight's result; when the waiting thread is interrupted, the pre-flight is stopped (its
   * processes torn down) before the interruption propagates.
   */
  private Measurement await() throws InterruptedException {
    try {
      return task.get();
    } catch (InterruptedException e) {
      stop();
      throw e;
    } catch (ExecutionException e) {
      throw PassPool.unwrap(e);
    }
  }

  /** Interrupts the pre-flight and waits until it has ended (teardown included). */
  private void stop() {
    thread.interrupt();
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stop(); // at once when the pre-flight had ended
    boolean release;
    synchronized (this) {
      release = !taken;
      taken = true;
    }
    if (release) {
      registry.close();
      try {
        lock.close(); // the session's lock, when it was read
      } catch (IOException e) {
        PassLog.log().debug("releasing the cache lock failed", e);
      }
    }
  }
}
