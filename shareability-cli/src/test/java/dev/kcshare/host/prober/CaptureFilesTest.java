package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.host.FileProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class CaptureFilesTest {
  private static final Path ROOT = Path.of("/captures");

  @Test
  void safeNamesAreUsedAsTheyAre() {
    assertThat(CaptureFiles.directoryFor(ROOT, "files-mcp_2.0"))
        .isEqualTo(ROOT.resolve("files-mcp_2.0"));
  }

  @Test
  void otherNamesAreSanitisedAndDisambiguated() {
    Path a = CaptureFiles.directoryFor(ROOT, "my server");
    Path b = CaptureFiles.directoryFor(ROOT, "my/server");
    assertThat(a.getParent()).isEqualTo(ROOT);
    assertThat(a.getFileName().toString()).matches("my_server-[0-9a-f]{8}");
    assertThat(b.getFileName().toString()).matches("my_server-[0-9a-f]{8}");
    assertThat(a).isNotEqualTo(b);
    assertThat(CaptureFiles.directoryFor(ROOT, "..").getFileName().toString())
        .matches("\\.\\.-[0-9a-f]{8}");
    assertThat(CaptureFiles.directoryFor(ROOT, "").getFileName().toString())
        .matches("-[0-9a-f]{8}");
    assertThat(CaptureFiles.directoryFor(ROOT, "é\u0000").getFileName().toString())
        .matches("__-[0-9a-f]{8}");
  }

  @TempDir Path root;

  /** D20 for captures: a server's directory others may write is refused, nothing is written. */
  @Test
  void aCaptureDirectoryOthersCanWriteIsRefused() throws Exception {
    Path dir = Files.createDirectories(CaptureFiles.directoryFor(root, "s"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThatThrownBy(() -> CaptureFiles.prepare(root, "s"))
        .isInstanceOfSatisfying(FileProblem.class, e -> assertThat(e.isRefused()).isTrue())
        .hasMessageStartingWith("capture directory " + dir + " is writable by others");
  }

  /** One that another user made first is refused too, whatever its mode. */
  @Test
  void aCaptureDirectoryAnotherUserMadeIsRefused() throws Exception {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to chown");
    Path dir = Files.createDirectories(CaptureFiles.directoryFor(root, "s"));
    Files.setAttribute(dir, "unix:uid", 65534);
    assertThatThrownBy(() -> CaptureFiles.prepare(root, "s"))
        .isInstanceOf(FileProblem.class)
        .hasMessageContaining("capture directory " + dir + " is owned by");
  }

  @Test
  void aCaptureDirectoryOfItsOwnIsUsed() throws Exception {
    assertThat(CaptureFiles.prepare(root, "s")).isDirectory();
  }
}
