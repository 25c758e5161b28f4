package dev.kcshare.host.prober;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.cost.internal.ProcText;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Samples the footprint of one spawned server's process tree from Linux's {@code /proc}, once its
 * answers are in and before teardown ({@code docs/verdicts.md}, "What a session costs"). One sample
 * reads, per process of the tree, {@code stat}, {@code smaps_rollup} (or {@code status} where that
 * is not readable) and the {@code children} lists of its threads: a few small files, well under a
 * millisecond for a typical tree, and nothing is spawned.
 *
 * <ul>
 *   <li>The tree is the spawned process and every descendant alive at the sample: launcher wrappers
 *       ({@code npx}, {@code uvx}, {@code sh -c}) count with what they start. Children are found
 *       through {@code /proc/PID/task/TID/children}; on a kernel without those files, by the parent
 *       pid in every {@code /proc/PID/stat}.
 *   <li>{@code rssBytes} and {@code pssBytes} sum the {@code Rss} and {@code Pss} of each running
 *       process's {@code smaps_rollup}; where that file cannot be read, {@code status}'s {@code
 *       VmRSS} gives the RSS and the PSS is absent. A figure that cannot be read for one running
 *       process is absent for the tree (a partial sum would understate it).
 *   <li>{@code processes} counts the running processes (zombies excluded).
 *   <li>{@code cpuMillis} sums user and system time of every process of the tree, each with the
 *       time of the children it has already waited for ({@code cutime}, {@code cstime}): a child
 *       that ran and exited before the sample (a launcher's version check) counts once, in its
 *       parent; a zombie's own time counts as it is not yet in its parent's. Clock ticks are
 *       converted at {@code AT_CLKTCK} from {@code /proc/self/auxv} (100 Hz where it is not said).
 *   <li>{@code readyMillis} is kcshare's own clock, from just before the spawn to the arrival of
 *       the initialize (or {@code server/discover}) answer; it is known on every platform.
 * </ul>
 *
 * <p>Off Linux (no {@code /proc}) only {@code readyMillis} is known. The system property {@value
 * #SWITCH}{@code =off} turns sampling off altogether, for the overhead benchmark of {@code
 * docs/performance.md}. A sample never throws: anything unreadable is an absent figure.
 */
final class Footprint {
  /** The system property that turns sampling off ({@code off}); for benchmarks only. */
  static final String SWITCH = "kcshare.footprint";

  /** More processes than this in one server's tree are not walked (a fork bomb, a loop). */
  static final int MAX_PROCESSES = 4096;

  private static final Footprint OFF = new Footprint(null, 0, false);

  private final @Nullable Path proc;
  private final long ticksPerSecond;
  private final boolean enabled;

  private Footprint(@Nullable Path proc, long ticksPerSecond, boolean enabled) {
    this.proc = proc;
    this.ticksPerSecond = ticksPerSecond;
    this.enabled = enabled;
  }

  /** This host's sampler: {@code /proc} when it exists, unless {@value #SWITCH} is {@code off}. */
  static Footprint system() {
    if ("off".equals(System.getProperty(SWITCH))) {
      return OFF;
    }
    Path proc = Path.of("/proc");
    if (!Files.isReadable(proc.resolve("self").resolve("stat"))) {
      return new Footprint(null, 0, true);
    }
    return new Footprint(proc, clockTicks(proc), true);
  }

  /** A sampler over another {@code /proc} tree, for tests. */
  static Footprint at(Path proc, long ticksPerSecond) {
    return new Footprint(proc, ticksPerSecond, true);
  }

  /** A sampler that measures nothing. */
  static Footprint off() {
    return OFF;
  }

  private static long clockTicks(Path proc) {
    try {
      byte[] auxv = Files.readAllBytes(proc.resolve("self").resolve("auxv"));
      int word = "32".equals(System.getProperty("sun.arch.data.model")) ? 4 : 8;
      return ProcText.clockTicks(auxv, ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, word);
    } catch (IOException | RuntimeException e) {
      return ProcText.DEFAULT_CLOCK_TICKS;
    }
  }

  /**
   * Samples the tree rooted at {@code rootPid} now.
   *
   * @param rootPid the spawned process
   * @param spawnedAt {@link System#nanoTime()} just before the spawn
   * @param answeredAt {@link System#nanoTime()} when the initialize (or {@code server/discover})
   *     answer arrived, or 0 when unknown
   * @return the figures; {@link SessionCost#NONE} when sampling is off
   */
  SessionCost sample(long rootPid, long spawnedAt, long answeredAt) {
    if (!enabled) {
      return SessionCost.NONE;
    }
    OptionalLong ready =
        answeredAt == 0 || answeredAt < spawnedAt
            ? OptionalLong.empty()
            : OptionalLong.of((answeredAt - spawnedAt) / 1_000_000);
    if (proc == null) {
      return new SessionCost(
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          ready,
          OptionalLong.empty());
    }
    try {
      return walk(proc, rootPid, ready);
    } catch (RuntimeException e) {
      return new SessionCost(
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          ready,
          OptionalLong.empty());
    }
  }

  private SessionCost walk(Path proc, long rootPid, OptionalLong ready) {
    long rssKib = 0;
    long pssKib = 0;
    boolean rssKnown = true;
    boolean pssKnown = true;
    long running = 0;
    long cpuTicks = 0;
    boolean rootSeen = false;
    for (long pid : tree(proc, rootPid)) {
      Path dir = proc.resolve(Long.toString(pid));
      String statText = read(dir.resolve("stat"));
      ProcText.Stat stat = statText == null ? null : ProcText.parseStat(statText);
      if (stat == null) {
        continue; // gone since it was found
      }
      rootSeen |= pid == rootPid;
      cpuTicks += stat.cpuTicks();
      if (stat.isGone()) {
        continue;
      }
      running++;
      String rollup = read(dir.resolve("smaps_rollup"));
      OptionalLong rss = rollup == null ? OptionalLong.empty() : ProcText.kibField(rollup, "Rss");
      OptionalLong pss = rollup == null ? OptionalLong.empty() : ProcText.kibField(rollup, "Pss");
      if (rss.isEmpty()) {
        String status = read(dir.resolve("status"));
        rss = status == null ? OptionalLong.empty() : ProcText.kibField(status, "VmRSS");
      }
      rssKnown &= rss.isPresent();
      pssKnown &= pss.isPresent();
      rssKib += rss.orElse(0);
      pssKib += pss.orElse(0);
    }
    if (!rootSeen) {
      return new SessionCost(
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          ready,
          OptionalLong.empty());
    }
    boolean any = running > 0;
    return new SessionCost(
        any && rssKnown ? OptionalLong.of(rssKib * 1024) : OptionalLong.empty(),
        any && pssKnown ? OptionalLong.of(pssKib * 1024) : OptionalLong.empty(),
        OptionalLong.of(running),
        ready,
        OptionalLong.of(ProcText.ticksToMillis(cpuTicks, ticksPerSecond)));
  }

  /** The root and its descendants, parents before children. */
  private static List<Long> tree(Path proc, long rootPid) {
    Set<Long> seen = new LinkedHashSet<>();
    ArrayDeque<Long> queue = new ArrayDeque<>();
    queue.add(rootPid);
    Map<Long, List<Long>> byParent = null;
    while (!queue.isEmpty() && seen.size() < MAX_PROCESSES) {
      long pid = queue.poll();
      if (!seen.add(pid)) {
        continue;
      }
      List<Long> children = byParent == null ? childrenOf(proc, pid) : null;
      if (children == null) {
        if (byParent == null) {
          byParent = parents(proc); // no children files on this kernel: one scan of /proc
        }
        children = byParent.getOrDefault(pid, List.of());
      }
      queue.addAll(children);
    }
    return new ArrayList<>(seen);
  }

  /**
   * The children of every thread of {@code pid}, or null when this kernel has no {@code children}
   * files (a vanished process has none: an empty list).
   */
  private static @Nullable List<Long> childrenOf(Path proc, long pid) {
    Path tasks = proc.resolve(Long.toString(pid)).resolve("task");
    List<Long> out = new ArrayList<>();
    boolean anyFile = false;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        String text = read(thread.resolve("children"));
        if (text != null) {
          anyFile = true;
          out.addAll(ProcText.parseChildren(text));
        }
      }
    } catch (IOException | RuntimeException e) {
      return out;
    }
    return anyFile ? out : null;
  }

  /** Every process's children, from the parent pid in each {@code /proc/PID/stat}. */
  private static Map<Long, List<Long>> parents(Path proc) {
    Map<Long, List<Long>> byParent = new HashMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!ProcText.isPid(name)) {
          continue;
        }
        String text = read(entry.resolve("stat"));
        ProcText.Stat stat = text == null ? null : ProcText.parseStat(text);
        if (stat != null) {
          byParent.computeIfAbsent(stat.ppid(), k -> new ArrayList<>()).add(Long.parseLong(name));
        }
      }
    } catch (IOException | RuntimeException e) {
      // what was read so far
    }
    return byParent;
  }

  private static @Nullable String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
