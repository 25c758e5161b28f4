package dev.kcshare.host.records;

import dev.kcshare.host.FileProblem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * An exclusive lock on a sibling lock file (docs/design.md#locks), combined with an in-process
 * mutex so that threads of one JVM exclude each other as processes do. Lock files are created 0600
 * and never deleted: deleting one would let two holders lock different inodes. While a kcshare
 * process holds a lock, the lock file holds its pid ({@link LockHolder}), so a waiter can say whom
 * it waits for.
 *
 * <p>A lock file is never opened through a symbolic link (docs/formats.md#links): one that is a
 * link, or is not a regular file, is refused ({@link FileProblem#isRefused()}) before anything is
 * opened, and the open itself does not follow links. It is never opened truncating; the pid is
 * written only once the lock is held, and not at all into a lock file with a second name.
 *
 * <p>The in-process mutex is keyed by the lock file itself (its device and inode, else its real
 * path), never by the path's text: the same records directory reached through a symbolic link, a
 * relative path or a bind mount is one lock. It is a semaphore, not an owned lock, so {@link
 * #close()} releases it from any thread; closing twice releases once. An OS lock that this JVM
 * already holds by some other means ({@link OverlappingFileLockException}) reads as busy.
 */
public final class FileLock implements AutoCloseable {
  private static final ConcurrentHashMap<Object, Mutex> MUTEXES = new ConcurrentHashMap<>();
  private static final long POLL_MILLIS = 50;

  private final Path recordFile;
  private final Mutex mutex;
  private final FileChannel channel;
  private final java.nio.channels.FileLock osLock;
  private final boolean holderRecorded;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** The in-process half: a permit, and which thread took it (for the self-deadlock check). */
  private static final class Mutex {
    final Semaphore permit = new Semaphore(1);
    volatile @Nullable Thread holder;
  }

  private FileLock(
      Path recordFile,
      Mutex mutex,
      FileChannel channel,
      java.nio.channels.FileLock osLock,
      boolean holderRecorded) {
    this.recordFile = recordFile;
    this.mutex = mutex;
    this.channel = channel;
    this.osLock = osLock;
    this.holderRecorded = holderRecorded;
  }

  /** The record file this lock guards. */
  public Path recordFile() {
    return recordFile;
  }

  /** The lock file guarding {@code recordFile}: the same name plus {@code .lock}. */
  public static Path lockFileFor(Path recordFile) {
    return recordFile.resolveSibling(recordFile.getFileName() + ".lock");
  }

  /** Waits as long as it takes for the lock guarding {@code recordFile}. */
  public static FileLock acquire(Path recordFile) throws IOException, InterruptedException {
    FileLock lock = tryAcquire(recordFile, null);
    if (lock == null) {
      throw new IllegalStateException("unbounded acquisition returned no lock");
    }
    return lock;
  }

  /**
   * Tries to take the lock guarding {@code recordFile} within {@code timeout} (zero = only if free
   * now; null = wait indefinitely).
   *
   * @return the lock, or null if it could not be had in time (also when the calling thread holds it
   *     already)
   * @throws IllegalStateException when waiting indefinitely for a lock the calling thread holds
   * @throws IOException when the lock file cannot be created or opened
   */
  public static @Nullable FileLock tryAcquire(Path recordFile, @Nullable Duration timeout)
      throws IOException, InterruptedException {
    return tryAcquire(recordFile, timeout, null);
  }

  /**
   * {@link #tryAcquire(Path, Duration)}, telling {@code onWait} once, before it starts to wait,
   * which process holds the lock (this one, when another thread of it does). Not called when the
   * lock is free at once or {@code timeout} is zero.
   */
  public static @Nullable FileLock tryAcquire(
      Path recordFile, @Nullable Duration timeout, @Nullable Consumer<LockHolder> onWait)
      throws IOException, InterruptedException {
    boolean waits = timeout == null || !timeout.isZero();
    Path lockFile = lockFileFor(recordFile).toAbsolutePath().normalize();
    long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
    AtomicFiles.createPrivateFile(lockFile);
    BasicFileAttributes attrs = requireLockFile(lockFile);
    Mutex mutex = MUTEXES.computeIfAbsent(keyOf(lockFile, attrs), k -> new Mutex());
    if (mutex.holder == Thread.currentThread()) {
      // The OS lock is per JVM, not per thread: taking it again would throw; waiting would never
      // end. A timed attempt finds the lock taken, as it is.
      if (timeout == null) {
        throw new IllegalStateException("this thread already holds the lock " + lockFile);
      }
      return null;
    }
    boolean told = false;
    if (!mutex.permit.tryAcquire()) {
      if (waits && onWait != null) {
        told = true;
        onWait.accept(
            new LockHolder(
                ProcessHandle.current().pid(),
                ProcessHandle.current().info().commandLine().orElse("")));
      }
      if (timeout == null) {
        mutex.permit.acquire();
      } else if (!mutex.permit.tryAcquire(
          Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        return null;
      }
    }
    mutex.holder = Thread.currentThread();
    boolean ok = false;
    FileChannel channel = null;
    try {
      channel = open(lockFile);
      boolean holderRecorded = hasOneName(lockFile);
      while (true) {
        java.nio.channels.FileLock os;
        try {
          os = channel.tryLock();
        } catch (OverlappingFileLockException e) {
          os = null; // held in this JVM outside this class: busy like any other holder
        }
        if (os != null) {
          if (holderRecorded) {
            recordHolder(channel);
          }
          ok = true;
          return new FileLock(recordFile, mutex, channel, os, holderRecorded);
        }
        if (System.nanoTime() >= deadline) {
          return null;
        }
        if (waits && onWait != null && !told) {
          told = true;
          onWait.accept(LockHolder.readFrom(lockFile));
        }
        Thread.sleep(POLL_MILLIS);
      }
    } finally {
      if (!ok) {
        if (channel != null) {
          channel.close();
        }
        mutex.holder = null;
        mutex.permit.release();
      }
    }
  }

  /**
   * The lock file's own attributes, never its link target's.
   *
   * @throws FileProblem when it is a symbolic link or not a regular file: nothing is opened, locked
   *     or written through it
   */
  private static BasicFileAttributes requireLockFile(Path lockFile) throws IOException {
    BasicFileAttributes attrs =
        Files.readAttributes(lockFile, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (attrs.isSymbolicLink()) {
      throw linkRefused(lockFile);
    }
    if (!attrs.isRegularFile()) {
      throw FileProblem.refused(
          lockFile,
          "lock file "
              + lockFile
              + " is not a regular file; kcshare does not lock through it: remove it");
    }
    return attrs;
  }

  private static FileProblem linkRefused(Path lockFile) {
    return FileProblem.refused(
        lockFile,
        "lock file "
            + lockFile
            + " is a symbolic link; kcshare never locks or writes through one: remove it");
  }

  /**
   * Opens the lock file for writing without following a symbolic link and without truncating it
   * (creating it 0600 if it went missing since it was created).
   */
  private static FileChannel open(Path lockFile) throws IOException {
    try {
      return AtomicFiles.openPrivate(lockFile);
    } catch (IOException e) {
      if (Files.isSymbolicLink(lockFile)) {
        throw linkRefused(lockFile); // put in place since it was examined
      }
      throw e;
    }
  }

  /**
   * Whether the lock file has one name only. A lock file with more (a hard link) is locked, but the
   * holder's pid is not written into it: the write would reach the other name too.
   */
  private static boolean hasOneName(Path lockFile) {
    try {
      Object links = Files.getAttribute(lockFile, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
      return links instanceof Number n && n.intValue() == 1;
    } catch (IOException | RuntimeException e) {
      return true; // no link count on this file system: no hard links to worry about either
    }
  }

  /**
   * What identifies a lock file across the paths that reach it: its file key (device and inode)
   * where the file system has one, else its real path.
   */
  private static Object keyOf(Path lockFile, BasicFileAttributes attrs) throws IOException {
    Object key = attrs.fileKey();
    return key != null ? key : lockFile.toRealPath();
  }

  /** Best effort: the holder's pid is for display only. */
  private static void recordHolder(FileChannel channel) {
    try {
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(LockHolder.ownRecord()), 0);
    } catch (IOException e) {
      // a waiter then names no process
    }
  }

  /** Releases the lock; idempotent, and callable from any thread. */
  @Override
  public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      try {
        if (holderRecorded) {
          try {
            channel.truncate(0);
          } catch (IOException e) {
            // best effort, as when it was written
          }
        }
        osLock.release();
      } finally {
        channel.close();
      }
    } finally {
      mutex.holder = null;
      mutex.permit.release();
    }
  }
}
