package dev.kcshare.core.cost.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code /proc} parsers, on text captured from a Linux 6.x host ({@code proc(5)}). */
final class ProcTextTest {
  /** {@code /proc/PID/stat} of a node process, captured. */
  static final String NODE_STAT =
      "5411 (node) S 5398 5398 10747 0 -1 4194304 11253 0 3 0 41 9 0 0 20 0 11 0 281571"
          + " 1241149440 16892 18446744073709551615 1 1 0 0 0 0 0 4096 134234626 0 0 0 17 0 0 0"
          + " 0 0 0 0 0 0 0 0 0 0\n";

  /** A shell that has waited for a child: cutime/cstime carry the child's time. */
  static final String SH_STAT =
      "5398 (sh) S 5390 5398 10747 0 -1 4194304 120 310 0 0 0 1 37 6 20 0 1 0 281560 2580480"
          + " 223 18446744073709551615 1 1 0 0 0 0 0 0 65538 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0"
          + " 0\n";

  @Test
  void statFieldsAreCountedAfterTheCommandName() {
    ProcText.Stat s = ProcText.parseStat(NODE_STAT);
    assertThat(s).isNotNull();
    assertThat(s.state()).isEqualTo('S');
    assertThat(s.ppid()).isEqualTo(5398);
    assertThat(s.utime()).isEqualTo(41);
    assertThat(s.stime()).isEqualTo(9);
    assertThat(s.cutime()).isZero();
    assertThat(s.startTime()).isEqualTo(281571);
    assertThat(s.cpuTicks()).isEqualTo(50);
    assertThat(s.isGone()).isFalse();
  }

  @Test
  void waitedForChildrenCountInTheParentsTime() {
    ProcText.Stat s = ProcText.parseStat(SH_STAT);
    assertThat(s).isNotNull();
    assertThat(s.cutime()).isEqualTo(37);
    assertThat(s.cstime()).isEqualTo(6);
    assertThat(s.cpuTicks()).isEqualTo(0 + 1 + 37 + 6);
  }

  @Test
  void aCommandNameWithSpacesAndParenthesesDoesNotShiftTheFields() {
    String weird = NODE_STAT.replace("(node)", "(my (odd) name) )");
    ProcText.Stat s = ProcText.parseStat(weird);
    assertThat(s).isNotNull();
    assertThat(s.ppid()).isEqualTo(5398);
    assertThat(s.utime()).isEqualTo(41);
  }

  @Test
  void aZombieIsGone() {
    ProcText.Stat s = ProcText.parseStat(NODE_STAT.replace("(node) S", "(node) Z"));
    assertThat(s).isNotNull();
    assertThat(s.isGone()).isTrue();
  }

  @Test
  void aNegativeChildTimeCountsAsNothing() {
    ProcText.Stat s = ProcText.parseStat(SH_STAT.replace(" 37 6 20", " -3 6 20"));
    assertThat(s).isNotNull();
    assertThat(s.cutime()).isZero();
  }

  static Stream<String> notStat() {
    return Stream.of(
        "",
        "5411 node S 5398",
        "5411 (node)",
        "5411 (node) S 5398 5398 10747",
        "5411 (node) SS 5398 5398 10747 0 -1 4194304 11253 0 3 0 41 9 0 0 20 0 11 0 281571 1",
        NODE_STAT.replace(" 41 9 ", " x 9 "),
        NODE_STAT.replace(" 5398 5398 ", " -1 5398 "));
  }

  @ParameterizedTest
  @MethodSource("notStat")
  void malformedStatIsUnknown(String text) {
    assertThat(ProcText.parseStat(text)).isNull();
  }

