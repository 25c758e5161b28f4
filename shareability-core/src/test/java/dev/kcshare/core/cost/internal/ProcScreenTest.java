package dev.kcshare.core.cost.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The screens that decide which {@code /proc} entries a look for a pass's processes reads. */
final class ProcScreenTest {
  private static final long SELF = 900;
  private static final long UID = 1000;

  @ParameterizedTest(name = "pid {0} owned by {1}: {2}")
  @CsvSource({
    "4242, 1000, true",
    "4242, -1, true", // unknown owner: decided on the files
    "4242, 0, false", // another user's, or not dumpable
    "4242, 1001, false",
    "1, 1000, false", // init
    "0, 1000, false",
    "-5, -1, false",
    "900, 1000, false", // kcshare itself
    "900, -1, false"
  })
  void onlyTheUsersOwnOtherProcessesAreRead(long pid, long owner, boolean read) {
    assertThat(ProcScreen.mayRunAs(pid, SELF, owner, UID)).isEqualTo(read);
  }

  @Test
  void rootReadsRootsProcesses() {
    assertThat(ProcScreen.mayRunAs(4242, SELF, 0, 0)).isTrue();
    assertThat(ProcScreen.mayRunAs(4242, SELF, UID, 0)).isFalse();
  }

  @ParameterizedTest(name = "started {0}, pass started {1}: {2}")
  @CsvSource({
    "5000, 5000, true", // the same tick as the pass
    "5001, 5000, true",
    "4999, 5000, false", // older than the token
    "0, 5000, false",
    "0, -1, true", // unknown start of the pass: everything may carry it
    "4999, -1, true"
  })
  void onlyProcessesStartedSinceThePassMayCarryItsToken(long start, long passStart, boolean may) {
    assertThat(ProcScreen.mayCarry(start, passStart)).isEqualTo(may);
  }

  @ParameterizedTest(name = "parent {2}, started {3}: {4}")
  @CsvSource({
    "77, 5000, 77, 5000, true",
    "77, 5000, 77, 6000, true",
    "77, 5000, 78, 6000, false", // re-parented, or a reused pid
    "77, 5000, 1, 6000, false",
    "77, 5000, 77, 4999, false" // older than its parent: a reused pid
  })
  void aChildIsOneWhoseStatNamesTheParentAndStartedAfterIt(
      long parent, long parentStart, long childParent, long childStart, boolean child) {
    assertThat(ProcScreen.isChild(parent, parentStart, childParent, childStart)).isEqualTo(child);
  }

  /**
   * A group sweep reads only pids above the leader's while the pid counter cannot have wrapped: the
   * leader's pid plus twice the tasks created since the spawn plus the tasks that existed then
   * stays below pid_max. Anything unknown, or a count that went backwards, reads every pid.
   */
  @ParameterizedTest(name = "leader {0}, forks {1} -> {3}, tasks {2}, pid_max {4}: from {5}")
  @CsvSource({
    "5000, 100, 80, 110, 32768, 5000", // ten tasks created: far from wrapping
    "5000, 100, 80, 100, 32768, 5000", // none created
    "32000, 100, 80, 110, 32768, 32000", // 32000 + 20 + 80 < 32768
    "32000, 100, 700, 110, 32768, 32000", // 32000 + 20 + 700 = 32720: still below
    "32000, 100, 748, 110, 32768, 0", // 32000 + 20 + 748 = 32768: may have wrapped
    "32000, 100, 80, 445, 32768, 0", // 32000 + 690 + 80 = 32770: may have wrapped
    "5000, 100, 80, 30000, 32768, 0", // 29,900 tasks created: may have wrapped
    "5000, 100, 80, 110, 4194304, 5000",
    "5000, -1, 80, 110, 32768, 0", // forks unknown at the spawn
    "5000, 100, -1, 110, 32768, 0", // tasks unknown
    "5000, 100, 80, -1, 32768, 0", // forks unknown now
    "5000, 100, 80, 99, 32768, 0", // the count went backwards
    "5000, 100, 80, 110, -1, 0", // pid_max unknown
    "5000, 100, 80, 110, 5000, 0", // the leader is at pid_max
    "0, 100, 80, 110, 32768, 0"
  })
  void aGroupSweepStartsAtTheLeaderOnlyWhileThePidCounterCannotHaveWrapped(
      long leader, long forksAtSpawn, long tasks, long forksNow, long pidMax, long lowest) {
    assertThat(ProcScreen.lowestMemberPid(leader, forksAtSpawn, tasks, forksNow, pidMax))
        .isEqualTo(lowest);
  }
}
