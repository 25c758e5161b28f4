package dev.kcshare.host.prober;

import dev.kcshare.host.KcshareThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One spawned server: the process tree, the JSON-RPC channel on its stdin/stdout and the stderr
 * drain. {@link #tearDown()} runs the whole ladder of docs/design.md#teardown exactly once, whoever
 * calls it first (the identity's exchange, or the JVM shutdown hook when kcshare is interrupted).
 *
 * <p>Each server is started in a session and process group of its own (docs/design.md#spawning),
 * through {@code setsid} where the host has it (util-linux; it execs the command in the same
 * process, so the pid is the server's): the teardown then reaches the whole group, and a pass's
 * leftovers can be found by group after kcshare itself was killed. The command line the server
 * sees, and its execution identity (computed from the configured command), are unchanged. Without
 * {@code setsid} the server shares kcshare's group and only its tree is tracked.
 *
 * <p>Its environment is the launch's plus {@code KCSHARE_PASS_TOKEN}, the token of the pass the
 * {@link SpawnWatcher} stands for ({@link PassToken}).
 *
 * <p>Its three stream pumps, and its teardown thread when the shutdown hook tears it down, come
 * from the {@link KcshareThreads} it was started with. The hook itself ({@code
 * kcshare-probe-shutdown}) is the one thread of the prober that does not: a shutdown hook is an
 * unstarted {@link Thread} registered with {@link Runtime#addShutdownHook}, and one serves every
 * server of the JVM.
 */
final class ServerProcess {
  private static final AtomicInteger SEQUENCE = new AtomicInteger();
  private static final Set<ServerProcess> LIVE = ConcurrentHashMap.newKeySet();
  private static @Nullable Thread hook; // guarded by LIVE
  private static final AtomicInteger STARTING = new AtomicInteger();

  /** {@code setsid}, where the host has one (util-linux), else null. */
  static final @Nullable String SETSID = findSetsid();

  private final ProcessTree tree;
  private final JsonRpcChannel channel;
  private final StderrTail stderr;
  private final ProbeOptions options;
  private final SpawnWatcher watcher;
  private final KcshareThreads threads;
  private final boolean ownGroup;
  private boolean tornDown;

  private ServerProcess(
      Process process,
      ProbeOptions options,
      SpawnWatcher watcher,
      KcshareThreads threads,
      boolean ownGroup,
      long forksAtSpawn,
      long tasksAtSpawn) {
    String threadName = "kcshare-probe-" + SEQUENCE.incrementAndGet();
    this.options = options;
    this.watcher = watcher;
    this.threads = threads;
    this.ownGroup = ownGroup;
    this.tree = new ProcessTree(process, ownGroup, forksAtSpawn, tasksAtSpawn);
    this.stderr = new StderrTail(process.getErrorStream(), threadName, threads);
    this.channel =
        new JsonRpcChannel(
            process.getInputStream(),
            process.getOutputStream(),
            options.timeout(),
            tree.snapshots(),
            threadName,
            threads);
  }

  /**
   * Spawns the server with all three streams as pipes, its stream pumps made by {@code threads}.
   *
   * @throws IOException when the OS refuses to start it
   * @throws IllegalStateException when {@code threads} gives no thread (the process is killed)
   */
  static ServerProcess start(
      Launch launch, ProbeOptions options, SpawnWatcher watcher, KcshareThreads threads)
      throws IOException {
    List<String> command = new ArrayList<>();
    boolean ownGroup = SETSID != null;
    if (ownGroup) {
      command.add(SETSID);
    }
    command.addAll(launch.commandLine());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.directory(launch.directory().toFile());
    builder.environment().clear();
    builder.environment().putAll(launch.environment());
    // The pass's token, over any inherited or declared value: how kcshare later proves the process
    // (and whatever inherits its environment) is its own. Not in the launch, so never shown.
    builder.environment().put(PassToken.VARIABLE, watcher.passToken());
    STARTING.incrementAndGet(); // until it is LIVE, the hook may not be removed
    try {
      installShutdownHook();
      // Read before the spawn: how far the teardown's group sweep must look (ProcessTree).
      long forksAtSpawn = ownGroup ? ProcFs.system().forks() : -1;
      long tasksAtSpawn = ownGroup ? ProcFs.system().tasks() : -1;
      Process process = builder.start();
      try {
        watcher.spawned(process.toHandle(), ownGroup);
        ServerProcess server =
            new ServerProcess(
                process, options, watcher, threads, ownGroup, forksAtSpawn, tasksAtSpawn);
        LIVE.add(server);
        return server;
      } catch (RuntimeException | Error e) {
        process.destroyForcibly(); // no thread could be started to watch it
        watcher.ended(process.toHandle());
        throw e;
      }
    } finally {
      STARTING.decrementAndGet();
    }
  }

  private static @Nullable String findSetsid() {
    for (String candidate : List.of("/usr/bin/setsid", "/bin/setsid")) {
      Path p = Path.of(candidate);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return candidate;
      }
    }
    return null;
  }

  /**
   * After the teardown: when {@code setsid} itself could not start the command (it exits 126 or 127
   * and says "failed to execute"), the operating system's reason, as a spawn failure would give it;
   * else null.
   */
  @Nullable String wrapperFailure() {
    if (!ownGroup || tree.process().isAlive()) {
      return null;
    }
    int exit = tree.process().exitValue();
    String tail = stderr.text();
    int at = tail.indexOf("setsid: failed to execute ");
    if ((exit != 126 && exit != 127) || at < 0) {
      return null;
    }
    String line = tail.substring(at).lines().findFirst().orElse("");
    int colon = line.lastIndexOf(": ");
    return colon < 0 ? null : line.substring(colon + 2).strip();
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
      watcher.ended(tree.process().toHandle());
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
    synchronized (LIVE) {
      if (hook != null) {
        return;
      }
      Thread h = new Thread(ServerProcess::tearDownAll, "kcshare-probe-shutdown");
      try {
        Runtime.getRuntime().addShutdownHook(h);
      } catch (IllegalStateException e) {
        return; // the JVM is already shutting down: each probe still tears itself down
      }
      hook = h;
    }
  }

  /**
   * Removes the shutdown hook when no server is running or starting (the next spawn installs it
   * again): for an embedder's facade that is the last one open, so nothing of kcshare's stays
   * registered with the JVM.
   *
   * @return true if no hook is installed afterwards
   */
  static boolean removeShutdownHookIfIdle() {
    synchronized (LIVE) {
      Thread h = hook;
      if (h == null) {
        return true;
      }
      if (!LIVE.isEmpty() || STARTING.get() > 0) {
        return false;
      }
      try {
        Runtime.getRuntime().removeShutdownHook(h);
      } catch (IllegalStateException e) {
        return false; // the JVM is shutting down: the hook runs, and finds nothing to do
      }
      hook = null;
      return true;
    }
  }

  /** The installed shutdown hook, or null. */
  static @Nullable Thread shutdownHook() {
    synchronized (LIVE) {
      return hook;
    }
  }

  /**
   * Tears every live server down at once, each on a thread of its own {@link KcshareThreads}; a
   * server whose factory gives no thread is torn down on the hook's thread, after the others have
   * started.
   */
  private static void tearDownAll() {
    List<Thread> workers = new ArrayList<>();
    List<ServerProcess> inline = new ArrayList<>();
    for (ServerProcess server : List.copyOf(LIVE)) {
      try {
        Thread worker = server.threads.newThread(server::tearDown, "kcshare-probe-teardown");
        worker.start();
        workers.add(worker);
      } catch (RuntimeException e) {
        inline.add(server); // the embedder's factory refused, or gave a thread already started
      }
    }
    for (ServerProcess server : inline) {
      server.tearDown();
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
