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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pass's process registry (docs/design.md#process-registry): what is recorded while a pass
 * runs, and what the next run ends — only processes of kcshare runs that no longer run, only with
 * their recorded start time (a recycled pid is never signalled), their whole group when they led
 * one.
 */
final class SpawnRegistryTest {
  @TempDir Path dir;
  private Process group;

  @BeforeEach
  void needsProcAndSetsid() {
    Assumptions.assumeTrue(ProcFs.available(), "no /proc");
    Assumptions.assumeTrue(ServerProcess.SETSID != null, "no setsid");
  }

  @AfterEach
  void cleanUp() {
    if (group != null) {
      for (ProcFs.Stat s : ProcFs.group(group.pid())) {
        ProcessHandle.of(s.pid()).ifPresent(ProcessHandle::destroyForcibly);
      }
      group.destroyForcibly();
    }
  }

  /** {@code setsid sh -c 'sleep 300 & exec sleep 300'}: a group leader and a second member. */
  private Process startGroup() throws Exception {
    group =
        new ProcessBuilder(ServerProcess.SETSID, "/bin/sh", "-c", "sleep 300 & exec sleep 300")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (ProcFs.group(group.pid()).size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(ProcFs.group(group.pid())).hasSize(2);
    return group;
  }

  private Path file() {
    return dir.resolve(SpawnRegistry.FILE_NAME);
  }

  private void writeEntry(long pid, long start, boolean ownGroup, long owner, long ownerStart)
      throws Exception {
    Files.writeString(
        file(),
        "{\"processes\": [{\"pid\": "
            + pid
            + ", \"startTime\": "
            + start
            + ", \"group\": "
            + ownGroup
            + ", \"ownerPid\": "
            + owner
            + ", \"ownerStartTime\": "
            + ownerStart
            + ", \"owner\": \"t\"}]}",
        StandardCharsets.UTF_8);
  }

  private static long self() {
    return ProcessHandle.current().pid();
  }

  private static long selfStart() {
    return ProcFs.startTime(self()).orElseThrow();
  }

  @Test
  void aPassRecordsItsProcessesWhileTheyRunAndLeavesNothingBehind() throws Exception {
    Process p = startGroup();
    try (SpawnRegistry registry = SpawnRegistry.open(dir)) {
      registry.spawned(p.toHandle(), true);
      String text = Files.readString(file());
      assertThat(text)
          .contains("\"pid\": " + p.pid())
          .contains("\"startTime\": " + ProcFs.startTime(p.pid()).orElseThrow())
          .contains("\"group\": true")
          .contains("\"ownerPid\": " + self());
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file())))
          .isEqualTo("rw-------");
      registry.ended(p.toHandle());
    }
    assertThat(file()).doesNotExist();
  }

  @Test
  void anOrphanedGroupIsEndedWhole() throws Exception {
    Process p = startGroup();
    long start = ProcFs.startTime(p.pid()).orElseThrow();
    // Its owner: this JVM's pid with another start time, i.e. a kcshare run that is gone.
    writeEntry(p.pid(), start, true, self(), selfStart() + 1);
    assertThat(SpawnRegistry.reapOrphans(dir)).isEqualTo(2);
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ProcFs.group(p.pid()).stream().noneMatch(ProcFs.Stat::isRunning)
        && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(ProcFs.group(p.pid())).noneMatch(ProcFs.Stat::isRunning);
    assertThat(file()).doesNotExist();
  }

  @Test
  void aLiveOwnersProcessesAndARecycledPidAreLeftAlone() throws Exception {
    Process p = startGroup();
    long start = ProcFs.startTime(p.pid()).orElseThrow();
    // A live pass owns it (this JVM, its real start time): kept, entry and all.
    writeEntry(p.pid(), start, true, self(), selfStart());
    assertThat(SpawnRegistry.reapOrphans(dir)).isZero();
    assertThat(p.isAlive()).isTrue();
    assertThat(file()).exists();
    // A dead owner, but the pid now belongs to another process (another start time): untouched.
    writeEntry(p.pid(), start - 1, true, self(), selfStart() + 1);
    assertThat(SpawnRegistry.reapOrphans(dir)).isZero();
    assertThat(p.isAlive()).isTrue();
    assertThat(ProcFs.group(p.pid())).hasSize(2);
    assertThat(file()).doesNotExist();
  }

  @Test
  void aMalformedRegistryIsIgnored() throws Exception {
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