  /** {@code /proc/PID/smaps_rollup}, captured (Linux 6.18). */
  static final String ROLLUP =
      "55cb1a4d7000-7ffd6a3f2000 ---p 00000000 00:00 0                          [rollup]\n"
          + "Rss:               47336 kB\n"
          + "Pss:               31520 kB\n"
          + "Pss_Dirty:         24912 kB\n"
          + "Pss_Anon:          24900 kB\n"
          + "Pss_File:           6620 kB\n"
          + "Pss_Shmem:             0 kB\n"
          + "Shared_Clean:      17360 kB\n"
          + "Private_Dirty:     24912 kB\n"
          + "SwapPss:               0 kB\n";

  /** Part of {@code /proc/PID/status}, captured. */
  static final String STATUS =
      "Name:\tnode\nUmask:\t0022\nState:\tS (sleeping)\nVmPeak:\t 1241152 kB\n"
          + "VmHWM:\t   47612 kB\nVmRSS:\t   47336 kB\nRssAnon:\t   24900 kB\nThreads:\t11\n";

  @Test
  void kibFieldsOfRollupAndStatus() {
    assertThat(ProcText.kibField(ROLLUP, "Rss")).hasValue(47336);
    assertThat(ProcText.kibField(ROLLUP, "Pss")).hasValue(31520);
    assertThat(ProcText.kibField(ROLLUP, "Pss_Anon")).hasValue(24900);
    assertThat(ProcText.kibField(STATUS, "VmRSS")).hasValue(47336);
    assertThat(ProcText.kibField(STATUS, "VmSwap")).isEmpty();
    // A prefix of another field's name is not that field.
    assertThat(ProcText.kibField("Pss_Anon:  5 kB\n", "Pss")).isEmpty();
    assertThat(ProcText.kibField("Pss:  five kB\n", "Pss")).isEmpty();
    assertThat(ProcText.kibField("Pss:  5 MB\n", "Pss")).isEmpty();
    assertThat(ProcText.kibField("Pss:  5 kB", "Pss")).hasValue(5);
    assertThat(ProcText.kibField("", "Pss")).isEmpty();
  }

  @Test
  void userIdsOfTheUidLine() {
    String status = "Name:\tnode\nPPid:\t1\nUid:\t1000\t0\t1001\t1002\nGid:\t7\t7\t7\t7\n";
    assertThat(ProcText.uid(status, 0)).hasValue(1000);
    assertThat(ProcText.uid(status, 1)).hasValue(0);
    assertThat(ProcText.uid(status, 2)).hasValue(1001);
    assertThat(ProcText.uid(status, 3)).hasValue(1002);
    assertThat(ProcText.uid("Uid:  5  6  7  8", 1)).as("first line, no newline").hasValue(6);
    assertThat(ProcText.uid(status, 4)).isEmpty();
    assertThat(ProcText.uid(status, -1)).isEmpty();
    assertThat(ProcText.uid(STATUS, 0)).as("no Uid line").isEmpty();
    assertThat(ProcText.uid("NoUid:\t1\t2\t3\t4\n", 0)).as("another field's name").isEmpty();
    assertThat(ProcText.uid("Uid:\t1\t2\t3\n", 0)).as("three ids").isEmpty();
    assertThat(ProcText.uid("Uid:\t1\tx\t3\t4\n", 1)).as("not a number").isEmpty();
    assertThat(ProcText.uid("Uid:\t-1\t2\t3\t4\n", 0)).as("negative").isEmpty();
  }

  @Test
  void childrenLists() {
    assertThat(ProcText.parseChildren("5411 5412 \n")).containsExactly(5411L, 5412L);
    assertThat(ProcText.parseChildren("")).isEmpty();
    assertThat(ProcText.parseChildren(" x 7 -3 0 ")).containsExactly(7L);
  }

  @Test
  void pidNames() {
    assertThat(ProcText.isPid("5411")).isTrue();
    assertThat(ProcText.isPid("self")).isFalse();
    assertThat(ProcText.isPid("0")).isFalse();
    assertThat(ProcText.isPid("01")).isFalse();
    assertThat(ProcText.isPid("")).isFalse();
  }

