package dev.kcshare.host.prober;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One spawned server: the process tree, the JSON-RPC channel on its stdin/stdout and the stderr
 * drain. {@link #tearDown()} runs the whole ladder of docs/design.md#teardown exactly once, whoever
 * calls it first (the identity's exchange, or the JVM shutdown hook when kcshare is interrupted).
 */
final class ServerProcess {
  private static final AtomicInteger SEQUENCE = new AtomicInteger();
  private static final Set<ServerProcess> LIVE = ConcurrentHashMap.newKeySet();
  private static volatile boolean hookInstalled;

  private final ProcessTree tree;
  private final JsonRpcChannel channel;
  private final StderrTail stderr;
  private final ProbeOptions options;
  private boolean tornDown;

  private ServerProcess(Process process, ProbeOptions options) {
    String threadName = "kcshare-probe-" + SEQUENCE.incrementAndGet();
    this.options = options;
    this.tree = new ProcessTree(process);
    this.stderr = new StderrTail(process.getErrorStream(), threadName);
    this.channel =
        new JsonRpcChannel(
            process.getInputStream(),
            process.getOutputStream(),
            options.timeout(),
            tree::snapshot,
            threadName);
  }

  /**
   * Spawns the server with all three streams as pipes.
   *
   * @throws IOException when the OS refuses to start it
   */
  static ServerProcess start(Launch launch, ProbeOptions options) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(launch.commandLine());
    builder.directory(launch.directory().toFile());
    builder.environment().clear();
    builder.environment().putAll(launch.environment());
    installShutdownHook();
    Process process = builder.start();
    try {
      ServerProcess server = new ServerProcess(process, options);
      LIVE.add(server);
      return server;
    } catch (RuntimeException | Error e) {
      process.destroyForcibly(); // no thread could be started to watch it
      throw e;
    }
  }

  JsonRpcChannel channel() {
    return channel;
  }

  ProcessTree tree() {
    return tree;
  }

  /** The last stderr bytes, raw (escape before showing). */
  String stderrTail() {
    return stderr.text();
  }

  /**
   * The direct child's exit status as the JVM reports it (128 + N after signal N), or null while it
   * has not been reaped. Final after {@link #tearDown()}.
   */
  @Nullable Integer exitStatus() {
    Process p = tree.process();
    return p.isAlive() ? null : p.exitValue();
  }

  /**
   * Waits up to {@code millis} for the direct child to exit on its own (before any teardown step);
   * true when it has. An interrupt ends the wait and is re-asserted.
   */
  boolean exitsWithin(long millis) {
    try {
      return tree.process().waitFor(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !tree.process().isAlive();
    }
  }

  /**
   * Closes stdin, waits, SIGTERMs the tree, waits, SIGKILLs survivors, then stops the channel and
   * the stderr drain. Idempotent; an interrupt arriving meanwhile is re-asserted afterwards.
   */
  synchronized void tearDown() {
    if (tornDown) {
      return;
    }
    tornDown = true;
    try {
      tree.snapshot();
      channel.closeStdin();
      tree.terminate(options.stdinGrace(), options.termGrace());
      stderr.awaitEnd(1000);
      channel.close();
      closeQuietly(tree.process().getErrorStream());
    } finally {
      LIVE.remove(this);
    }
  }

  private static void closeQuietly(java.io.InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // already gone
    }
  }

  /** Tears down every live server when the JVM exits (kcshare interrupted mid-pass). */
  private static void installShutdownHook() {
    if (hookInstalled) {
      return;
    }
    synchronized (LIVE) {
      if (hookInstalled) {
        return;
      }
      try {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(ServerProcess::tearDownAll, "kcshare-probe-shutdown"));
      } catch (IllegalStateException e) {
        return; // the JVM is already shutting down: each probe still tears itself down
      }
      hookInstalled = true;
    }
  }

  private static void tearDownAll() {
    Thread[] workers =
        LIVE.stream()
            .map(server -> new Thread(server::tearDown, "kcshare-probe-teardown"))
            .toArray(Thread[]::new);
    for (Thread worker : workers) {
      worker.start();
    }
    for (Thread worker : workers) {
      try {
        worker.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
