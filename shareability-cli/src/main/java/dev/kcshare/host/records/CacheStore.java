package dev.kcshare.host.records;

import dev.kcshare.core.records.CacheCodec;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.VerdictCache;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The verdict cache bound to its file. A writer holds the cache lock from its read through its
 * flush (docs/design.md#locks, docs/design.md#one-pass-at-a-time), so two kcshare processes never
 * drop each other's rows: open a {@link Session}, change the cache, {@link Session#flush()}, close.
 */
public final class CacheStore {
  private CacheStore() {}

  /**
   * Reads the cache file tolerantly, without the lock (never throws; a bad file is "not measured").
   *
   * @param file the cache file
   * @return what it holds
   */
  public static CacheLoad read(Path file) {
    return CacheCodec.decode(RecordFile.read(file).root());
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
   * @throws IOException if the lock file cannot be created or locked
   * @throws InterruptedException if interrupted while waiting
   */
  public static Session open(Path file) throws IOException, InterruptedException {
    return Objects.requireNonNull(open(file, null), "an unbounded wait yields a session");
  }

  /**
   * Takes the cache lock and loads the cache: waits as long as needed when {@code wait} is null,
   * else at most {@code wait} (zero = only if free now).
   *
   * @return the session, or null when the lock could not be had in time
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
    FileLock lock = FileLock.tryAcquire(file, wait, onWait);
    if (lock == null) {
      return null;
    }
    return new Session(file, lock, VerdictCache.of(read(file)));
  }

  /** A locked read–modify–write of the cache file. */
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
     * Writes the whole file atomically if anything changed; a clean cache touches nothing.
     *
     * @return true if the file was written
     */
    public boolean flush() throws IOException {
      if (!cache.isDirty()) {
        return false;
      }
      RecordFile.write(file, cache.toDocument());
      cache.markClean();
      return true;
    }

    @Override
    public void close() throws IOException {
      lock.close();
    }
  }
}
