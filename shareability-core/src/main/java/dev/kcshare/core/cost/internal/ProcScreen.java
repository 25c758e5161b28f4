package dev.kcshare.core.cost.internal;

/**
 * Which {@code /proc} entries are worth reading further, decided from what is already known about
 * them, so that a look for a pass's own processes opens only the files of processes that can be its
 * own (docs/performance.md#safety-that-costs-no-time). Every rule here is a condition that a
 * process must meet anyway to be proven a pass's own; a process that fails one would fail the full
 * proof too, so skipping it changes no answer, only what is read to reach it.
 *
 * <p>Pure: the caller reads {@code /proc}, this class only decides.
 */
public final class ProcScreen {
  /** A directory owner that could not be read, or a tree whose owners mean nothing. */
  public static final long UNKNOWN_OWNER = -1;

  private ProcScreen() {}

  /**
   * Whether process {@code pid}, whose {@code /proc/PID} directory belongs to {@code dirOwner}, may
   * run as {@code uid}, so that its {@code stat}, {@code status} and {@code environ} are worth
   * opening. The kernel gives a process's directory its effective user, or root for a process that
   * is not dumpable (whose environment only root could read in any case); pid 1 and below and
   * kcshare itself ({@code self}) are never candidates.
   *
   * @param dirOwner the owner of {@code /proc/PID}, or {@link #UNKNOWN_OWNER} to decide on the
   *     files alone
   */
  public static boolean mayRunAs(long pid, long self, long dirOwner, long uid) {
    if (pid <= 1 || pid == self) {
      return false;
    }
    return dirOwner == UNKNOWN_OWNER || dirOwner == uid;
  }

  /**
   * Whether a process that started at {@code startTime} (clock ticks since boot) may carry the
   * token of a pass whose kcshare started at {@code passStart}: the token did not exist before, and
   * a process gets its environment when it starts, from a parent that carries it (every descendant
   * of a pass's servers started after the pass). {@code passStart} below 0 means unknown: every
   * process may.
   */
  public static boolean mayCarry(long startTime, long passStart) {
    return passStart < 0 || startTime >= passStart;
  }

  /**
   * Whether a process read as a child of {@code parent} (from the kernel's {@code children} list of
   * one of its threads) is that parent's child: its {@code stat} names {@code parent} as its parent
   * and it started no earlier than the parent did. A pid that was reused between the two reads
   * fails one of them.
   */
  public static boolean isChild(long parent, long parentStart, long childParent, long childStart) {
    return childParent == parent && childStart >= parentStart;
  }

  /**
   * The lowest pid a member of the process group {@code leader} leads can have, so that a sweep of
   * the group reads the {@code stat} of no lower pid; 0 when every pid must be read.
   *
   * <p>The leader started its own session, so every other member is a task it or its descendants
   * created later, and the kernel hands out pids in increasing order until its cursor reaches
   * {@code pidMax} and starts again from the bottom. The cursor moves past each pid it hands out
   * and each pid in use it skips; a pid in use belongs to a task that existed at the spawn or was
   * created since. So while the leader's pid, plus twice the tasks created since the spawn, plus
   * the tasks that existed then, stays below {@code pidMax}, the cursor has not wrapped and every
   * member's pid is above the leader's. Any count that cannot be read, or that went backwards,
   * means every pid is read.
   *
   * @param leader the group's leader (its pid is the group id)
   * @param forksAtSpawn tasks created since boot, read before the leader was spawned, or -1
   * @param tasksAtSpawn tasks that existed then, or -1
   * @param forksNow tasks created since boot, read now, or -1
   * @param pidMax the kernel's {@code pid_max}, or -1
   */
  public static long lowestMemberPid(
      long leader, long forksAtSpawn, long tasksAtSpawn, long forksNow, long pidMax) {
    if (leader <= 0 || forksAtSpawn < 0 || tasksAtSpawn < 0 || forksNow < forksAtSpawn) {
      return 0;
    }
    long created = forksNow - forksAtSpawn;
    long room = pidMax - leader;
    return room > 0 && created < room && tasksAtSpawn < room - 2 * created ? leader : 0;
  }
}
