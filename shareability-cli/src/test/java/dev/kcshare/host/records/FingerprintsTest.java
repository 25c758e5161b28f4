package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FingerprintsTest {
  @TempDir Path dir;

  private Path file(String name, String content, boolean executable) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
    if (executable) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return p;
  }

  @Test
  void specVectors() throws Exception {
    file("script.sh", "#!/bin/sh\necho v1\n", true);
    file("empty", "", false);
    file("hello", "hello\n", false);
    Fingerprints fp = new Fingerprints(null, dir);
    assertThat(fp.fingerprint("./script.sh")).isEqualTo("667f61a069b75f1f57fc5616");
    assertThat(fp.fingerprint("empty")).isEqualTo("e3b0c44298fc1c149afbf4c8");
    assertThat(fp.fingerprint("hello")).isEqualTo("5891b5b522d5df086d0ff0b1");
  }

  @Test
  void aFileThatChangesIsHashedAgainByTheSameInstance() throws Exception {
    Path p = file("script.sh", "#!/bin/sh\necho v1\n", true);
    Fingerprints fp = new Fingerprints(null, dir);
    String first = fp.fingerprint("./script.sh");
    assertThat(fp.fingerprint(p.toString())).isEqualTo(first);
    Files.writeString(p, "#!/bin/sh\necho v22\n", StandardCharsets.UTF_8);
    assertThat(fp.fingerprint("./script.sh"))
        .isNotEqualTo(first)
        .isEqualTo(new Fingerprints(null, dir).fingerprint("./script.sh"));
    // Same size, content changed, modification time moved: still a new hash.
    Files.writeString(p, "#!/bin/sh\necho v33\n", StandardCharsets.UTF_8);
    Files.setLastModifiedTime(
        p, FileTime.fromMillis(Files.getLastModifiedTime(p).toMillis() + 5000));
    assertThat(fp.fingerprint("./script.sh"))
        .isEqualTo(new Fingerprints(null, dir).fingerprint("./script.sh"))
        .isNotEqualTo(first);
  }

  @Test
  void aSnapshotAnswersEachStringOnceAndALiveInstanceLooksAgain() throws Exception {
    Path p = file("script.sh", "#!/bin/sh\necho v1\n", true);
    Fingerprints snapshot = Fingerprints.snapshot(null, dir);
    Fingerprints live = new Fingerprints(null, dir);
    String before = snapshot.binaryVersion("./script.sh", List.of("data.txt", "-x"));
    assertThat(before).isEqualTo(live.binaryVersion("./script.sh", List.of("data.txt", "-x")));
    Files.writeString(p, "#!/bin/sh\necho v22\n", StandardCharsets.UTF_8);
    file("data.txt", "now a file\n", false);
    // The snapshot keeps the file system as it first saw it; a live instance sees both changes.
    assertThat(snapshot.binaryVersion("./script.sh", List.of("data.txt", "-x"))).isEqualTo(before);
    String after = live.binaryVersion("./script.sh", List.of("data.txt", "-x"));
    assertThat(after).isNotEqualTo(before);
    assertThat(
            Fingerprints.snapshot(null, dir)
                .binaryVersion("./script.sh", List.of("data.txt", "-x")))
        .isEqualTo(after);
  }

  @Test
  void commandsAreLookedUpOnPathAndLinksFollowed() throws Exception {
    file("bin1/tool", "#!/bin/sh\necho v1\n", true);
    file("bin2/tool", "other", true);
    Files.createDirectories(dir.resolve("links"));
    Files.createSymbolicLink(dir.resolve("links/tool"), dir.resolve("bin1/tool"));
    String path = dir.resolve("nothing") + ":" + dir.resolve("links") + ":" + dir.resolve("bin2");
    Fingerprints fp = new Fingerprints(path, Path.of("/"));
    assertThat(fp.lookup("tool")).isEqualTo(dir.resolve("links/tool"));
    assertThat(fp.fingerprint("tool")).isEqualTo("667f61a069b75f1f57fc5616");
  }

  @Test
  void nonExecutableOnPathIsSkippedAndMissLeavesTheNameItself() throws Exception {
    file("bin/tool", "not executable", false);
    file("tool", "hello\n", false);
    Fingerprints fp = new Fingerprints(dir.resolve("bin").toString(), dir);
    assertThat(fp.lookup("tool")).isNull();
    // The lookup failed, so the name resolves against the working directory.
    assertThat(fp.fingerprint("tool")).isEqualTo("5891b5b522d5df086d0ff0b1");
  }

  @Test
  void unknownForMissingDirectoriesFifosAndDanglingLinks() throws Exception {
    Fingerprints fp = new Fingerprints(null, dir);
    assertThat(fp.fingerprint("missing")).isEqualTo("unknown");
    assertThat(fp.fingerprint(dir.toString())).isEqualTo("unknown");
    Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
    assertThat(fp.fingerprint("dangling")).isEqualTo("unknown");
    Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start();
    if (mkfifo.waitFor() == 0) {
      assertThat(fp.fingerprint("fifo")).isEqualTo("unknown");
    }
  }

  @Test
  void largeFilesUseSizeAndMtime() throws Exception {
    Path big = dir.resolve("big.bin");
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      f.setLength(4L * 1024 * 1024 + 1);
    }
    Files.setLastModifiedTime(big, FileTime.fromMillis(1_700_000_000_999L));
    assertThat(new Fingerprints(null, dir).fingerprint("big.bin"))
        .isEqualTo("sz4194305-mt1700000000");
    Path exact = dir.resolve("exact.bin");
    try (RandomAccessFile f = new RandomAccessFile(exact.toFile(), "rw")) {
      f.setLength(4L * 1024 * 1024);
    }
    assertThat(new Fingerprints(null, dir).fingerprint("exact.bin")).hasSize(24);
  }

  @Test
  void binaryVersionAppendsOnlyExistingFileArguments() throws Exception {
    file("bin/python3", "#!/bin/sh\necho v1\n", true);
    file("server.py", "hello\n", false);
    Fingerprints fp = new Fingerprints(dir.resolve("bin").toString(), dir);
    String v =
        fp.binaryVersion("python3", List.of("-u", "server.py", "--port", "8080", "", "gone.py"));
    assertThat(v).isEqualTo("667f61a069b75f1f57fc5616\u00005891b5b522d5df086d0ff0b1");
    assertThat(fp.binaryVersion("nope", List.of())).isEqualTo("unknown");
  }
}
