package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FileLockTest {
  @TempDir Path dir;

  @Test
  void lockFileIsASibling0600AndSurvivesRelease() throws Exception {
    Path record = dir.resolve("shareability-verdicts.json");
    try (FileLock lock = FileLock.acquire(record)) {
      assertThat(lock).isNotNull();
    }
    Path lockFile = dir.resolve("shareability-verdicts.json.lock");
    assertThat(lockFile).exists();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lockFile)))
        .isEqualTo("rw-------");
  }

  @Test
  void aHeldLockExcludesOtherThreadsUntilReleased() throws Exception {
    Path record = dir.resolve("r.json");
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder =
        new Thread(
            () -> {
              try (FileLock lock = FileLock.acquire(record)) {
                held.countDown();
                release.await();
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            });
    holder.start();
    assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(FileLock.tryAcquire(record, Duration.ZERO)).isNull();
    assertThat(FileLock.tryAcquire(record, Duration.ofMillis(200))).isNull();
    release.countDown();
    holder.join(10_000);
    try (FileLock again = FileLock.tryAcquire(record, Duration.ofSeconds(10))) {
      assertThat(again).isNotNull();
    }
  }

  @Test
  void waitingAcquireProceedsOnceReleased() throws Exception {
    Path record = dir.resolve("r.json");
    AtomicBoolean acquired = new AtomicBoolean();
    Thread waiter;
    try (FileLock first = FileLock.acquire(record)) {
      waiter =
          new Thread(
              () -> {
                try (FileLock second = FileLock.acquire(record)) {
                  acquired.set(true);
                } catch (Exception e) {
                  throw new AssertionError(e);
                }
              });
      waiter.start();
      Thread.sleep(150);
      assertThat(acquired).isFalse();
    }
    waiter.join(10_000);
    assertThat(acquired).isTrue();
  }

  @Test
  void theHoldingThreadFindsTheLockTakenInsteadOfFailingOrDeadlocking() throws Exception {
    Path record = dir.resolve("r.json");
    try (FileLock held = FileLock.acquire(record)) {
      assertThat(FileLock.tryAcquire(record, Duration.ZERO)).isNull();
      assertThat(FileLock.tryAcquire(record, Duration.ofMillis(50))).isNull();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> FileLock.acquire(record))
          .isInstanceOf(IllegalStateException.class);
    }
    // Every failed attempt left the lock as it was: released once, it is free.
    try (FileLock again = FileLock.tryAcquire(record, Duration.ZERO)) {
      assertThat(again).isNotNull();
    }
  }
}
