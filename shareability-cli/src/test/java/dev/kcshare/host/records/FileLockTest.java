package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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

  @Test
  void theSameDirectoryThroughASymlinkIsTheSameLockAndBusyNotAnError() throws Exception {
    Path real = Files.createDirectories(dir.resolve("records"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    Path viaReal = real.resolve("observed-hazards.json");
    Path viaLink = link.resolve("observed-hazards.json");
    try (FileLock held = FileLock.acquire(viaReal)) {
      assertThat(held).isNotNull();
      // Another thread, through the link: busy (in time), never OverlappingFileLockException.
      AtomicBoolean busy = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread other =
          new Thread(
              () -> {
                try {
                  busy.set(FileLock.tryAcquire(viaLink, Duration.ofMillis(100)) == null);
                } catch (Throwable t) {
                  failure.set(t);
                }
              });
      other.start();
      other.join();
      assertThat(failure.get()).isNull();
      assertThat(busy.get()).isTrue();
    }
    try (FileLock again = FileLock.tryAcquire(viaLink, Duration.ZERO)) {
      assertThat(again).as("free once released").isNotNull();
    }
  }

  @Test
  void closingTwiceOrFromAnotherThreadReleasesOnce() throws Exception {
    Path record = dir.resolve("r.json");
    FileLock lock = FileLock.acquire(record);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread closer =
        new Thread(
            () -> {
              try {
                lock.close();
                lock.close();
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    closer.start();
    closer.join();
    assertThat(failure.get()).isNull();
    lock.close();
    // Released: this thread (and any other) can take it again, exactly once.
    try (FileLock again = FileLock.tryAcquire(record, Duration.ZERO)) {
      assertThat(again).isNotNull();
      assertThat(FileLock.tryAcquire(record, Duration.ZERO)).isNull();
    }
  }
}
