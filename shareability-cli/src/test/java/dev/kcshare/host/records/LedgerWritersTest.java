package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardRecord;
import dev.kcshare.core.records.LedgerLoad;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several ledger writers in separate JVMs on one file (docs/design.md#ledger-flush): every flush
 * merges, so no writer drops another's records and counts add up; a clear from another process
 * removes exactly what was observed before it, whatever a live writer still holds.
 */
final class LedgerWritersTest {
  private static final String UNROUTABLE = HazardCodes.UNROUTABLE_SERVER_REQUEST;
  private static final String UNATTRIBUTABLE = HazardCodes.UNATTRIBUTABLE_NOTIFICATION;

  @TempDir static Path jvmDir;
  private static ChildJvm jvm;

  @TempDir Path dir;
  private final List<Writer> started = new java.util.ArrayList<>();

  @BeforeAll
  static void prepare() throws Exception {
    jvm = ChildJvm.prepare(jvmDir, LedgerWriterChild.class, jvmDir.resolve("warm.json").toString());
  }

  @AfterEach
  void stopChildren() {
    for (Writer w : started) {
      w.process.destroyForcibly();
    }
  }

  /** One child writer and its command channel. */
  private final class Writer {
    final Process process;
    final PrintStream in;
    final BufferedReader out;

    Writer(Path file) throws IOException {
      process = jvm.start(LedgerWriterChild.class, dir.resolve("child.stderr"), file.toString());
      in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
      out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("ready");
      started.add(this);
    }

    String send(String command) throws IOException {
      in.println(command);
      String answer = out.readLine();
      assertThat(answer).as(command).isNotNull();
      return answer;
    }

    void at(double time) throws IOException {
      assertThat(send("time " + time)).isEqualTo("ok");
    }

    void record(String name, String code, String identity) throws IOException {
      send("record " + name + " " + code + " " + identity);
    }

    void flush() throws IOException {
      assertThat(send("flush")).as("flush").isEqualTo("true");
    }

    void exit() throws Exception {
      send("exit");
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static HazardRecord onDisk(Path file, String name, String identity) {
    LedgerLoad load = LedgerStore.read(file);
    assertThat(load.dropped()).isEmpty();
    var identities = load.servers().get(name);
    return identities == null ? null : identities.get(identity);
  }

  @Test
  void twoWriterProcessesKeepEachOthersRecordsAndTheirCountsAddUp() throws Exception {
    Path file = dir.resolve("records").resolve(RecordsDirectory.LEDGER_FILE);
    // Both start before anything is on disk (so neither loaded the other's records).
    Writer a = new Writer(file);
    Writer b = new Writer(file);
    a.at(100.0);
    for (int i = 0; i < 3; i++) {
      a.record("shared", UNROUTABLE, "id");
    }
    a.record("only-a", UNROUTABLE, "id");
    b.at(200.0);
    for (int i = 0; i < 4; i++) {
      b.record("shared", UNATTRIBUTABLE, "id");
    }
    b.record("only-b", UNATTRIBUTABLE, "");
    a.flush();
    b.flush();
    a.at(300.0);
    a.record("shared", UNROUTABLE, "id");
    a.flush();

    assertThat(LedgerStore.read(file).servers()).containsOnlyKeys("shared", "only-a", "only-b");
    assertThat(onDisk(file, "shared", "id"))
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE, UNATTRIBUTABLE), 8, 300.0));
    assertThat(onDisk(file, "only-b", "")).isNotNull();
    a.exit();
    b.exit();
  }

  @Test
  void aClearFromAnotherProcessIsAPointInTimeForALiveWriter() throws Exception {
    Path file = dir.resolve("records").resolve(RecordsDirectory.LEDGER_FILE);
    Writer live = new Writer(file);
    live.at(100.0);
    for (int i = 0; i < 3; i++) {
      live.record("s", UNROUTABLE, "id");
    }
    live.flush(); // on disk before the clear
    live.at(110.0);
    live.record("s", UNATTRIBUTABLE, "id"); // held in memory only when the clear comes
    assertThat(LedgerStore.clearInFile(file, "s", 120.0)).isTrue();
    live.at(130.0);
    live.record("s", UNROUTABLE, "id");
    live.record("s", UNROUTABLE, "id");
    live.flush();
    assertThat(onDisk(file, "s", "id"))
        .as("only the two observations after the clear")
        .isEqualTo(HazardRecord.of(List.of(UNROUTABLE), 2, 130.0));

    // A second writer that loaded "s" before the clear, and flushes after it, brings nothing back.
    Writer stale = new Writer(file);
    LedgerStore.clearInFile(file, "s", 140.0);
    stale.at(150.0);
    stale.record("t", UNROUTABLE, "id");
    stale.flush();
    live.at(160.0);
    live.record("u", UNROUTABLE, "id");
    live.flush();
    assertThat(LedgerStore.read(file).servers()).containsOnlyKeys("t", "u");
    live.exit();
    stale.exit();
  }

  @Test
  void anInProcessClearRemovesWhatAnotherProcessWrote() throws Exception {
    Path file = dir.resolve("records").resolve(RecordsDirectory.LEDGER_FILE);
    Writer other = new Writer(file);
    other.at(10.0);
    other.record("s", UNROUTABLE, "id");
    other.flush();
    Writer clearing = new Writer(file);
    clearing.at(20.0);
    clearing.send("clear s");
    assertThat(LedgerStore.read(file).servers()).doesNotContainKey("s");
    other.at(30.0);
    other.record("v", UNROUTABLE, "id");
    other.flush();
    assertThat(LedgerStore.read(file).servers()).containsOnlyKeys("v");
    other.exit();
    clearing.exit();
  }
}
