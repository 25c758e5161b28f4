package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What kcshare proves before it ends a process (docs/design.md#process-registry), over a fake
 * {@code /proc}: pid, start time, user (real and effective) and the pass token in the environment
 * must all match; anything else is not ours, and nothing is signalled.
 */
final class OwnProcessesTest {
  private static final long UID = 1000;
  private static final long SELF = 900;
  private static final long PID = 4242;
  private static final String TOKEN = "0123456789abcdef0123456789abcdef";
  private static final String OTHER = "fedcba9876543210fedcba9876543210";

  @TempDir Path root;

  private FakeProc proc() {
    return new FakeProc(root);
  }

  /** The recorded process as it should be, changed by {@code change}; the check's finding. */
  private OwnProcesses.Check check(
      UnaryOperator<FakeProc.FakeProcess> change, long recordedStart, long recordedUid) {
    FakeProc proc = proc();
    change.apply(proc.process(PID).start(5000).token(TOKEN)).write();
    return proc.own(UID, SELF, new FakeProc.RecordingEnder())
        .check(PID, recordedStart, recordedUid, TOKEN);
  }

  @Test
  void theRecordedProcessWithEverythingMatchingIsOurs() {
    OwnProcesses.Check c = check(p -> p, 5000, UID);
    assertThat(c.finding()).isEqualTo(OwnProcesses.Finding.OURS);
    assertThat(c.stat().pid()).isEqualTo(PID);
  }

  static Stream<Arguments> notOurs() {
    return Stream.of(
        Arguments.of(
            "start time",
            (UnaryOperator<FakeProc.FakeProcess>) p -> p.start(5001),
            UID,
            "its start time differs"),
        Arguments.of(
            "recorded user",
            (UnaryOperator<FakeProc.FakeProcess>) p -> p,
            0L,
            "it was recorded for another user"),
        Arguments.of(
            "real user",
            (UnaryOperator<FakeProc.FakeProcess>) p -> p.uids(0, UID),
            UID,
            "it runs as another user"),
        Arguments.of(
            "effective user",
            (UnaryOperator<FakeProc.FakeProcess>) p -> p.uids(UID, 0),
            UID,
            "it runs as another user"),
        Arguments.of(
            "status unreadable",
            (UnaryOperator<FakeProc.FakeProcess>) FakeProc.FakeProcess::statusUnreadable,
            UID,
            "its status cannot be read"),
        Arguments.of(
            "environ unreadable",
            (UnaryOperator<FakeProc.FakeProcess>) FakeProc.FakeProcess::environUnreadable,
            UID,
            "its environment cannot be read"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void notOurs(
      String what, UnaryOperator<FakeProc.FakeProcess> change, long recordedUid, String reason) {
    OwnProcesses.Check c = check(change, 5000, recordedUid);
    assertThat(c.finding()).isEqualTo(OwnProcesses.Finding.NOT_OURS);
    assertThat(c.reason()).isEqualTo(reason);
  }

  /** Environments that do not hold exactly {@code KCSHARE_PASS_TOKEN=<token>} as one entry. */
  static Stream<List<String>> environmentsWithoutTheToken() {
    return Stream.of(
        List.of(),
        List.of("PATH=/bin"),
        List.of(PassToken.entry(OTHER)),
        List.of(PassToken.entry(TOKEN) + "0"),
        List.of("X" + PassToken.entry(TOKEN)),
        List.of("KCSHARE_PASS_TOKEN= " + TOKEN),
        List.of("KCSHARE_PASS_TOKEN=" + TOKEN.toUpperCase(java.util.Locale.ROOT)),
        List.of("A=1" + "\n" + PassToken.entry(TOKEN)));
  }

  @ParameterizedTest
  @MethodSource
  void environmentsWithoutTheToken(List<String> environ) {
    FakeProc proc = proc();
    FakeProc.FakeProcess p = proc.process(PID).start(5000);
    environ.forEach(p::env);
    p.write();
    OwnProcesses.Check c =
        proc.own(UID, SELF, new FakeProc.RecordingEnder()).check(PID, 5000, UID, TOKEN);
    assertThat(c.finding()).isEqualTo(OwnProcesses.Finding.NOT_OURS);
    assertThat(c.reason()).isEqualTo("it does not carry the pass's token");
  }

  @Test
  void theTokenAnywhereInTheEnvironmentCounts() {
    FakeProc proc = proc();
    proc.process(PID).start(5000).env("A=").token(TOKEN).env("Z=1").write();
    assertThat(
            proc.own(UID, SELF, new FakeProc.RecordingEnder())
                .check(PID, 5000, UID, TOKEN)
                .finding())
        .isEqualTo(OwnProcesses.Finding.OURS);
  }

  @Test
  void aProcessThatIsGoneOrAZombieIsGone() {
    FakeProc proc = proc();
    proc.process(PID).start(5000).token(TOKEN).state('Z').write();
    OwnProcesses own = proc.own(UID, SELF, new FakeProc.RecordingEnder());
    assertThat(own.check(PID, 5000, UID, TOKEN).finding()).isEqualTo(OwnProcesses.Finding.GONE);
    assertThat(own.check(PID + 1, 5000, UID, TOKEN).finding()).isEqualTo(OwnProcesses.Finding.GONE);
  }

  @Test
  void initAndKcshareItselfAreNeverOurs() {
    FakeProc proc = proc();
    proc.process(1).token(TOKEN).write();
    proc.process(SELF).token(TOKEN).write();
    OwnProcesses own = proc.own(UID, SELF, new FakeProc.RecordingEnder());
    for (long pid : List.of(0L, 1L, SELF)) {
      FakeProc.FakeProcess p = proc.process(pid);
      assertThat(own.check(pid, p.startTime(), UID, TOKEN).finding())
          .as("pid %d", pid)
          .isEqualTo(OwnProcesses.Finding.NOT_OURS);
    }
  }

  @Test
  void theSweepFindsOnlyTheUsersRunningProcessesCarryingTheToken() {
    FakeProc proc = proc();
    proc.process(101).token(TOKEN).write(); // a daemon: found
    proc.process(102).token(TOKEN).group(55).write(); // another group: found
    proc.process(103).token(OTHER).write(); // another pass
    proc.process(104).write(); // no token
    proc.process(105).token(TOKEN).uids(0, 0).write(); // another user
    proc.process(106).token(TOKEN).uids(UID, 0).write(); // setuid
    proc.process(107).token(TOKEN).state('Z').write(); // a zombie
    proc.process(108).token(TOKEN).environUnreadable().write();
    proc.process(109).token(TOKEN).statusUnreadable().write();
    proc.process(1).token(TOKEN).write(); // init
    proc.process(SELF).token(TOKEN).write(); // kcshare itself
    OwnProcesses own = proc.own(UID, SELF, new FakeProc.RecordingEnder());
    assertThat(own.carrying(Set.of(TOKEN)))
        .extracting(ProcFs.Stat::pid)
        .containsExactlyInAnyOrder(101L, 102L);
    assertThat(own.carrying(Set.of(TOKEN, OTHER)))
        .extracting(ProcFs.Stat::pid)
        .containsExactlyInAnyOrder(101L, 102L, 103L);
    assertThat(own.carrying(Set.of())).isEmpty();
  }

  @Test
  void endingSignalsTargetsAndCarriersOnceAndStopsWhenNothingNewAppears() {
    FakeProc proc = proc();
    long target = proc.process(201).token(TOKEN).write();
    proc.process(202).token(TOKEN).write();
    proc.process(203).write();
    FakeProc.RecordingEnder ender = new FakeProc.RecordingEnder();
    OwnProcesses own = proc.own(UID, SELF, ender);
    ProcFs.Stat stat = proc.procFs().stat(target);
    // The fake tree never changes: the second round finds nothing new and the sweep stops.
    assertThat(own.end(List.of(stat), Set.of(TOKEN))).isEqualTo(2);
    assertThat(ender.calls).containsExactly(List.of(201L, 202L));
  }

  @Test
  void nothingToEndSignalsNothing() {
    FakeProc proc = proc();
    proc.process(301).token(OTHER).write();
    FakeProc.RecordingEnder ender = new FakeProc.RecordingEnder();
    assertThat(proc.own(UID, SELF, ender).end(List.of(), Set.of(TOKEN))).isZero();
    assertThat(ender.calls).isEmpty();
  }

  @Test
  void aProcessWhoseDirectoryBelongsToAnotherUserIsNotReadAtAll() {
    FakeProc proc = proc();
    proc.process(101).token(TOKEN).write(); // ours by its files, another user's by its directory
    proc.process(102).token(TOKEN).write();
    proc.process(103).token(TOKEN).write(); // its directory's owner cannot be read: gone
    Map<Long, Long> owners = Map.of(101L, 0L, 102L, UID, 103L, ProcFs.NO_OWNER);
    OwnProcesses own =
        new OwnProcesses(
            ProcFs.at(root, pid -> owners.getOrDefault(pid, UID)),
            UID,
            SELF,
            new FakeProc.RecordingEnder());
    assertThat(own.carrying(Set.of(TOKEN))).extracting(ProcFs.Stat::pid).containsExactly(102L);
  }

  @Test
  void processesOlderThanThePassAreNotSearchedForItsToken() {
    FakeProc proc = proc();
    proc.process(101).start(4999).token(TOKEN).write(); // older than the pass: cannot carry it
    proc.process(102).start(5000).token(TOKEN).write(); // started in the pass's tick
    proc.process(103).start(7000).token(TOKEN).write();
    proc.process(104).start(6000).token(OTHER).write(); // an older pass's token
    proc.process(105).start(2000).token(OTHER).write(); // older than that pass too
    OwnProcesses own = proc.own(UID, SELF, new FakeProc.RecordingEnder());
    assertThat(own.carrying(Map.of(TOKEN, 5000L), new HashMap<>()))
        .extracting(ProcFs.Stat::pid)
        .containsExactlyInAnyOrder(102L, 103L);
    assertThat(own.carrying(Map.of(TOKEN, 5000L, OTHER, 3000L), new HashMap<>()))
        .extracting(ProcFs.Stat::pid)
        .containsExactlyInAnyOrder(102L, 103L, 104L);
    // An unknown pass start bounds nothing.
    assertThat(own.carrying(Map.of(TOKEN, -1L), new HashMap<>()))
        .extracting(ProcFs.Stat::pid)
        .containsExactlyInAnyOrder(101L, 102L, 103L);
  }

  @Test
  void aProcessJudgedInOneRoundIsNotReadAgainUnlessItsPidIsAnotherProcessNow() {
    FakeProc proc = proc();
    proc.process(101).start(6000).write(); // no token
    OwnProcesses own = proc.own(UID, SELF, new FakeProc.RecordingEnder());
    Map<Long, Long> judged = new HashMap<>();
    assertThat(own.carrying(Map.of(TOKEN, 5000L), judged)).isEmpty();
    assertThat(judged).containsExactly(Map.entry(101L, 6000L));
    // The same process gains the token in its environment: it is not read again.
    proc.process(101).start(6000).token(TOKEN).write();
    assertThat(own.carrying(Map.of(TOKEN, 5000L), judged)).isEmpty();
    // Another process under the same pid (another start time) is read.
    proc.process(101).start(6001).token(TOKEN).write();
    assertThat(own.carrying(Map.of(TOKEN, 5000L), judged))
        .extracting(ProcFs.Stat::pid)
        .containsExactly(101L);
  }

  @Test
  void endingWithPassStartsEndsOnlyCarriersStartedSinceThePass() {
    FakeProc proc = proc();
    proc.process(201).start(4000).token(TOKEN).write();
    proc.process(202).start(6000).token(TOKEN).write();
    FakeProc.RecordingEnder ender = new FakeProc.RecordingEnder();
    assertThat(proc.own(UID, SELF, ender).end(List.of(), Map.of(TOKEN, 5000L))).isEqualTo(1);
    assertThat(ender.calls).containsExactly(List.of(202L));
  }
}
