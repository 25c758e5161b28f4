package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pass's process registry (docs/design.md#process-registry): what is recorded while a pass
 * runs, and what the next run ends — only processes of kcshare runs that no longer run, and only
 * those it can prove are its own (pid, start time, user and the pass token in their environment),
 * their whole group when they led one, and whatever else carries the pass's token. The decisions
 * are checked over a fake {@code /proc} with an ender that signals nothing; the recording and the
 * signalling against real processes.
 */
final class SpawnRegistryTest {
  private static final long UID = 1000;
  private static final long SELF = 900;
  private static final long DEAD_OWNER = 77;
  private static final String TOKEN = "0123456789abcdef0123456789abcdef";

  @TempDir Path dir;
  @TempDir Path procRoot;
  private final FakeProc.RecordingEnder ender = new FakeProc.RecordingEnder();
  private Process group;

  @AfterEach
  void cleanUp() {
    if (group != null) {
      for (ProcFs.Stat s : ProcFs.system().group(group.pid())) {
        ProcessHandle.of(s.pid()).ifPresent(ProcessHandle::destroyForcibly);
      }
      group.destroyForcibly();
    }
  }

  private Path file() {
    return dir.resolve(SpawnRegistry.FILE_NAME);
  }

  private void writeRegistry(String... entries) throws Exception {
    Files.writeString(
        file(), "{\"processes\": [" + String.join(", ", entries) + "]}", StandardCharsets.UTF_8);
  }

  private static String entry(
      long pid, long start, boolean ownGroup, long owner, long ownerStart, String more) {
    return "{\"pid\": "
        + pid
        + ", \"startTime\": "
        + start
        + ", \"group\": "
        + ownGroup
        + ", \"ownerPid\": "
        + owner
        + ", \"ownerStartTime\": "
        + ownerStart
        + (more.isEmpty() ? "" : ", " + more)
        + "}";
  }

  private static String proof(long uid, String token) {
    return "\"uid\": " + uid + ", \"token\": \"" + token + "\"";
  }

  // ---------------------------------------------------------------- decisions, fake /proc

  @Test
  void entriesThatCannotBeProvenEndNothingAndLeaveTheFile() throws Exception {
    FakeProc proc = new FakeProc(procRoot);
    // An unrelated process of the same user, leading its own group, with no pass token.
    long victim = proc.process(500).start(4000).write();
    writeRegistry(
        entry(victim, 4000, true, DEAD_OWNER, 1, "\"owner\": \"x\""), // the old form
        entry(victim, 4000, true, DEAD_OWNER, 1, proof(UID, TOKEN)), // a token it lacks
        entry(victim, 4000, true, DEAD_OWNER, 1, proof(0, TOKEN)), // another user's
        entry(victim, 3999, true, DEAD_OWNER, 1, proof(UID, TOKEN)), // another start time
        entry(victim, 4000, true, DEAD_OWNER, 1, "\"uid\": 1000, \"token\": \"short\""),
        "{\"startTime\": 4000, \"ownerPid\": 77}"); // malformed
    assertThat(SpawnRegistry.reapOrphans(dir, proc.own(UID, SELF, ender))).isZero();
    assertThat(ender.calls).isEmpty();
    assertThat(file()).doesNotExist();
  }

  @Test
  void anEntryWhoseEnvironmentCannotBeReadEndsNothing() throws Exception {
    FakeProc proc = new FakeProc(procRoot);
    long p = proc.process(510).start(4000).token(TOKEN).environUnreadable().write();
    writeRegistry(entry(p, 4000, false, DEAD_OWNER, 1, proof(UID, TOKEN)));
    assertThat(SpawnRegistry.reapOrphans(dir, proc.own(UID, SELF, ender))).isZero();
    assertThat(ender.calls).isEmpty();
    assertThat(file()).doesNotExist();
  }

  @Test
  void aProvenOrphanIsEndedWithItsGroupAndEveryCarrierOfItsToken() throws Exception {
    FakeProc proc = new FakeProc(procRoot);
    long leader = proc.process(600).start(4000).token(TOKEN).write();
    proc.process(601).group(600).token(TOKEN).write(); // a child in the group
    proc.process(602).group(600).write(); // a child that cleared its environment: in the group
    proc.process(603).group(600).uids(0, 0).write(); // another user's, in the group: never
    proc.process(610).token(TOKEN).write(); // a daemon in a session of its own
    proc.process(620).write(); // unrelated
    writeRegistry(entry(leader, 4000, true, DEAD_OWNER, 1, proof(UID, TOKEN)));
    assertThat(SpawnRegistry.reapOrphans(dir, proc.own(UID, SELF, ender))).isEqualTo(4);
    assertThat(ender.ended()).containsExactly(600L, 601L, 602L, 610L);
    assertThat(file()).doesNotExist();
  }

