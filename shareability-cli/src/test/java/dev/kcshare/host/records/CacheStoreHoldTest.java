package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.host.FileProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who releases the cache lock when the cache file must be left as it is: {@link
 * CacheStore.Held#load} keeps it (a holder that started work under it, such as a head start's
 * pre-flight, ends that work first and then closes it); {@link CacheStore#open} releases it.
 */
final class CacheStoreHoldTest {
  /** A cache of a version this one does not understand: it must be left as it is. */
  private static final String REFUSED = "{\"version\": 1, \"entries\": []}\n";

  @TempDir Path dir;

  @Test
  void aFailedLoadKeepsTheLockUntilTheHolderClosesIt() throws Exception {
    Path file = refusedCache();
    CacheStore.Held held = CacheStore.hold(file, Duration.ZERO, null);
    assertThat(held).isNotNull();
    try {
      assertThatThrownBy(held::load).isInstanceOf(FileProblem.class);
      assertThat(CacheStore.hold(file, Duration.ZERO, null)).as("still held").isNull();
    } finally {
      held.close();
    }
    try (CacheStore.Held again = CacheStore.hold(file, Duration.ZERO, null)) {
      assertThat(again).as("free once closed").isNotNull();
    }
    assertThat(Files.readString(file)).isEqualTo(REFUSED);
  }

  @Test
  void openReleasesTheLockWhenTheFileMustBeLeftAsItIs() throws Exception {
    Path file = refusedCache();
    assertThatThrownBy(() -> CacheStore.open(file, Duration.ZERO)).isInstanceOf(FileProblem.class);
    try (CacheStore.Held again = CacheStore.hold(file, Duration.ZERO, null)) {
      assertThat(again).as("free after the failed open").isNotNull();
    }
    assertThat(Files.readString(file)).isEqualTo(REFUSED);
  }

  private Path refusedCache() throws Exception {
    Path file = dir.resolve(RecordsDirectory.CACHE_FILE);
    Files.writeString(file, REFUSED);
    return file;
  }
}
