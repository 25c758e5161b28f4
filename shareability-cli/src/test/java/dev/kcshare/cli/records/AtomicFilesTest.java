package dev.kcshare.cli.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
}