  @Test
  void aServerThatIsGoneStillHasItsTokenSwept() throws Exception {
    FakeProc proc = new FakeProc(procRoot);
    proc.process(710).token(TOKEN).write(); // its daemon
    writeRegistry(entry(700, 4000, true, DEAD_OWNER, 1, proof(UID, TOKEN)));
    assertThat(SpawnRegistry.reapOrphans(dir, proc.own(UID, SELF, ender))).isEqualTo(1);
    assertThat(ender.ended()).containsExactly(710L);
    assertThat(file()).doesNotExist();
  }

  @Test
  void aLivePassIsLeftAloneAndItsTokenIsNeverSwept() throws Exception {
    FakeProc proc = new FakeProc(procRoot);
    long owner = proc.process(800).start(3000).write();
    long server = proc.process(801).start(4000).token(TOKEN).write();
    proc.process(810).token(TOKEN).write();
    writeRegistry(
        entry(server, 4000, true, owner, 3000, proof(UID, TOKEN) + ", \"note\": {\"a\": [1]}"),
        // A second entry claiming the same token for an owner that is gone.
        entry(server, 4000, true, DEAD_OWNER, 1, proof(UID, TOKEN)));
    assertThat(SpawnRegistry.reapOrphans(dir, proc.own(UID, SELF, ender))).isZero();
    assertThat(ender.calls).isEmpty();
    String text = Files.readString(file());
    assertThat(text).contains("\"ownerPid\": 800").doesNotContain("\"ownerPid\": 77");
    assertThat(text).contains("\"note\": {").contains("\"a\": [");
  }

  @Test
  void topLevelMembersKcshareDoesNotKnowSurvive() throws Exception {
    FakeProc proc = new FakeProc(procRoot);
    Files.writeString(
        file(),
        "{\"future\": {\"x\": 1}, \"processes\": ["
            + entry(900 + 1, 4000, true, DEAD_OWNER, 1, "\"owner\": \"x\"")
            + "]}",
        StandardCharsets.UTF_8);
    SpawnRegistry.reapOrphans(dir, proc.own(UID, SELF, ender));
    String text = Files.readString(file());
    assertThat(text).contains("\"future\": {").contains("\"processes\": []");
  }

  @Test
  void theWarningNamesTheFileAndEachEntryOnce() {
    Path f = Path.of("/r/kcshare-processes.json");
    assertThat(SpawnRegistry.unprovable(f, List.of("pid 4: its start time differs")))
        .isEqualTo(
            "ignoring 1 entry of \"/r/kcshare-processes.json\" that kcshare cannot prove are its"
                + " own processes (pid 4: its start time differs); nothing was signalled for it"
                + " and the file no longer lists it");
    assertThat(SpawnRegistry.unprovable(f, List.of("a", "b", "c", "d", "e", "f")))
        .startsWith("ignoring 6 entries of")
        .contains("(a; b; c; d; e; …)")
        .endsWith("for them and the file no longer lists them");
  }

  @Test
  void closingAPassSweepsWhatStillCarriesItsToken() {
    FakeProc proc = new FakeProc(procRoot);
    OwnProcesses own = proc.own(UID, SELF, ender);
    SpawnRegistry unused = SpawnRegistry.open(dir, own);
    unused.close();
    assertThat(ender.calls).as("a pass that spawned nothing sweeps nothing").isEmpty();

    SpawnRegistry registry = SpawnRegistry.open(dir, own);
    String token = registry.passToken();
    assertThat(token).matches("[0-9a-f]{32}").isNotEqualTo(unused.passToken());
    proc.process(1010).token(token).write();
    proc.process(1011).token(TOKEN).write(); // another pass's
    registry.close();
    assertThat(ender.ended()).containsExactly(1010L);
  }

  // ---------------------------------------------------------------- real processes

  private static void assumeProcAndSetsid() {
    Assumptions.assumeTrue(ProcFs.system().available(), "no /proc");
    Assumptions.assumeTrue(ServerProcess.SETSID != null, "no setsid");
  }

  private static long self() {
    return ProcessHandle.current().pid();
  }

  private static long selfStart() {
    return ProcFs.system().startTime(self()).orElseThrow();
  }

  private static long euid() {
    return ProcFs.system().uids(self()).effective();
  }

