package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ManPagesTest {
  @TempDir Path dir;

  @Test
  void onePagePerCommandWithItsOptions() throws Exception {
    assertThat(ManPages.generate(dir)).isZero();
    for (String page :
        new String[] {
          "kcshare", "kcshare-seed", "kcshare-stub", "kcshare-unstub", "kcshare-completion"
        }) {
      assertThat(dir.resolve(page + ".adoc")).as(page).exists();
    }
    String seed = Files.readString(dir.resolve("kcshare-seed.adoc"));
    assertThat(seed).contains(":doctype: manpage").contains("--apply").contains("--plan");
    assertThat(Files.readString(dir.resolve("kcshare.adoc"))).contains("kcshare-stub");
  }
}
