package dev.kcshare.host.prober;

import dev.kcshare.core.cost.internal.ProcScreen;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The process tree of one spawned server and its teardown ladder (docs/design.md#teardown).
 *
 * <p>The tree is tracked as the union of descendant snapshots taken from spawn onward (after each
 * response, before stdin is closed, after the stdin grace and before SIGKILL): a grandchild
 * orphaned when its parent exits is still in the union and still signalled. A server spawned in a
 * process group of its own (see {@link ServerProcess}) also has its whole group swept at the
 * teardown: a descendant that left the tree before any snapshot saw it is still in the group. (Java
 * cannot signal a group; its members are found in {@code /proc} and signalled one by one.) {@link
 * ProcessHandle#destroy()} is SIGTERM and {@link ProcessHandle#destroyForcibly()} SIGKILL on POSIX
 * systems; handles carry the process start time, so a recycled pid is never signalled.
 */
final class ProcessTree {
  private static final long POLL_MILLIS = 10;
  private static final Duration KILL_SETTLE = Duration.ofSeconds(2);

  /** The most processes one snapshot walks. */
  private static final int MAX_WALK = 4096;

  private final Process process;
  private final boolean ownGroup;
  private final long forksAtSpawn;
  private final long tasksAtSpawn;
  private final Set<ProcessHandle> known = ConcurrentHashMap.newKeySet();

  ProcessTree(Process process) {
    this(process, false, -1, -1);
  }

  /**
   * @param process the direct child
   * @param ownGroup whether it leads a process group of its own (its pid is the group id)
   * @param forksAtSpawn the tasks created since boot, read before it was spawned ({@link
   *     ProcFs#forks}), or -1
   * @param tasksAtSpawn the tasks that existed then ({@link ProcFs#tasks}), or -1
   */
  ProcessTree(Process process, boolean ownGroup, long forksAtSpawn, long tasksAtSpawn) {
    this.process = process;
    this.ownGroup = ownGroup;
    this.forksAtSpawn = forksAtSpawn;
    this.tasksAtSpawn = tasksAtSpawn;
    snapshot();
  }

  /**
   * Adds every running member of the child's own process group (one pass over /proc). While the
   * kernel's pid counter cannot have wrapped since the spawn, only pids above the child's are read
   * ({@link ProcScreen#lowestMemberPid}); otherwise every process's.
   */
  private void sweepGroup() {
    if (!ownGroup) {
      return;
    }
    long self = ProcessHandle.current().pid();
    ProcFs proc = ProcFs.system();
    long lowest =
        ProcScreen.lowestMemberPid(
            process.pid(), forksAtSpawn, tasksAtSpawn, proc.forks(), proc.pidMax());
    for (ProcFs.Stat member : proc.group(process.pid(), lowest)) {
      if (member.pid() != process.pid() && member.pid() != self && member.isRunning()) {
        Optional<ProcessHandle> handle = ProcessHandle.of(member.pid());
        if (handle.isPresent()) {
          known.add(handle.get());
        }
      }
    }
  }

  /** The direct child. */
  Process process() {
    return process;
  }

  /** Every process seen in the tree so far, excluding the direct child. */
  Set<ProcessHandle> knownDescendants() {
    return Set.copyOf(known);
  }

  /** {@link #snapshot()} as a task (a named class: see the package documentation). */
  Runnable snapshots() {
    return new Snapshots(this);
  }

  private static final class Snapshots implements Runnable {
    private final ProcessTree tree;

    Snapshots(ProcessTree tree) {
      this.tree = tree;
    }

    @Override
    public void run() {
      tree.snapshot();
    }
  }

  /**
   * Adds the current descendants of the child and of every known, still running descendant (with no
   * {@code known::add}: see the package documentation). Where the kernel keeps {@code children}
   * lists, only the tree's own processes are read ({@link #walk}); elsewhere {@link
   * ProcessHandle#descendants()}, which reads every process's {@code stat} for each root.
   */
  void snapshot() {
    try {
      ProcFs proc = ProcFs.system();
      Set<Long> visited = new HashSet<>();
      if (!walk(proc, process.toHandle(), visited)) {
        known.addAll(process.descendants().toList());
        for (ProcessHandle h : List.copyOf(known)) {
          if (isRunning(h)) {
            known.addAll(h.descendants().toList());
          }
        }
        return;
      }
      for (ProcessHandle h : List.copyOf(known)) {
        if (!visited.contains(h.pid()) && isRunning(h)) {
          walk(proc, h, visited);
        }
      }
    } catch (RuntimeException e) {
      // a snapshot is best effort; the next one, or the direct child's own signal, still counts
    }
  }

  /**
   * Adds the descendants of {@code root} found through the kernel's {@code children} lists, reading
   * only the files of {@code root}'s tree; each process is read once per snapshot ({@code
   * visited}). A child counts only when its {@code stat} names its parent and it started no earlier
   * ({@link ProcScreen#isChild}), and its handle is kept only when its start time read after the
   * handle was made is the one read before: a pid reused meanwhile is never adopted. A parent that
   * ended while its lists were read lends none of them. False when this kernel keeps no lists.
   */
  private boolean walk(ProcFs proc, ProcessHandle root, Set<Long> visited) {
    ProcFs.Stat rootStat = proc.stat(root.pid());
    if (rootStat == null) {
      return proc.children(root.pid()) != null;
    }
    ArrayDeque<ProcessHandle> handles = new ArrayDeque<>();
    ArrayDeque<ProcFs.Stat> stats = new ArrayDeque<>();
    handles.add(root);
    stats.add(rootStat);
    while (!handles.isEmpty() && visited.size() < MAX_WALK) {
      ProcessHandle parent = handles.poll();
      ProcFs.Stat parentStat = stats.poll();
      if (!visited.add(parent.pid())) {
        continue;
      }
      List<Long> children = proc.children(parent.pid());
      if (children == null) {
        return false;
      }
      if (!parent.isAlive()) {
        continue; // ended meanwhile: its pid may be another process's now
      }
      for (long child : children) {
        ProcFs.Stat before = proc.stat(child);
        if (before == null
            || !ProcScreen.isChild(
                parent.pid(), parentStat.startTime(), before.parent(), before.startTime())) {
          continue;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(child);
        ProcFs.Stat after = proc.stat(child);
        if (handle.isPresent() && after != null && after.startTime() == before.startTime()) {
          known.add(handle.get());
          handles.add(handle.get());
          stats.add(before);
        }
      }
    }
    return true;
  }

  /**
   * Runs steps 2 to 5 of the ladder after the caller closed stdin: wait for the child, SIGTERM the
   * whole tree, wait, SIGKILL survivors, and wait until the direct child is reaped. Interrupts are
   * deferred until the ladder is done and then re-asserted.
   */
  void terminate(Duration stdinGrace, Duration termGrace) {
    boolean interrupted = false;
    try {
      interrupted |= awaitChild(stdinGrace);
      snapshot();
      sweepGroup();
      List<ProcessHandle> targets = running();
      if (!targets.isEmpty()) {
        for (ProcessHandle h : targets) {
          h.destroy();
        }
        interrupted |= awaitAll(targets, termGrace);
        snapshot();
        sweepGroup();
        List<ProcessHandle> survivors = running();
        for (ProcessHandle h : survivors) {
          h.destroyForcibly();
        }
        interrupted |= awaitAll(survivors, KILL_SETTLE);
      }
      interrupted |= awaitChild(KILL_SETTLE);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The child and every known descendant that is still running. */
  private List<ProcessHandle> running() {
    Set<ProcessHandle> all = new LinkedHashSet<>();
    all.add(process.toHandle());
    all.addAll(known);
    List<ProcessHandle> alive = new ArrayList<>();
    for (ProcessHandle h : all) {
      if (isRunning(h)) {
        alive.add(h);
      }
    }
    return alive;
  }

  /** Waits up to {@code grace} for the direct child to exit; true when interrupted meanwhile. */
  private boolean awaitChild(Duration grace) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + grace.toNanos();
    while (true) {
      long remaining = deadline - System.nanoTime();
      try {
        if (process.waitFor(Math.max(remaining, 0), TimeUnit.NANOSECONDS) || remaining <= 0) {
          return interrupted;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
  }

  private static boolean anyRunning(List<ProcessHandle> handles) {
    for (ProcessHandle h : handles) {
      if (isRunning(h)) {
        return true;
      }
    }
    return false;
  }

  /** Waits up to {@code grace} until none of {@code handles} runs; true when interrupted. */
  private static boolean awaitAll(List<ProcessHandle> handles, Duration grace) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + grace.toNanos();
    while (anyRunning(handles) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    return interrupted;
  }

  /**
   * Whether a process still runs. A zombie does not: an orphaned grandchild that was killed may
   * stay a zombie for as long as the host's init fails to reap it, and {@link
   * ProcessHandle#isAlive()} cannot tell the difference.
   */
  static boolean isRunning(ProcessHandle h) {
    if (!h.isAlive()) {
      return false;
    }
    try {
      String stat =
          new String(
              Files.readAllBytes(Path.of("/proc", Long.toString(h.pid()), "stat")),
              StandardCharsets.ISO_8859_1);
      int close = stat.lastIndexOf(')');
      if (close < 0 || close + 2 >= stat.length()) {
        return true;
      }
      char state = stat.charAt(close + 2);
      return state != 'Z' && state != 'X';
    } catch (IOException | RuntimeException e) {
      return h.isAlive(); // no /proc (or the process just vanished)
    }
  }
}