  /**
   * {@code setsid sh -c 'sleep 300 & exec sleep 300'} carrying {@code token}: a group leader and a
   * second member.
   */
  private Process startGroup(String token) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(ServerProcess.SETSID, "/bin/sh", "-c", "sleep 300 & exec sleep 300")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put(PassToken.VARIABLE, token);
    group = pb.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (ProcFs.system().group(group.pid()).size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(ProcFs.system().group(group.pid())).hasSize(2);
    return group;
  }

  private void awaitGroupGone(long pgid) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ProcFs.system().group(pgid).stream().noneMatch(ProcFs.Stat::isRunning)
        && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(ProcFs.system().group(pgid)).noneMatch(ProcFs.Stat::isRunning);
  }

  @Test
  void aPassRecordsItsProcessesWhileTheyRunAndLeavesNothingBehind() throws Exception {
    assumeProcAndSetsid();
    // Another pass's entry and a member of a newer kcshare: both kept as they are.
    Files.writeString(
        file(),
        "{\"processes\": ["
            + entry(12345, 1, true, self(), selfStart(), proof(euid(), TOKEN) + ", \"x\": 1")
            + "], \"future\": true}",
        StandardCharsets.UTF_8);
    try (SpawnRegistry registry = SpawnRegistry.open(dir)) {
      Process p = startGroup(registry.passToken());
      registry.spawned(p.toHandle(), true);
      String text = Files.readString(file());
      assertThat(text)
          .contains("\"pid\": " + p.pid())
          .contains("\"startTime\": " + ProcFs.system().startTime(p.pid()).orElseThrow())
          .contains("\"uid\": " + euid())
          .contains("\"token\": \"" + registry.passToken() + "\"")
          .contains("\"group\": true")
          .contains("\"ownerPid\": " + self())
          .contains("\"pid\": 12345")
          .contains("\"x\": 1")
          .contains("\"future\": true");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file())))
          .isEqualTo("rw-------");
      registry.ended(p.toHandle());
    }
    awaitGroupGone(group.pid()); // closing the pass swept what carried its token
    String text = Files.readString(file());
    assertThat(text).contains("\"pid\": 12345").doesNotContain("\"pid\": " + group.pid());
  }

  @Test
  void anOrphanedGroupThatCarriesItsTokenIsEndedWhole() throws Exception {
    assumeProcAndSetsid();
    Process p = startGroup(TOKEN);
    long start = ProcFs.system().startTime(p.pid()).orElseThrow();
    // Its owner: this JVM's pid with another start time, i.e. a kcshare run that is gone.
    writeRegistry(entry(p.pid(), start, true, self(), selfStart() + 1, proof(euid(), TOKEN)));
    assertThat(SpawnRegistry.reapOrphans(dir)).isEqualTo(2);
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    awaitGroupGone(p.pid());
    assertThat(file()).doesNotExist();
  }

  @Test
  void aLiveOwnersProcessesAndAnUnprovenEntryAreLeftAlone() throws Exception {
    assumeProcAndSetsid();
    Process p = startGroup(TOKEN);
    long start = ProcFs.system().startTime(p.pid()).orElseThrow();
    // A live pass owns it (this JVM, its real start time): kept, entry and all.
    writeRegistry(entry(p.pid(), start, true, self(), selfStart(), proof(euid(), TOKEN)));
    assertThat(SpawnRegistry.reapOrphans(dir)).isZero();
    assertThat(p.isAlive()).isTrue();
    assertThat(file()).exists();
    // A dead owner, the right pid and start time, but the old form with no token: untouched.
    writeRegistry(entry(p.pid(), start, true, self(), selfStart() + 1, "\"owner\": \"t\""));
    assertThat(SpawnRegistry.reapOrphans(dir)).isZero();
    assertThat(p.isAlive()).isTrue();
    assertThat(ProcFs.system().group(p.pid())).hasSize(2);
    assertThat(file()).doesNotExist();
  }

  @Test
  void aMalformedRegistryIsIgnored() throws Exception {
    Assumptions.assumeTrue(ProcFs.system().available(), "no /proc");
    for (String content :
        List.of(
            "not json",
            "[]",
            "{\"processes\": 3}",
            "{\"processes\": [{\"pid\": 1, \"startTime\": 0, \"ownerPid\": 2,"
                + " \"ownerStartTime\": 0, \"owner\": \"t\"}, \"x\", {\"pid\": \"9\"}]}")) {
      Files.writeString(file(), content, StandardCharsets.UTF_8);
      assertThat(SpawnRegistry.reapOrphans(dir)).as(content).isZero();
    }
  }
}
