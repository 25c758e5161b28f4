package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.records.internal.FailedAttempts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AttemptStoreTest {
  private static final String ID = "c\u0000e\u0000fp\u00002";

  @TempDir Path dir;

  private Path file() {
    return new RecordsDirectory(dir.resolve("records"), RecordsDirectory.Rule.OPTION)
        .attemptsFile();
  }

  @Test
  void theFileLivesBesideTheCache() {
    RecordsDirectory records = new RecordsDirectory(dir, RecordsDirectory.Rule.OPTION);
    assertThat(records.attemptsFile()).isEqualTo(dir.resolve("kcshare-attempts.json"));
    assertThat(AttemptStore.besideCache(records.cacheFile())).isEqualTo(records.attemptsFile());
  }

  @Test
  void aFlushWritesA0600FileThatReadsBackAndAReadOfNothingIsEmpty() throws Exception {
    assertThat(AttemptStore.read(file()).servers()).isEmpty();
    FailedAttempts attempts = AttemptStore.load(file());
    assertThat(AttemptStore.flush(file(), attempts)).as("nothing changed").isFalse();
    assertThat(file()).doesNotExist();

    attempts.recordFailure("s", ID, 1_800_000_000.5, "timeout", "exit 0", "tail\\n");
    assertThat(AttemptStore.flush(file(), attempts)).isTrue();
    assertThat(attempts.isDirty()).isFalse();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file())))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file().getParent())))
        .isEqualTo("rwx------");
    assertThat(AttemptStore.read(file()).servers())
        .containsEntry(
            "s", new AttemptRecord(1_800_000_000.5, ID, "timeout", "exit 0", "tail\\n", 1));
    assertThat(Files.readString(file(), StandardCharsets.UTF_8)).startsWith("{\n  \"schema\": 1,");

    FailedAttempts again = AttemptStore.load(file());
    again.recordSuccess("s");
    assertThat(AttemptStore.flush(file(), again)).isTrue();
    assertThat(AttemptStore.read(file()).servers()).isEmpty();
  }

  @Test
  void aCorruptFileReadsAsNoAttemptsAndIsReplaced() throws Exception {
    Files.createDirectories(file().getParent());
    for (String text : new String[] {"{\"schema\": 1, \"servers\": {", "\u0000\u00ff", "[]", ""}) {
      Files.writeString(file(), text, StandardCharsets.ISO_8859_1);
      assertThat(AttemptStore.read(file()).servers()).as(text).isEmpty();
    }
    FailedAttempts attempts = AttemptStore.load(file());
    attempts.recordFailure("s", ID, 1, "timeout", null, "");
    assertThat(AttemptStore.flush(file(), attempts)).isTrue();
    assertThat(AttemptStore.read(file()).servers()).containsOnlyKeys("s");
  }

  @Test
  void aDirectoryInPlaceOfTheFileReadsAsNoAttempts() throws Exception {
    Files.createDirectories(file());
    assertThat(AttemptStore.read(file()).servers()).isEmpty();
  }

  @Test
  void aNewerKcsharesFileIsNeverReplaced() throws Exception {
    Files.createDirectories(file().getParent());
    String newer = "{\"schema\": 2, \"servers\": {\"s\": {\"whatever\": true}}}";
    Files.writeString(file(), newer);
    FailedAttempts attempts = AttemptStore.load(file());
    assertThat(attempts.all()).isEmpty();
    attempts.recordFailure("t", ID, 1, "timeout", null, "");
    assertThat(AttemptStore.flush(file(), attempts)).isFalse();
    assertThat(Files.readString(file())).isEqualTo(newer);
  }
}
