package dev.kcshare.host.prober;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.FileProblems;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.records.AtomicFiles;
import dev.kcshare.host.records.FileLock;
import dev.kcshare.host.records.RecordsTrust;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a pass has running, kept in the records directory while it runs
 * (docs/design.md#process-registry,
 * docs/formats.md#what-a-pass-leaves-behind--kcshare-processesjson), so that the next kcshare run
 * on that directory ends whatever a killed pass left behind ({@link #reapOrphans}) before it starts
 * its own work.
 *
 * <p>The file, {@value #FILE_NAME}, is kcshare's own (the Kiro Crew gateway never reads it):
 *
 * <pre>{@code
 * {"processes": [{"pid": 4242, "startTime": 1234567, "group": true,
 *                 "ownerPid": 4000, "ownerStartTime": 1200000, "owner": "<token>"}]}
 * }</pre>
 *
 * One entry per live server process: its pid and start time (clock ticks since boot, from {@code
 * /proc/PID/stat}, so a recycled pid is never mistaken for it), whether it leads its own process
 * group, and the kcshare process (and registry) that spawned it. An entry whose owner no longer
 * runs is an orphan. Written atomically, 0600, under its lock file; read tolerantly (anything
 * malformed is ignored). Without {@code /proc} (not Linux) nothing is recorded or reaped.
 *
 * <p>Writes are atomic but not synced to disk: after a crash of the host the processes are gone
 * too.
 */
public final class SpawnRegistry implements SpawnWatcher, AutoCloseable {
  /** The registry's file name in the records directory. */
  public static final String FILE_NAME = "kcshare-processes.json";

  /** Registries opened by this JVM so far: part of each one's token. */
  private static final AtomicLong OPENED = new AtomicLong();

  /**
   * Looked up when there is something to log, not in a static field: a pass that logs nothing never
   * starts the logging backend (docs/performance.md).
   */
  private static Logger log() {
    return LoggerFactory.getLogger(SpawnRegistry.class);
  }

  private static final Duration LOCK_WAIT = Duration.ofSeconds(5);
  private static final Duration TERM_GRACE = Duration.ofMillis(500);
  private static final Duration KILL_SETTLE = Duration.ofSeconds(2);

  private final Path file;

  /**
   * Which registry, of every pass on the host, an entry belongs to: this JVM's process id and start
   * time, and the count of registries it opened. Unique without randomness (a random UUID would
   * initialise {@code SecureRandom} before the pass's first spawn).
   */
  private final String token;

  private final long ownerPid;
  private final long ownerStart;
  private final Map<Long, Entry> live = new LinkedHashMap<>(); // guarded by this
  private boolean dirty; // guarded by this
  private boolean disabled; // guarded by this

  /** One recorded process. */
  private record Entry(
      long pid, long startTime, boolean group, long ownerPid, long ownerStart, String owner) {
    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pid", pid);
      m.put("startTime", startTime);
      m.put("group", group);
      m.put("ownerPid", ownerPid);
      m.put("ownerStartTime", ownerStart);
      m.put("owner", owner);
      return m;
    }
  }

  private SpawnRegistry(Path file, long ownerPid, long ownerStart, boolean disabled) {
    this.file = file;
    this.token = ownerPid + "-" + ownerStart + "-" + OPENED.incrementAndGet();
    this.ownerPid = ownerPid;
    this.ownerStart = ownerStart;
    this.disabled = disabled;
  }

  /**
   * A registry for a pass on the records directory {@code recordsDir}. Creates nothing until the
   * first spawn.
   *
   * @param recordsDir the records directory
   * @return the registry; close it when the pass ends
   */
  public static SpawnRegistry open(Path recordsDir) {
    Objects.requireNonNull(recordsDir, "recordsDir");
    long self = ProcessHandle.current().pid();
    OptionalLong start = ProcFs.startTime(self);
    return new SpawnRegistry(
        recordsDir.resolve(FILE_NAME), self, start.orElse(-1), start.isEmpty());
  }

  /** The registry file of a records directory. */
  public static Path fileIn(Path recordsDir) {
    return recordsDir.resolve(FILE_NAME);
  }

  @Override
  public synchronized void spawned(ProcessHandle process, boolean ownGroup) {
    if (disabled) {
      return;
    }
    OptionalLong start = ProcFs.startTime(process.pid());
    if (start.isEmpty()) {
      return; // already gone
    }
    live.put(
        process.pid(),
        new Entry(process.pid(), start.getAsLong(), ownGroup, ownerPid, ownerStart, token));
    dirty = true;
    // Written at once: a pass killed right after this spawn must leave the entry behind.
    write();
  }

  @Override
  public synchronized void ended(ProcessHandle process) {
    if (live.remove(process.pid()) != null) {
      dirty = true; // written with the next spawn, or at close
    }
  }

  /** Writes what is still live (normally nothing) and removes the file when it lists nobody. */
  @Override
  public synchronized void close() {
    if (!disabled && dirty) {
      write();
    }
  }

  /** Merges this registry's live entries into the file, under its lock; never throws. */
  private void write() {
    try {
      FileLock lock = FileLock.tryAcquire(file, LOCK_WAIT);
      if (lock == null) {
        log().debug("process registry {} is locked; written with the next spawn", file);
        return;
      }
      try (lock) {
        List<Entry> entries = new ArrayList<>();
        for (Entry e : read(file)) {
          if (!e.owner().equals(token)) {
            entries.add(e); // another pass's, live or not: the reaper decides
          }
        }
        entries.addAll(live.values());
        store(file, entries);
        dirty = false;
      }
    } catch (IOException e) {
      // The records directory cannot be written: the pass's own flush will say so. Stop trying.
      disabled = true;
      log()
          .warn(
              "cannot record the pass's server processes in {}: {}",
              Escaper.quoted(file.toString(), Escaper.LONG_LIMIT),
              FileProblems.reason(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // written with the next spawn, or at close
    }
  }

  private static void store(Path file, List<Entry> entries) throws IOException {
    if (entries.isEmpty()) {
      Files.deleteIfExists(file);
      return;
    }
    List<Object> out = new ArrayList<>();
    for (Entry e : entries) {
      out.add(e.toJson());
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("processes", out);
    AtomicFiles.writeUnsynced(file, JsonWriter.pretty(doc).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * How many server processes the registry in {@code recordsDir} lists: spawned by a pass that is
   * running, or left behind by one that was killed (the next run ends those). Zero without a file.
   */
  public static int recordedCount(Path recordsDir) {
    return read(fileIn(Objects.requireNonNull(recordsDir, "recordsDir"))).size();
  }

  /** The file's entries; anything malformed (or a file that cannot be read) is left out. */
  private static List<Entry> read(Path file) {
    List<Entry> out = new ArrayList<>();
    byte[] bytes;
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > 16L * 1024 * 1024) {
        return out;
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return out;
    } catch (IOException e) {
      return out;
    }
    Object root;
    try {
      root = JsonReader.withDepthLimit(16).parse(bytes);
    } catch (Exception e) {
      return out;
    }
    if (!(root instanceof Map<?, ?> top) || !(top.get("processes") instanceof List<?> list)) {
      return out;
    }
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> m)) {
        continue;
      }
      long pid = number(m.get("pid"));
      long start = number(m.get("startTime"));
      long owner = number(m.get("ownerPid"));
      long ownerStart = number(m.get("ownerStartTime"));
      Object token = m.get("owner");
      if (pid <= 1 || start < 0 || owner <= 0 || ownerStart < 0 || !(token instanceof String t)) {
        continue;
      }
      out.add(new Entry(pid, start, Boolean.TRUE.equals(m.get("group")), owner, ownerStart, t));
    }
    return out;
  }

  private static long number(@Nullable Object value) {
    return value instanceof Integer || value instanceof Long ? ((Number) value).longValue() : -1;
  }

  /**
   * Ends every process a kcshare run that no longer runs left behind on this records directory: for
   * each such entry still alive (same pid AND start time), its whole process group if it led one,
   * else the process alone — SIGTERM, a short grace, then SIGKILL for survivors. Entries of a live
   * kcshare run are kept; ended and vanished ones are removed from the file. Nothing is read or
   * ended when others may write the directory ({@link RecordsTrust}). Never throws.
   *
   * @param recordsDir the records directory
   * @return how many processes were signalled
   */
  public static int reapOrphans(Path recordsDir) {
    Path file = fileIn(Objects.requireNonNull(recordsDir, "recordsDir"));
    if (!Files.exists(file) || !ProcFs.available()) {
      return 0;
    }
    try {
      RecordsTrust.requireWritable(recordsDir); // an entry others could forge is never acted on
      FileLock lock = FileLock.tryAcquire(file, LOCK_WAIT);
      if (lock == null) {
        return 0;
      }
      try (lock) {
        List<Entry> kept = new ArrayList<>();
        List<ProcessHandle> targets = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        for (Entry e : read(file)) {
          if (runs(e.ownerPid(), e.ownerStart())) {
            kept.add(e);
            continue;
          }
          targets.addAll(leftovers(e, self));
        }
        int signalled = terminate(targets);
        if (signalled > 0) {
          log()
              .info(
                  "ended {} server process(es) left behind by an earlier kcshare run on {}",
                  signalled,
                  Escaper.quoted(recordsDir.toString(), Escaper.LONG_LIMIT));
        }
        store(file, kept);
        return signalled;
      }
    } catch (IOException e) {
      log().debug("cannot reap leftover processes from {}: {}", file, FileProblems.reason(e));
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  private static boolean runs(long pid, long startTime) {
    ProcFs.Stat s = ProcFs.stat(pid);
    return s != null && s.isRunning() && s.startTime() == startTime;
  }

  /** The processes of an orphaned entry that still run: its group, or itself. */
  private static List<ProcessHandle> leftovers(Entry e, long self) {
    List<ProcessHandle> out = new ArrayList<>();
    ProcFs.Stat leader = ProcFs.stat(e.pid());
    boolean leaderIsOurs = leader != null && leader.startTime() == e.startTime();
    if (leader != null && !leaderIsOurs) {
      return out; // the pid was recycled: no member of the old group can remain (it holds the id)
    }
    if (e.group()) {
      for (ProcFs.Stat member : ProcFs.group(e.pid())) {
        if (member.isRunning() && member.pid() != self) {
          ProcessHandle.of(member.pid()).ifPresent(out::add);
        }
      }
    } else if (leaderIsOurs && leader.isRunning() && e.pid() != self) {
      ProcessHandle.of(e.pid()).ifPresent(out::add);
    }
    return out;
  }

  /** SIGTERM, a short grace, SIGKILL for survivors; how many were signalled. */
  private static int terminate(List<ProcessHandle> targets) throws InterruptedException {
    for (ProcessHandle h : targets) {
      h.destroy();
    }
    awaitGone(targets, TERM_GRACE);
    for (ProcessHandle h : targets) {
      if (ProcessTree.isRunning(h)) {
        h.destroyForcibly();
      }
    }
    awaitGone(targets, KILL_SETTLE);
    return targets.size();
  }

  private static void awaitGone(List<ProcessHandle> handles, Duration grace)
      throws InterruptedException {
    long deadline = System.nanoTime() + grace.toNanos();
    while (System.nanoTime() < deadline && handles.stream().anyMatch(ProcessTree::isRunning)) {
      Thread.sleep(10);
    }
  }
}
