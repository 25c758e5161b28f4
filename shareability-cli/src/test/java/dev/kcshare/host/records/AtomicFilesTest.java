package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AtomicFilesTest {
  @TempDir Path dir;

  @Test
  void createsMissingDirectoriesWithMode0700AndTheFileWith0600() throws Exception {
    Path target = dir.resolve("a/b/c/records.json");
    AtomicFiles.write(target, "{}\n".getBytes(StandardCharsets.UTF_8));
    assertThat(target).hasContent("{}");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
        .isEqualTo("rw-------");
    for (Path p : new Path[] {dir.resolve("a"), dir.resolve("a/b"), dir.resolve("a/b/c")}) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
          .as(p.toString())
          .isEqualTo("rwx------");
    }
  }

  @Test
  void existingDirectoriesAreNotReModed() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    AtomicFiles.write(dir.resolve("f.json"), new byte[] {1});
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwxr-xr-x");
  }

  @Test
  void replacingAWiderFileLeavesIt0600AndLeavesNoTemporaryFiles() throws Exception {
    Path target = dir.resolve("f.json");
    Files.writeString(target, "old");
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
    AtomicFiles.write(target, "new".getBytes(StandardCharsets.UTF_8));
    assertThat(target).hasContent("new");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
        .isEqualTo("rw-------");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("f.json");
    }
  }

  @Test
  void theModeVariantGivesExactlyThatModeWhateverTheUmask() throws Exception {
    Path target = dir.resolve("config.json");
    Files.writeString(target, "old");
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-r--"));
    AtomicFiles.write(target, "new".getBytes(StandardCharsets.UTF_8), AtomicFiles.modeOf(target));
    assertThat(target).hasContent("new");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
        .isEqualTo("rw-rw-r--");
    AtomicFiles.write(target, "newer".getBytes(StandardCharsets.UTF_8), null);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
        .as("null keeps the record-file mode")
        .isEqualTo("rw-------");
    assertThat(AtomicFiles.modeOf(dir.resolve("missing"))).isNull();
  }

  @Test
  void failureLeavesTheOldFileAndNoTemporaryFile() throws Exception {
    Path target = dir.resolve("f.json");
    Files.writeString(target, "old");
    Files.createDirectory(dir.resolve("blocker"));
    Files.writeString(dir.resolve("blocker/x"), "x");
    // Renaming a file over a non-empty directory fails.
    assertThatThrownBy(() -> AtomicFiles.write(dir.resolve("blocker"), new byte[] {1}))
        .isInstanceOf(java.io.IOException.class);
    assertThat(target).hasContent("old");
    try (var files = Files.list(dir)) {
      assertThat(files.filter(p -> p.toString().endsWith(".tmp"))).isEmpty();
    }
  }

  @Test
  void aSuccessfulWriteRemovesOlderLeftoversOfKilledWritersOnly() throws Exception {
    Path target = dir.resolve("f.json");
    FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
    FileTime future = FileTime.from(Instant.now().plusSeconds(3600));
    Path stale1 = Files.writeString(dir.resolve(".f.json.123.tmp"), "partial");
    Path stale2 = Files.writeString(dir.resolve(".f.json.18446744073709551615.tmp"), "");
    // A temporary file newer than the writer's own is some other writer's, still in flight.
    Path newer = Files.writeString(dir.resolve(".f.json.77.tmp"), "in flight");
    Path otherTarget = Files.writeString(dir.resolve(".g.json.123.tmp"), "x");
    Path notOurs = Files.writeString(dir.resolve(".f.json.abc.tmp"), "x");
    Path lock = Files.writeString(dir.resolve("f.json.lock"), "");
    Path staleDir = Files.createDirectory(dir.resolve(".f.json.456.tmp"));
    for (Path p : new Path[] {stale1, stale2, otherTarget, notOurs, lock, staleDir}) {
      Files.setLastModifiedTime(p, old);
    }
    Files.setLastModifiedTime(newer, future);

    AtomicFiles.write(target, "new".getBytes(StandardCharsets.UTF_8));

    assertThat(target).hasContent("new");
    assertThat(stale1).doesNotExist();
    assertThat(stale2).doesNotExist();
    assertThat(newer).hasContent("in flight");
    assertThat(otherTarget).exists();
    assertThat(notOurs).exists();
    assertThat(lock).exists();
    assertThat(staleDir).isDirectory();
  }

  @Test
  void temporaryNamesAreRecognisedExactly() {
    assertThat(AtomicFiles.isTemporaryName(".f.json.0.tmp", "f.json")).isTrue();
    assertThat(AtomicFiles.isTemporaryName(".f.json.9876543210.tmp", "f.json")).isTrue();
    assertThat(AtomicFiles.isTemporaryName(".f.json..tmp", "f.json")).isFalse();
    assertThat(AtomicFiles.isTemporaryName(".f.json.12a.tmp", "f.json")).isFalse();
    assertThat(AtomicFiles.isTemporaryName("f.json.12.tmp", "f.json")).isFalse();
    assertThat(AtomicFiles.isTemporaryName(".f.json.12.tmp.x", "f.json")).isFalse();
    assertThat(AtomicFiles.isTemporaryName(".ff.json.12.tmp", "f.json")).isFalse();
    assertThat(AtomicFiles.isTemporaryName(".f.json.12.tmp", "ff.json")).isFalse();
  }

  @Test
  void theWritersOwnTemporaryFileMatchesTheLeftoverPattern() throws Exception {
    // Ties the pattern to what Files.createTempFile really produces, so a JDK change that altered
    // the random part would fail here instead of silently disabling the clean-up.
    Path target = dir.resolve("observed-hazards.json");
    Path tmp = Files.createTempFile(dir, ".observed-hazards.json.", ".tmp");
    assertThat(AtomicFiles.isTemporaryName(tmp.getFileName().toString(), "observed-hazards.json"))
        .as(tmp.getFileName().toString())
        .isTrue();
    Files.setLastModifiedTime(tmp, FileTime.from(Instant.now().minusSeconds(60)));
    AtomicFiles.write(target, new byte[] {'1'});
    assertThat(tmp).doesNotExist();
  }
}
