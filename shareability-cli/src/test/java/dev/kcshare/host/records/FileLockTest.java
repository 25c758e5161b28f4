package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
    CountDownLatch waiting = new CountDownLatch(1);
    AtomicBoolean acquired = new AtomicBoolean();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread waiter;
    try (FileLock first = FileLock.acquire(record)) {
      // An unbounded wait, as acquire() does; the callback fires once the waiter has found the
      // lock held and before it waits, so "not acquired" below is a fact, not a timing guess.
      waiter =
          new Thread(
              () -> {
                try (FileLock second =
                    FileLock.tryAcquire(record, null, h -> waiting.countDown())) {
                  acquired.set(second != null);
                } catch (Throwable e) {
                  failed.set(e);
                }
              });
      waiter.start();
      assertThat(waiting.await(10, TimeUnit.SECONDS)).as("the waiter found the lock held").isTrue();
      assertThat(acquired).isFalse();
    }
    waiter.join(10_000);
    assertThat(waiter.isAlive()).isFalse();
    assertThat(failed.get()).isNull();
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
  void aLockFileThatIsASymbolicLinkIsRefusedAndItsTargetKeepsItsBytes() throws Exception {
    Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
    Path record = dir.resolve("observed-hazards.json");
    Path lockFile = Files.createSymbolicLink(FileLock.lockFileFor(record), victim);

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> FileLock.acquire(record))
        .isInstanceOfSatisfying(
            dev.kcshare.host.FileProblem.class,
            p -> {
              assertThat(p.isRefused()).isTrue();
              assertThat(p.getMessage())
                  .isEqualTo(
                      "lock file "
                          + lockFile
                          + " is a symbolic link; kcshare never locks or writes through one:"
                          + " remove it");
            });
    assertThat(Files.readString(victim)).isEqualTo("precious\n");
    // Nothing was left held: once the link is gone, the lock is free.
    Files.delete(lockFile);
    try (FileLock lock = FileLock.tryAcquire(record, Duration.ZERO)) {
      assertThat(lock).isNotNull();
    }
  }

  @Test
  void aLockFileWithASecondNameIsLockedButNothingIsWrittenIntoIt() throws Exception {
    Path other = Files.writeString(dir.resolve("other-name"), "kept\n");
    Path record = dir.resolve("observed-hazards.json");
    Files.createLink(FileLock.lockFileFor(record), other);
    try (FileLock lock = FileLock.acquire(record)) {
      assertThat(lock).isNotNull();
      assertThat(Files.readString(other)).isEqualTo("kept\n");
    }
    assertThat(Files.readString(other)).isEqualTo("kept\n");
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
  void theHolderWritesItsPidIntoTheLockFileAndEmptiesItOnRelease() throws Exception {
    Path record = dir.resolve("r.json");
    Path lockFile = FileLock.lockFileFor(record);
    try (FileLock lock = FileLock.acquire(record)) {
      assertThat(Files.readString(lockFile).strip())
          .isEqualTo(Long.toString(ProcessHandle.current().pid()));
    }
    assertThat(Files.size(lockFile)).isZero();
  }

  @Test
  void aWaiterIsToldOnceWhichProcessHoldsTheLock() throws Exception {
    Path record = dir.resolve("r.json");
    ChildJvm jvm =
        ChildJvm.prepare(
            dir.resolve("jvm"), LockHolderChild.class, dir.resolve("warm.json").toString());
    Process child = jvm.start(LockHolderChild.class, dir.resolve("child.err"), record.toString());
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("held");
      java.util.List<LockHolder> told = new java.util.concurrent.CopyOnWriteArrayList<>();
      // Zero: no wait, so nobody is told.
      assertThat(FileLock.tryAcquire(record, Duration.ZERO, told::add)).isNull();
      assertThat(told).isEmpty();
      assertThat(FileLock.tryAcquire(record, Duration.ofMillis(300), told::add)).isNull();
      assertThat(told).hasSize(1);
      LockHolder holder = told.get(0);
      assertThat(holder.pid()).isEqualTo(child.pid());
      assertThat(holder.describe()).startsWith("process " + child.pid() + " (java");

      AtomicReference<Boolean> acquired = new AtomicReference<>();
      Thread waiter =
          new Thread(
              () -> {
                try (FileLock lock = FileLock.tryAcquire(record, null, told::add)) {
                  acquired.set(lock != null);
                } catch (Exception e) {
                  throw new AssertionError(e);
                }
              });
      waiter.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (told.size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(told).hasSize(2);
      child.getOutputStream().close();
      assertThat(out.readLine()).isEqualTo("released");
      waiter.join(10_000);
      assertThat(acquired.get()).isTrue();
      assertThat(told).hasSize(2);
    } finally {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
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

  @Test
  void aWaiterInTheSameProcessIsToldItIsThisProcess() throws Exception {
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
    try {
      assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
      java.util.List<LockHolder> told = new java.util.concurrent.CopyOnWriteArrayList<>();
      assertThat(FileLock.tryAcquire(record, Duration.ofMillis(100), told::add)).isNull();
      assertThat(told).extracting(LockHolder::pid).containsExactly(ProcessHandle.current().pid());
    } finally {
      release.countDown();
      holder.join(10_000);
    }
  }

  @Test
  void aHolderIsUnknownWhenTheLockFileNamesNoLiveProcess() throws Exception {
    Path lockFile = dir.resolve("x.lock");
    assertThat(LockHolder.readFrom(lockFile).known()).isFalse();
    Files.writeString(lockFile, "");
    assertThat(LockHolder.readFrom(lockFile).describe()).isEqualTo("another process");
    Files.writeString(lockFile, "not a pid\n");
    assertThat(LockHolder.readFrom(lockFile).known()).isFalse();
    Files.writeString(lockFile, "-5\n");
    assertThat(LockHolder.readFrom(lockFile).known()).isFalse();
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Files.writeString(lockFile, gone.pid() + "\n");
    assertThat(LockHolder.readFrom(lockFile).known()).isFalse();
  }

  @Test
  void aHolderIsShownAsKcshareWithItsArguments() {
    assertThat(
            LockHolder.shortCommand(
                "/usr/lib/jvm/bin/java -XX:TieredStopAtLevel=1 -jar /opt/kcshare/kcshare.jar measure --all"))
        .isEqualTo("kcshare measure --all");
    assertThat(LockHolder.shortCommand("/usr/bin/python3 -m kirocrew.gateway"))
        .isEqualTo("python3");
    assertThat(LockHolder.shortCommand("")).isEmpty();
    assertThat(new LockHolder(42, "/x/evil\u001b[31m -jar kcshare.jar measure\nx").describe())
        .doesNotContain("\u001b")
        .startsWith("process 42 (kcshare measure");
  }
}
