package dev.kcshare.host.prober;

import dev.kcshare.core.cost.internal.ProcScreen;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which processes kcshare can prove are its own (docs/design.md#process-registry), and how they are
 * ended. A process is a pass's own when it runs as kcshare's effective user (real and effective
 * user id) and its environment holds the pass's token ({@link PassToken}); a recorded server, in
 * addition, has the recorded pid and start time. Nothing else is ever signalled: not pid 1 or
 * below, not kcshare itself, not a process of another user, not a process whose environment cannot
 * be read.
 */
final class OwnProcesses {
  /** How many times a sweep looks again for carriers of a token that appeared meanwhile. */
  static final int SWEEP_ROUNDS = 3;

  /**
   * Loaded with this class, not on the first environment read, so that every pass loads the same
   * classes (the start-up archive holds them) whether or not its host had a process to read.
   */
  private static final ProcFs.Presence PRESENT = ProcFs.Presence.PRESENT;

  private final ProcFs proc;
  private final long uid;
  private final long self;
  private final Ender ender;

  /** Ends processes: SIGTERM, a grace, SIGKILL for survivors (replaced in tests). */
  interface Ender {
    /**
     * Ends {@code targets} (each still the process of that pid and start time); returns how many
     * were signalled.
     */
    int end(Collection<ProcFs.Stat> targets);
  }

  OwnProcesses(ProcFs proc, long uid, long self, Ender ender) {
    this.proc = proc;
    this.uid = uid;
    this.self = self;
    this.ender = ender;
  }

  /**
   * This host's processes, or null where kcshare cannot prove anything (no {@code /proc}, or its
   * own status cannot be read): then nothing is ever ended.
   */
  static @Nullable OwnProcesses system() {
    ProcFs proc = ProcFs.system();
    long self = ProcessHandle.current().pid();
    ProcFs.Uids mine = proc.available() ? proc.uids(self) : null;
    return mine == null ? null : new OwnProcesses(proc, mine.effective(), self, new Signals(proc));
  }

  /** The effective user id of kcshare. */
  long uid() {
    return uid;
  }

  ProcFs proc() {
    return proc;
  }

  /** What {@link #check} found. */
  enum Finding {
    /** The recorded process, provably a pass's own. */
    OURS,
    /** No such process runs (or a zombie): nothing to end, nothing to warn about. */
    GONE,
    /** A process runs under that pid, but kcshare cannot prove it is the recorded one. */
    NOT_OURS
  }

  /**
   * What a check found.
   *
   * @param finding the finding
   * @param stat the process, when {@link Finding#OURS}
   * @param reason why it is not provably ours, when {@link Finding#NOT_OURS}
   */
  record Check(Finding finding, ProcFs.@Nullable Stat stat, @Nullable String reason) {
    static Check notOurs(String reason) {
      return new Check(Finding.NOT_OURS, null, reason);
    }
  }

  /**
   * Whether {@code pid} runs and is provably the process recorded with {@code startTime}, {@code
   * recordedUid} and {@code token}: all four must match the live process.
   */
  Check check(long pid, long startTime, long recordedUid, String token) {
    if (pid <= 1 || pid == self) {
      return Check.notOurs("it is not a server process");
    }
    ProcFs.Stat s = proc.stat(pid);
    if (s == null || !s.isRunning()) {
      return new Check(Finding.GONE, null, null);
    }
    if (s.startTime() != startTime) {
      return Check.notOurs("its start time differs");
    }
    if (recordedUid != uid) {
      return Check.notOurs("it was recorded for another user");
    }
    ProcFs.Uids u = proc.uids(pid);
    if (u == null) {
      return Check.notOurs("its status cannot be read");
    }
    if (u.real() != uid || u.effective() != uid) {
      return Check.notOurs("it runs as another user");
    }
    return switch (proc.environHas(pid, PassToken.entry(token))) {
      case PRESENT -> new Check(Finding.OURS, s, null);
      case ABSENT -> Check.notOurs("it does not carry the pass's token");
      case UNREADABLE -> Check.notOurs("its environment cannot be read");
    };
  }

  /** Whether {@code pid} runs as kcshare's effective user (real and effective). */
  private boolean runsAsUs(long pid) {
    ProcFs.Uids u = proc.uids(pid);
    return u != null && u.real() == uid && u.effective() == uid;
  }

  /** The running members of process group {@code group} that run as kcshare's effective user. */
  List<ProcFs.Stat> groupMembers(long group) {
    List<ProcFs.Stat> out = new ArrayList<>();
    for (ProcFs.Stat member : proc.group(group)) {
      if (member.pid() > 1
          && member.pid() != self
          && member.isRunning()
          && runsAsUs(member.pid())) {
        out.add(member);
      }
    }
    return out;
  }

  /**
   * Every running process of kcshare's effective user whose environment holds the token of one of
   * {@code tokens} (one pass over {@code /proc}).
   */
  List<ProcFs.Stat> carrying(Set<String> tokens) {
    return carrying(unbounded(tokens), new HashMap<>());
  }

  /**
   * Every running process of kcshare's effective user whose environment holds one of the tokens
   * (one pass over {@code /proc}), each token mapped to the start time of the kcshare whose pass
   * made it (clock ticks since boot; below 0 when unknown). Only what can match is read ({@link
   * ProcScreen}): a process whose {@code /proc/PID} belongs to another user is not opened at all;
   * one that started before every token's pass has only its {@code stat} read; {@code status} and
   * {@code environ} only for the rest. {@code judged} holds the processes (pid to start time)
   * already read and found to carry none of the tokens, and gains those found now: a later round of
   * the same sweep reads their {@code stat} again, but not their environment.
   */
  List<ProcFs.Stat> carrying(Map<String, Long> tokens, Map<Long, Long> judged) {
    List<ProcFs.Stat> out = new ArrayList<>();
    if (tokens.isEmpty()) {
      return out;
    }
    long earliest = Long.MAX_VALUE;
    for (long passStart : tokens.values()) {
      earliest = Math.min(earliest, passStart);
    }
    for (long pid : proc.pids()) {
      if (!ProcScreen.mayRunAs(pid, self, proc.owner(pid), uid)) {
        continue;
      }
      ProcFs.Stat s = proc.stat(pid);
      if (s == null
          || !s.isRunning()
          || !ProcScreen.mayCarry(s.startTime(), earliest)
          || Long.valueOf(s.startTime()).equals(judged.get(pid))
          || !runsAsUs(pid)) {
        continue;
      }
      boolean carries = false;
      for (Map.Entry<String, Long> token : tokens.entrySet()) {
        if (ProcScreen.mayCarry(s.startTime(), token.getValue())
            && proc.environHas(pid, PassToken.entry(token.getKey())) == PRESENT) {
          carries = true;
          break;
        }
      }
      if (carries) {
        out.add(s);
      } else {
        judged.put(pid, s.startTime());
      }
    }
    return out;
  }

  /** Every token with an unknown pass start: nothing is skipped for its age. */
  private static Map<String, Long> unbounded(Set<String> tokens) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String token : tokens) {
      out.put(token, -1L);
    }
    return out;
  }

  /**
   * Ends {@code targets} and every process carrying one of {@code tokens}, looking again (at most
   * {@value #SWEEP_ROUNDS} rounds in all) for carriers that appeared meanwhile (a daemon forking
   * while it is ended). Returns how many processes were signalled.
   */
  int end(Collection<ProcFs.Stat> targets, Set<String> tokens) {
    return end(targets, unbounded(tokens));
  }

  /**
   * {@link #end(Collection, Set)} with each token mapped to the start time of the kcshare whose
   * pass made it (below 0 when unknown), so that older processes are not read ({@link
   * #carrying(Map, Map)}); a process read and found without a token in one round is not read again
   * in the next.
   */
  int end(Collection<ProcFs.Stat> targets, Map<String, Long> tokens) {
    Map<Long, Long> ended = new LinkedHashMap<>(); // pid -> start time
    Map<Long, Long> judged = new HashMap<>(); // pid -> start time, read and carrying no token
    Map<Long, ProcFs.Stat> round = new LinkedHashMap<>();
    for (ProcFs.Stat t : targets) {
      round.putIfAbsent(t.pid(), t);
    }
    int signalled = 0;
    for (int i = 0; i < SWEEP_ROUNDS; i++) {
      for (ProcFs.Stat carrier : carrying(tokens, judged)) {
        round.putIfAbsent(carrier.pid(), carrier);
      }
      round
          .values()
          .removeIf(s -> ended.containsKey(s.pid()) && ended.get(s.pid()) == s.startTime());
      if (round.isEmpty()) {
        break;
      }
      signalled += ender.end(List.copyOf(round.values()));
      for (ProcFs.Stat s : round.values()) {
        ended.put(s.pid(), s.startTime());
      }
      round.clear();
    }
    return signalled;
  }

  /** The real ender: SIGTERM, half a second, SIGKILL, up to 2 s for them to go. */
  private static final class Signals implements Ender {
    private static final Duration TERM_GRACE = Duration.ofMillis(500);
    private static final Duration KILL_SETTLE = Duration.ofSeconds(2);

    private final ProcFs proc;

    Signals(ProcFs proc) {
      this.proc = proc;
    }

    @Override
    public int end(Collection<ProcFs.Stat> targets) {
      List<ProcessHandle> handles = new ArrayList<>();
      for (ProcFs.Stat t : targets) {
        if (t.pid() <= 1) {
          continue;
        }
        Optional<ProcessHandle> h = ProcessHandle.of(t.pid());
        // The handle carries the start time it saw; it is the checked process only if that
        // process still runs under the pid now.
        ProcFs.Stat now = proc.stat(t.pid());
        if (h.isPresent() && now != null && now.startTime() == t.startTime()) {
          handles.add(h.get());
        }
      }
      boolean interrupted = false;
      for (ProcessHandle h : handles) {
        h.destroy();
      }
      interrupted |= awaitGone(handles, TERM_GRACE);
      for (ProcessHandle h : handles) {
        if (ProcessTree.isRunning(h)) {
          h.destroyForcibly();
        }
      }
      interrupted |= awaitGone(handles, KILL_SETTLE);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return handles.size();
    }

    /** Waits up to {@code grace} until none runs; true when interrupted meanwhile (deferred). */
    private static boolean awaitGone(List<ProcessHandle> handles, Duration grace) {
      boolean interrupted = false;
      long deadline = System.nanoTime() + grace.toNanos();
      while (System.nanoTime() < deadline && handles.stream().anyMatch(ProcessTree::isRunning)) {
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      return interrupted;
    }
  }
}
