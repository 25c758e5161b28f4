package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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
}
