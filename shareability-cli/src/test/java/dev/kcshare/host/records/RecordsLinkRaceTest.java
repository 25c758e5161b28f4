package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.internal.FailedAttempts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records directory is checked once, where its links lead, and every later operation uses that
 * real directory (docs/security.md#the-whole-path): a link along {@code --records-dir} that its
 * owner retargets after the check, while the file is being written, changes nothing. Each case
 * swaps the link from inside the write ({@link AtomicFiles#simulateFault}) or between the check and
 * the write, and the file lands in the checked directory, with nothing in the other.
 */
final class RecordsLinkRaceTest {
  @TempDir Path tmp;
  private Path checked;
  private Path elsewhere;
  private Path link;

  @BeforeEach
  void directories() throws IOException {
    checked = Files.createDirectory(tmp.resolve("checked"));
    elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    for (Path d : List.of(checked, elsewhere)) {
      Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));
    }
    link = Files.createSymbolicLink(tmp.resolve("rec"), checked);
  }

  @AfterEach
  void noFault() {
    AtomicFiles.simulateFault(null);
  }

  private void retarget() throws IOException {
    Files.delete(link);
    Files.createSymbolicLink(link, elsewhere);
  }

  /** Swaps the link once, in the middle of the next write (after its temporary file is written). */
  private void retargetDuringTheWrite() {
    AtomicFiles.simulateFault(
        (target, temporary) -> {
          AtomicFiles.simulateFault(null);
          retarget();
        });
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aLedgerFlushWritesWhereTheCheckLed() throws Exception {
    LedgerStore store =
        new LedgerStore(link.resolve(RecordsDirectory.LEDGER_FILE), () -> 1_700_000_000.0);
    store.record("srv", HazardCodes.UNROUTABLE_SERVER_REQUEST, "cmd\u0000env\u0000fp");
    retargetDuringTheWrite();

    assertThat(store.flushReporting()).isNull();

    assertThat(names(checked)).contains(RecordsDirectory.LEDGER_FILE);
    assertThat(names(elsewhere)).isEmpty();
  }

  @Test
  void aClearWritesWhereTheCheckLed() throws Exception {
    retargetDuringTheWrite();

    LedgerStore.clearInFile(link.resolve(RecordsDirectory.LEDGER_FILE), "srv", 1_700_000_000.0);

    assertThat(names(checked)).contains(RecordsDirectory.LEDGER_FILE);
    assertThat(names(elsewhere)).isEmpty();
  }

  @Test
  void aCacheSessionWritesWhereItWasOpenedAfterTheLinkMoves() throws Exception {
    try (CacheStore.Session session =
        CacheStore.open(link.resolve(RecordsDirectory.CACHE_FILE), null)) {
      session.cache().put("kcshare", CacheWriterChild.row("kcshare"));
      retarget();
      assertThat(session.flush()).isTrue();
    }

    assertThat(names(checked))
        .contains(RecordsDirectory.CACHE_FILE, RecordsDirectory.CACHE_FILE + ".lock");
    assertThat(names(elsewhere)).isEmpty();
  }

  @Test
  void failedAttemptsAreWrittenWhereTheCheckLed() throws Exception {
    FailedAttempts attempts = AttemptStore.load(link.resolve(RecordsDirectory.ATTEMPTS_FILE));
    attempts.recordFailure(
        "srv", "c\u0000e\u0000fp\u00002", 1_800_000_000.5, "timeout", "exit 0", "");
    retargetDuringTheWrite();

    assertThat(AttemptStore.flush(link.resolve(RecordsDirectory.ATTEMPTS_FILE), attempts)).isTrue();

    assertThat(names(checked)).contains(RecordsDirectory.ATTEMPTS_FILE);
    assertThat(names(elsewhere)).isEmpty();
  }

  @Test
  void theCheckedDirectoryIsTheRealOne() throws Exception {
    assertThat(RecordsTrust.requireWritable(link)).isEqualTo(checked.toRealPath());
    assertThat(RecordsTrust.requireWritableFile(link.resolve("x.json")))
        .isEqualTo(checked.toRealPath().resolve("x.json"));
  }
}
