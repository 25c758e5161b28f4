package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.cost.SessionCost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sampler's walk and sums over a {@code /proc} tree built from captured file formats. */
final class FootprintTest {
  private static final long MS = 1_000_000;

  @TempDir Path proc;

  /** A process directory: stat, and (when given) smaps_rollup and status; one thread. */
  private Path process(long pid, long ppid, char state, long utime, long stime, long cutime)
      throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
    Files.writeString(
        dir.resolve("stat"),
        pid
            + " (node) "
            + state
            + " "
            + ppid
            + " 5398 10747 0 -1 4194304 11253 0 3 0 "
            + utime
            + " "
            + stime
            + " "
            + cutime
            + " 0 20 0 11 0 281571 1241149440 16892 18446744073709551615 1 1 0 0 0\n",
        StandardCharsets.US_ASCII);
    Files.createDirectories(dir.resolve("task").resolve(Long.toString(pid)));
    return dir;
  }

  private static void rollup(Path dir, long rssKib, long pssKib) throws IOException {
    Files.writeString(
        dir.resolve("smaps_rollup"),
        "55cb1a4d7000-7ffd6a3f2000 ---p 00000000 00:00 0   [rollup]\nRss:   "
            + rssKib
            + " kB\nPss:   "
            + pssKib
            + " kB\nPss_Anon:   1 kB\n");
  }

  private static void status(Path dir, long rssKib) throws IOException {
    Files.writeString(dir.resolve("status"), "Name:\tnode\nVmRSS:\t  " + rssKib + " kB\n");
  }

  private static void children(Path dir, long thread, String pids) throws IOException {
    Path task = Files.createDirectories(dir.resolve("task").resolve(Long.toString(thread)));
    Files.writeString(task.resolve("children"), pids);
  }

  @Test
  void aWrapperAndTheServerItForkedAreOneTree() throws IOException {
    Path sh = process(100, 1, 'S', 1, 1, 30);
    rollup(sh, 2_000, 500);
    children(sh, 100, "101 ");
    Path node = process(101, 100, 'S', 40, 10, 0);
    rollup(node, 110_000, 90_000);
    children(node, 101, "");
    children(node, 102, ""); // another thread of the server, no children
    Path stranger = process(200, 1, 'S', 999, 999, 0);
    rollup(stranger, 1, 1);
    children(stranger, 200, "");

    SessionCost cost = Footprint.at(proc, 100).sample(100, 0, 412 * MS);

    assertThat(cost.processes()).hasValue(2);
    assertThat(cost.rssBytes()).hasValue(112_000L * 1024);
    assertThat(cost.pssBytes()).hasValue(90_500L * 1024);
    // (1 + 1 + 30) + (40 + 10) ticks at 100 Hz
    assertThat(cost.cpuMillis()).hasValue(820);
    assertThat(cost.readyMillis()).hasValue(412);
  }

  @Test
  void aChildOfAnotherThreadIsFound() throws IOException {
    Path node = process(100, 1, 'S', 0, 0, 0);
    rollup(node, 1_000, 1_000);
    children(node, 100, "");
    children(node, 107, "300");
    Path child = process(300, 100, 'S', 0, 0, 0);
    rollup(child, 500, 400);
    children(child, 300, "");
    assertThat(Footprint.at(proc, 100).sample(100, 0, 0).processes()).hasValue(2);
  }

  @Test
  void withoutChildrenFilesTheParentPidsAreScanned() throws IOException {
    rollup(process(100, 1, 'S', 0, 0, 0), 1_000, 800);
    rollup(process(101, 100, 'S', 0, 0, 0), 2_000, 1_500);
    rollup(process(102, 101, 'S', 0, 0, 0), 3_000, 2_500);
    rollup(process(103, 1, 'S', 0, 0, 0), 9_000, 9_000);
    Files.createDirectories(proc.resolve("self"));
    Files.writeString(proc.resolve("uptime"), "1.0 1.0\n");
    SessionCost cost = Footprint.at(proc, 100).sample(100, 0, 0);
    assertThat(cost.processes()).hasValue(3);
    assertThat(cost.rssBytes()).hasValue(6_000L * 1024);
    assertThat(cost.pssBytes()).hasValue(4_800L * 1024);
  }

  @Test
  void aZombieAddsItsTimeButNoProcessAndNoMemory() throws IOException {
    Path sh = process(100, 1, 'S', 2, 0, 0);
    rollup(sh, 1_000, 600);
    children(sh, 100, "101");
    process(101, 100, 'Z', 20, 5, 0);
    SessionCost cost = Footprint.at(proc, 250).sample(100, 0, 0);
    assertThat(cost.processes()).hasValue(1);
    assertThat(cost.rssBytes()).hasValue(1_000L * 1024);
    assertThat(cost.cpuMillis()).hasValue(27 * 1000 / 250);
  }

  @Test
  void withoutSmapsRollupTheRssComesFromStatusAndThePssIsAbsent() throws IOException {
    Path sh = process(100, 1, 'S', 0, 0, 0);
    rollup(sh, 1_000, 600);
    children(sh, 100, "101");
    Path node = process(101, 100, 'S', 0, 0, 0);
    status(node, 50_000);
    children(node, 101, "");
    SessionCost cost = Footprint.at(proc, 100).sample(100, 0, 0);
    assertThat(cost.rssBytes()).hasValue(51_000L * 1024);
    assertThat(cost.pssBytes()).isEmpty();
    assertThat(cost.memoryBytes()).hasValue(51_000L * 1024);
  }

  @Test
  void anUnreadableMemoryFigureIsAbsentNotZero() throws IOException {
    Path sh = process(100, 1, 'S', 0, 0, 0);
    rollup(sh, 1_000, 600);
    children(sh, 100, "101");
    children(process(101, 100, 'S', 0, 0, 0), 101, ""); // neither smaps_rollup nor status
    SessionCost cost = Footprint.at(proc, 100).sample(100, 0, 0);
    assertThat(cost.processes()).hasValue(2);
    assertThat(cost.rssBytes()).isEmpty();
    assertThat(cost.pssBytes()).isEmpty();
  }

  @Test
  void aChildThatVanishedIsNotCounted() throws IOException {
    Path node = process(100, 1, 'S', 0, 0, 0);
    rollup(node, 1_000, 600);
    children(node, 100, "555");
    SessionCost cost = Footprint.at(proc, 100).sample(100, 0, 0);
    assertThat(cost.processes()).hasValue(1);
    assertThat(cost.rssBytes()).hasValue(1_000L * 1024);
  }

  @Test
  void aRootThatIsGoneGivesOnlyTheReadyTime() {
    SessionCost cost = Footprint.at(proc, 100).sample(4242, 5 * MS, 105 * MS);
    assertThat(cost.readyMillis()).hasValue(100);
    assertThat(cost.processes()).isEmpty();
    assertThat(cost.rssBytes()).isEmpty();
    assertThat(cost.cpuMillis()).isEmpty();
  }

  @Test
  void noAnswerTimeMeansNoReadyTime() throws IOException {
    rollup(process(100, 1, 'S', 0, 0, 0), 1, 1);
    assertThat(Footprint.at(proc, 100).sample(100, 5 * MS, 0).readyMillis()).isEmpty();
  }

  @Test
  void sampleOffMeasuresNothing() {
    assertThat(Footprint.off().sample(ProcessHandle.current().pid(), 0, MS))
        .isEqualTo(SessionCost.NONE);
  }

  @Test
  void theSwitchTurnsTheSystemSamplerOff() {
    String before = System.getProperty(Footprint.SWITCH);
    System.setProperty(Footprint.SWITCH, "off");
    try {
      assertThat(Footprint.system().sample(ProcessHandle.current().pid(), 0, MS))
          .isEqualTo(SessionCost.NONE);
    } finally {
      if (before == null) {
        System.clearProperty(Footprint.SWITCH);
      } else {
        System.setProperty(Footprint.SWITCH, before);
      }
    }
  }

  @Test
  void thisJvmOnThisHost() {
    SessionCost self = Footprint.system().sample(ProcessHandle.current().pid(), 0, MS);
    assertThat(self.readyMillis()).hasValue(1);
    if (Files.isReadable(Path.of("/proc/self/stat"))) {
      assertThat(self.processes().orElse(-1)).isPositive();
      assertThat(self.rssBytes().orElse(-1)).isGreaterThan(1L << 20);
      assertThat(self.cpuMillis().orElse(-1)).isPositive();
    } else {
      assertThat(self.rssBytes()).isEmpty();
    }
  }
}