  /** The head of {@code /proc/self/auxv} on x86-64, captured: AT_CLKTCK (17) = 100. */
  private static byte[] auxv(ByteOrder order, int word, long... pairs) {
    ByteBuffer b = ByteBuffer.allocate(pairs.length * word).order(order);
    for (long v : pairs) {
      if (word == 8) {
        b.putLong(v);
      } else {
        b.putInt((int) v);
      }
    }
    return b.array();
  }

  @Test
  void clockTicksFromTheAuxiliaryVector() {
    long[] captured = {
      0x21,
      0x7f5e3fe73000L,
      0x33,
      0x6f0,
      0x10,
      0x178bfbff,
      0x6,
      0x1000,
      0x11,
      0x64,
      0x3,
      0x5587260fc040L,
      0,
      0
    };
    assertThat(ProcText.clockTicks(auxv(ByteOrder.LITTLE_ENDIAN, 8, captured), true, 8))
        .isEqualTo(100);
    long[] other = {0x6, 0x1000, 0x11, 250, 0, 0};
    assertThat(ProcText.clockTicks(auxv(ByteOrder.BIG_ENDIAN, 8, other), false, 8)).isEqualTo(250);
    assertThat(ProcText.clockTicks(auxv(ByteOrder.LITTLE_ENDIAN, 4, other), true, 4))
        .isEqualTo(250);
  }

  @Test
  void clockTicksDefaultWhenTheVectorDoesNotSay() {
    assertThat(ProcText.clockTicks(new byte[0], true, 8)).isEqualTo(100);
    // Ends (type 0) before AT_CLKTCK.
    assertThat(
            ProcText.clockTicks(auxv(ByteOrder.LITTLE_ENDIAN, 8, 6, 4096, 0, 0, 17, 250), true, 8))
        .isEqualTo(100);
    assertThat(ProcText.clockTicks(auxv(ByteOrder.LITTLE_ENDIAN, 8, 17, 0, 0, 0), true, 8))
        .isEqualTo(100);
    assertThat(ProcText.clockTicks(new byte[7], true, 8)).isEqualTo(100);
    assertThat(ProcText.clockTicks(new byte[16], true, 3)).isEqualTo(100);
  }

  @Test
  void ticksToMillis() {
    assertThat(ProcText.ticksToMillis(43, 100)).isEqualTo(430);
    assertThat(ProcText.ticksToMillis(1, 250)).isEqualTo(4);
    assertThat(ProcText.ticksToMillis(0, 100)).isZero();
    assertThat(ProcText.ticksToMillis(Long.MAX_VALUE / 10, 100)).isPositive();
  }

  @Test
  void forksFromProcStat() {
    String stat =
        "cpu  10 0 5 100 0 0 0 0 0 0\ncpu0 10 0 5 100 0 0 0 0 0 0\nintr 123 4 5\nctxt 999\n"
            + "btime 1700000000\nprocesses 482913\nprocs_running 2\nprocs_blocked 0\n";
    assertThat(ProcText.forks(stat)).hasValue(482913);
    assertThat(ProcText.forks("processes 7")).hasValue(7);
    assertThat(ProcText.forks("cpu 1 2 3\nprocs_running 2\n")).isEmpty();
    assertThat(ProcText.forks("processes x\n")).isEmpty();
    assertThat(ProcText.forks("processes 1 2\n")).isEmpty();
    assertThat(ProcText.forks("")).isEmpty();
  }

  @Test
  void tasksFromLoadavg() {
    assertThat(ProcText.tasks("0.20 0.18 0.12 1/80 11206\n")).hasValue(80);
    assertThat(ProcText.tasks("0.20 0.18 0.12 3/1543 99\n")).hasValue(1543);
    assertThat(ProcText.tasks("0.20 0.18 0.12 80 11206\n")).isEmpty();
    assertThat(ProcText.tasks("0.20 0.18 0.12 1/80\n")).isEmpty();
    assertThat(ProcText.tasks("0.20 0.18 0.12 1/x 11206\n")).isEmpty();
    assertThat(ProcText.tasks("")).isEmpty();
  }
}
