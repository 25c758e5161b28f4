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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a pass has running, kept in the records directory while it runs
 * (docs/design.md#process-registry,
 * docs/formats.md#what-a-pass-leaves-behind--kcshare-processesjson), so that the next kcshare run
 * on that directory ends whatever a killed pass left behind ({@link #reapOrphans}) before it starts
 * its own work — but only what it can prove is its own.
 *
 * <p>The file, {@value #FILE_NAME}, is kcshare's own (the Kiro Crew gateway never reads it):
 *
 * <pre>{@code
 * {"processes": [{"pid": 4242, "startTime": 1234567, "uid": 1000, "token": "<32 hex digits>",
 *                 "group": true, "ownerPid": 4000, "ownerStartTime": 1200000}]}
 * }</pre>
 *
 * One entry per live server process: its pid and start time (clock ticks since boot, from {@code
 * /proc/PID/stat}, so a recycled pid is never mistaken for it), the effective user that spawned it,
 * the pass's token ({@link PassToken}, also in the server's environment), whether it leads its own
 * process group, and the kcshare process that spawned it. An entry whose owner no longer runs is an
 * orphan. Written atomically, 0600, under its lock file; read tolerantly. Members and entries
 * kcshare does not understand are written back as they were read (the reaper drops entries it
 * cannot prove). Without {@code /proc} (not Linux) nothing is recorded or reaped.
 *
 * <p>One registry is one pass: its token is made when it opens, every server spawned through it
 * carries it, and when it closes every process of the effective user that still carries the token
 * is ended (a double-forked daemon left the tree and the group, not the environment it inherited).
 *
 * <p>Writes are atomic but not synced to disk: after a crash of the host the processes are gone
 * too.
 */
public final class SpawnRegistry implements SpawnWatcher, AutoCloseable {
  /** The registry's file name in the records directory. */
  public static final String FILE_NAME = "kcshare-processes.json";

  /** How many unprovable entries a warning names before it says "…". */
  private static final int NAMED_PROBLEMS = 5;

  /**
   * Looked up when there is something to log, not in a static field: a pass that logs nothing never
   * starts the logging backend (docs/performance.md).
   */
  private static Logger log() {
    return LoggerFactory.getLogger(SpawnRegistry.class);
  }

  private static final Duration LOCK_WAIT = Duration.ofSeconds(5);

  private final Path file;
  private final @Nullable OwnProcesses own;

  /** The pass's token: which entries are this registry's, and what its servers carry. */
  private final String token;

  private final long ownerPid;
  private final long ownerStart;
  private final Map<Long, Entry> live = new LinkedHashMap<>(); // guarded by this
  private boolean dirty; // guarded by this
  private boolean disabled; // guarded by this
  private boolean handedOut; // guarded by this: a server may carry the token

  /** One recorded process of this registry. */
  private record Entry(
      long pid,
      long startTime,
      long uid,
      String token,
      boolean group,
      long ownerPid,
      long ownerStart) {
    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pid", pid);
      m.put("startTime", startTime);
      m.put("uid", uid);
      m.put("token", token);
      m.put("group", group);
      m.put("ownerPid", ownerPid);
      m.put("ownerStartTime", ownerStart);
      return m;
    }
  }

  /**
   * One entry as the file holds it: every member as read, and the ones kcshare uses (-1, or null,
   * where absent or malformed).
   */
  private record Stored(
      Map<?, ?> raw,
      long pid,
      long startTime,
      long uid,
      @Nullable String token,
      boolean group,
      long ownerPid,
      long ownerStart) {
    static Stored of(Map<?, ?> m) {
      return new Stored(
          m,
          number(m.get("pid")),
          number(m.get("startTime")),
          number(m.get("uid")),
          m.get("token") instanceof String t ? t : null,
          Boolean.TRUE.equals(m.get("group")),
          number(m.get("ownerPid")),
          number(m.get("ownerStartTime")));
    }

    boolean wellFormed() {
      return pid > 1 && startTime >= 0 && ownerPid > 0 && ownerStart >= 0;
    }

    /** Whether it records what a proof needs: the user and a token. */
    boolean provable() {
      return uid >= 0 && token != null && PassToken.isWellFormed(token);
    }
  }

  /** The file's entries, and its other top-level members (kept as they are). */
  private record Contents(List<Stored> entries, Map<String, @Nullable Object> others) {
    static final Contents EMPTY = new Contents(List.of(), Map.of());
  }

  private SpawnRegistry(Path file, @Nullable OwnProcesses own) {
    this.file = file;
    this.own = own;
    this.token = PassToken.generate();
    this.ownerPid = ProcessHandle.current().pid();
    OptionalLong start = own == null ? OptionalLong.empty() : own.proc().startTime(ownerPid);
    this.ownerStart = start.orElse(-1);
    this.disabled = start.isEmpty();
  }

  /**
   * A registry for a pass on the records directory {@code recordsDir}, with a new pass token.
   * Creates nothing until the first spawn.
   *
   * @param recordsDir the records directory
   * @return the registry; close it when the pass ends
   */
  public static SpawnRegistry open(Path recordsDir) {
    return open(recordsDir, OwnProcesses.system());
  }

  static SpawnRegistry open(Path recordsDir, @Nullable OwnProcesses own) {
    Objects.requireNonNull(recordsDir, "recordsDir");
    return new SpawnRegistry(recordsDir.resolve(FILE_NAME), own);
  }

  /** The registry file of a records directory. */
  public static Path fileIn(Path recordsDir) {
    return recordsDir.resolve(FILE_NAME);
  }

  @Override
  public synchronized String passToken() {
    handedOut = true;
    return token;
  }

  @Override
  public synchronized void spawned(ProcessHandle process, boolean ownGroup) {
    if (disabled || own == null) {
      return;
    }
    OptionalLong start = own.proc().startTime(process.pid());
    if (start.isEmpty()) {
      return; // already gone
    }
    live.put(
        process.pid(),
        new Entry(
            process.pid(), start.getAsLong(), own.uid(), token, ownGroup, ownerPid, ownerStart));
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

  /**
   * Ends every process of the effective user that still carries this pass's token (what its servers
   * left running outside their tree and group), then writes what is still live (normally nothing)
   * and removes the file when it lists nobody. The sweep comes first: a kcshare killed during it
   * leaves the token in the file for the next run.
   */
  @Override
  public synchronized void close() {
    if (own != null && handedOut) {
      int ended = own.end(List.of(), Map.of(token, ownerStart));
      if (ended > 0) {
        log()
            .info(
                "ended {} process(es) the pass's servers left running outside their process group",
                ended);
      }
    }
    if (!disabled && dirty) {
      write();
    }
  }

  /** Merges this registry's live entries into the file, under its lock; never throws. */
  private void write() {
    try {
      Path file = RecordsTrust.requireWritableFile(this.file);
      FileLock lock = FileLock.tryAcquire(file, LOCK_WAIT);
      if (lock == null) {
        log().debug("process registry {} is locked; written with the next spawn", file);
        return;
      }
      try (lock) {
        Contents read = read(file);
        List<Object> entries = new ArrayList<>();
        for (Stored e : read.entries()) {
          if (!token.equals(e.token())) {
            entries.add(e.raw()); // another pass's, live or not: the reaper decides
          }
        }
        for (Entry e : live.values()) {
          entries.add(e.toJson());
        }
        store(file, entries, read.others());
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

  private static void store(Path file, List<Object> entries, Map<String, @Nullable Object> others)
      throws IOException {
    if (entries.isEmpty() && others.isEmpty()) {
      Files.deleteIfExists(file);
      return;
    }
    Map<String, @Nullable Object> doc = new LinkedHashMap<>();
    doc.put("processes", entries);
    doc.putAll(others);
    AtomicFiles.writeUnsynced(file, JsonWriter.pretty(doc).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * How many server processes the registry in {@code recordsDir} lists: spawned by a pass that is
   * running, or left behind by one that was killed (the next run ends those it can prove are its
   * own). Zero without a file.
   */
  public static int recordedCount(Path recordsDir) {
    int n = 0;
    for (Stored e : read(fileIn(Objects.requireNonNull(recordsDir, "recordsDir"))).entries()) {
      if (e.wellFormed()) {
        n++;
      }
    }
    return n;
  }

  /**
   * The file's entries (every object in its {@code processes} list) and other top-level members;
   * nothing when the file is missing, cannot be read or is not such an object.
   */
  private static Contents read(Path file) {
    byte[] bytes;
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > 16L * 1024 * 1024) {
        return Contents.EMPTY;
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Contents.EMPTY;
    } catch (IOException e) {
      return Contents.EMPTY;
    }
    Object root;
    try {
      root = JsonReader.withDepthLimit(16).parse(bytes);
    } catch (Exception e) {
      return Contents.EMPTY;
    }
    if (!(root instanceof Map<?, ?> top) || !(top.get("processes") instanceof List<?> list)) {
      return Contents.EMPTY;
    }
    List<Stored> entries = new ArrayList<>();
    for (Object item : list) {
      if (item instanceof Map<?, ?> m) {
        entries.add(Stored.of(m));
      }
    }
    Map<String, @Nullable Object> others = new LinkedHashMap<>();
    for (Map.Entry<?, ?> member : top.entrySet()) {
      if (!"processes".equals(member.getKey())) {
        others.put(String.valueOf(member.getKey()), member.getValue());
      }
    }
    return new Contents(entries, others);
  }

  private static long number(@Nullable Object value) {
    return value instanceof Integer || value instanceof Long ? ((Number) value).longValue() : -1;
  }

  /**
   * Ends what kcshare runs that no longer run left behind on this records directory, and only what
   * it can prove is theirs. For each entry whose owner is gone: the recorded process when pid,
   * start time, user and the token in its environment all match (with its process group when it led
   * one, the group's members of the effective user), and every process of the effective user whose
   * environment carries the entry's token (a daemon that left the group) — SIGTERM, a short grace,
   * then SIGKILL for survivors. An entry that cannot be proven (a mismatch, an unreadable
   * environment, an entry without a token or user) ends nothing: one warning names them all, and
   * they leave the file. Entries of a live kcshare run are kept, as are top-level members kcshare
   * does not know. Nothing is read or ended when others may write the directory ({@link
   * RecordsTrust}). Never throws.
   *
   * @param recordsDir the records directory
   * @return how many processes were signalled
   */
  public static int reapOrphans(Path recordsDir) {
    return reapOrphans(recordsDir, OwnProcesses.system());
  }

  static int reapOrphans(Path recordsDir, @Nullable OwnProcesses own) {
    Path file = fileIn(Objects.requireNonNull(recordsDir, "recordsDir"));
    if (own == null || !Files.exists(file)) {
      return 0;
    }
    try {
      // An entry others could forge is never acted on; what follows uses the checked real path.
      file = fileIn(RecordsTrust.requireWritable(recordsDir));
      FileLock lock = FileLock.tryAcquire(file, LOCK_WAIT);
      if (lock == null) {
        return 0;
      }
      try (lock) {
        Contents read = read(file);
        List<Object> kept = new ArrayList<>();
        Map<Long, ProcFs.Stat> targets = new LinkedHashMap<>();
        // token -> the start time of the kcshare that made it: no older process can carry it
        Map<String, Long> tokens = new LinkedHashMap<>();
        Set<String> liveTokens = new HashSet<>();
        List<String> problems = new ArrayList<>();
        for (Stored e : read.entries()) {
          if (e.wellFormed() && e.provable() && runs(own.proc(), e.ownerPid(), e.ownerStart())) {
            liveTokens.add(Objects.requireNonNull(e.token()));
          }
        }
        for (Stored e : read.entries()) {
          String subject = e.pid() > 0 ? "pid " + e.pid() : "an entry";
          if (!e.wellFormed()) {
            problems.add(subject + ": malformed");
            continue;
          }
          if (!e.provable()) {
            problems.add(subject + ": no pass token or user recorded");
            continue;
          }
          String t = Objects.requireNonNull(e.token());
          if (runs(own.proc(), e.ownerPid(), e.ownerStart())) {
            kept.add(e.raw());
            continue;
          }
          if (liveTokens.contains(t)) {
            problems.add(subject + ": its pass token is a running kcshare's");
            continue; // a live pass's processes are never ended
          }
          tokens.merge(t, e.ownerStart(), Math::min);
          OwnProcesses.Check check = own.check(e.pid(), e.startTime(), e.uid(), t);
          switch (check.finding()) {
            case OURS -> {
              targets.put(e.pid(), Objects.requireNonNull(check.stat()));
              if (e.group()) {
                for (ProcFs.Stat member : own.groupMembers(e.pid())) {
                  targets.putIfAbsent(member.pid(), member);
                }
              }
            }
            case GONE -> {
              // nothing to end; its token is still swept
            }
            case NOT_OURS -> problems.add(subject + ": " + check.reason());
          }
        }
        int signalled = own.end(targets.values(), tokens);
        if (signalled > 0) {
          log()
              .info(
                  "ended {} server process(es) left behind by an earlier kcshare run on {}",
                  signalled,
                  Escaper.quoted(recordsDir.toString(), Escaper.LONG_LIMIT));
        }
        if (!problems.isEmpty()) {
          log().warn(unprovable(file, problems));
        }
        store(file, kept, read.others());
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

  /** The one warning about entries kcshare cannot prove are its own. */
  static String unprovable(Path file, List<String> problems) {
    StringBuilder named = new StringBuilder();
    for (int i = 0; i < Math.min(problems.size(), NAMED_PROBLEMS); i++) {
      named.append(i == 0 ? "" : "; ").append(problems.get(i));
    }
    if (problems.size() > NAMED_PROBLEMS) {
      named.append("; …");
    }
    int n = problems.size();
    return "ignoring "
        + n
        + (n == 1 ? " entry" : " entries")
        + " of "
        + Escaper.quoted(file.toString(), Escaper.LONG_LIMIT)
        + " that kcshare cannot prove are its own processes ("
        + named
        + "); nothing was signalled for "
        + (n == 1 ? "it" : "them")
        + " and the file no longer lists "
        + (n == 1 ? "it" : "them");
  }

  private static boolean runs(ProcFs proc, long pid, long startTime) {
    ProcFs.Stat s = proc.stat(pid);
    return s != null && s.isRunning() && s.startTime() == startTime;
  }
}
