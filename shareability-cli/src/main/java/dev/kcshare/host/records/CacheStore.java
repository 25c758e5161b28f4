package dev.kcshare.host.records;

import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.host.FileProblem;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The verdict cache bound to its file. A writer holds the cache lock from its read through its
 * flush (docs/design.md#locks, docs/design.md#one-pass-at-a-time), so two kcshare processes never
 * drop each other's rows: open a {@link Session}, change the cache, {@link Session#flush()}, close.
 * A flush also merges with the file as it is then (docs/design.md#cache-flush), so rows a writer
 * that takes no lock (the Python gateway) stored meanwhile are kept too.
 */
public final class CacheStore {
  private CacheStore() {}

  /**
   * Reads the cache file tolerantly, without the lock (never throws; a bad file is "not measured").
   *
   * @param file the cache file
   * @return what it holds
   * @throws NullPointerException if {@code file} is null
   */
  public static CacheLoad read(Path file) {
    return RecordFile.readCache(Objects.requireNonNull(file, "file")).value();
  }

  /**
   * Reads the file for a writer that will replace it, under its lock.
   *
   * @throws FileProblem when the file must be left as it is: not understood, or present but
   *     unreadable (its rows could not be merged)
   */
  private static CacheLoad readForWrite(Path file) throws FileProblem {
    RecordFile.Loaded<CacheLoad> read = RecordFile.readCacheForWriting(file);
    return read.forWriting(file, read.value().refusal());
  }

  /**
   * Takes the cache lock, waiting as long as needed (another pass may hold it for minutes), and
   * loads the cache. This is also how a gateway records seeding's applied markers, inside its own
   * config lock.
   *
   * <pre>{@code
   * try (CacheStore.Session session = CacheStore.open(records.cacheFile())) {
   *   session.cache().markApplied("files-mcp");
   *   session.flush();
   * }
   * }</pre>
   *
   * @param file the cache file
   * @return the session; close it to release the lock
   * @throws FileProblem if the lock file cannot be created or locked, or the cache file must be
   *     left as it is (not understood, or unreadable), or others may write the records directory
   *     ({@link RecordsTrust}); nothing was changed
   * @throws IOException if the lock cannot be taken
   * @throws InterruptedException if interrupted while waiting
   * @throws NullPointerException if {@code file} is null
   */
  public static Session open(Path file) throws IOException, InterruptedException {
    return Objects.requireNonNull(open(file, null), "an unbounded wait yields a session");
  }

  /**
   * Takes the cache lock and loads the cache: waits as long as needed when {@code wait} is null,
   * else at most {@code wait} (zero = only if free now).
   *
   * @return the session, or null when the lock could not be had in time (another pass holds it)
   * @throws FileProblem as {@link #open(Path)}
   * @throws IllegalArgumentException if {@code wait} is negative
   */
  public static @Nullable Session open(Path file, @Nullable Duration wait)
      throws IOException, InterruptedException {
    return open(file, wait, null);
  }

  /**
   * {@link #open(Path, Duration)}, telling {@code onWait} which process holds the lock before it
   * waits for it.
   */
  public static @Nullable Session open(
      Path file, @Nullable Duration wait, @Nullable Consumer<LockHolder> onWait)
      throws IOException, InterruptedException {
    Held held = hold(file, wait, onWait);
    if (held == null) {
      return null;
    }
    try {
      return held.load();
    } catch (IOException | RuntimeException | Error e) {
      held.close();
      throw e;
    }
  }

  /**
   * Takes the cache lock as {@link #open(Path, Duration, Consumer)} does, without reading the cache
   * yet: a pass that begins early spawns its server first and reads the cache while the server
   * starts ({@link Held#load()}).
   *
   * @return the lock, or null when it could not be had in time
   * @throws FileProblem if the lock file cannot be created or locked, or others may write the
   *     records directory
   * @throws IOException if the lock cannot be taken
   * @throws InterruptedException if interrupted while waiting
   */
  public static @Nullable Held hold(
      Path file, @Nullable Duration wait, @Nullable Consumer<LockHolder> onWait)
      throws IOException, InterruptedException {
    Objects.requireNonNull(file, "file");
    if (wait != null && wait.isNegative()) {
      throw new IllegalArgumentException("wait must not be negative: " + wait);
    }
    FileLock lock;
    Path target;
    try {
      target = RecordsTrust.requireWritableFile(file);
      lock = FileLock.tryAcquire(target, wait, onWait);
    } catch (IOException e) {
      throw FileProblem.of("write", file, e);
    }
    return lock == null ? null : new Held(target, lock);
  }

  /** The cache lock, taken, with the cache not yet read. */
  public static final class Held implements AutoCloseable {
    private final Path file;
    private final FileLock lock;

    private Held(Path file, FileLock lock) {
      this.file = file;
      this.lock = lock;
    }

    /**
     * Reads the cache under this lock; the session then owns the lock. On failure the lock stays
     * held until this is closed, so a holder that started work under it ends that work first.
     *
     * @return the session
     * @throws FileProblem if the cache file must be left as it is (not understood, or unreadable)
     */
    public Session load() throws IOException {
      return new Session(file, lock, VerdictCache.of(readForWrite(file)));
    }

    /** Releases the lock (when no session was loaded); a second call does nothing. */
    @Override
    public void close() throws IOException {
      lock.close();
    }
  }

  /** A locked read–modify–write of the cache file. Closing is idempotent, from any thread. */
  public static final class Session implements AutoCloseable {
    private final Path file;
    private final FileLock lock;
    private final VerdictCache cache;

    private Session(Path file, FileLock lock, VerdictCache cache) {
      this.file = Objects.requireNonNull(file);
      this.lock = lock;
      this.cache = cache;
    }

    /** The cache as loaded under the lock. */
    public VerdictCache cache() {
      return cache;
    }

    /**
     * Writes the file atomically if anything changed, merged with what the file holds now; a clean
     * cache touches nothing.
     *
     * @return true if the file was written
     * @throws FileProblem when the file cannot be written, or must be left as it is; the file is
     *     then unchanged and the cache stays dirty
     */
    public boolean flush() throws IOException {
      if (!cache.isDirty()) {
        return false;
      }
      VerdictCache.Merge merge = cache.merge(readForWrite(file));
      try {
        RecordFile.write(file, merge.toDocument());
      } catch (ClosedByInterruptException e) {
        throw e; // an interrupt, not the environment: the caller saves again without it
      } catch (IOException e) {
        throw FileProblem.of("write", file, e);
      }
      cache.written(merge);
      return true;
    }

    /** Releases the lock; a second call, from this thread or another, does nothing. */
    @Override
    public void close() throws IOException {
      lock.close();
    }
  }
}
