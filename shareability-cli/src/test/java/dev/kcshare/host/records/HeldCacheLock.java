package dev.kcshare.host.records;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The verdict cache's lock, held by a thread of its own as another pass would hold it (another
 * process takes the same lock), until {@link #close()}.
 */
public final class HeldCacheLock implements AutoCloseable {
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
  private final Thread holder;

  private HeldCacheLock(Path cacheFile) {
    holder =
        new Thread(
            () -> {
              try (CacheStore.Session s = CacheStore.open(cacheFile, null)) {
                held.countDown();
                release.await();
              } catch (Throwable e) {
                failure.set(e);
                held.countDown();
              }
            },
            "held-cache-lock");
  }

  /**
   * Takes the lock of {@code cacheFile} on another thread and returns once it is held.
   *
   * @throws AssertionError when it is not held within 10 s, or taking it failed
   */
  public static HeldCacheLock hold(Path cacheFile) throws InterruptedException {
    HeldCacheLock lock = new HeldCacheLock(cacheFile);
    lock.holder.start();
    if (!lock.held.await(10, TimeUnit.SECONDS) || lock.failure.get() != null) {
      lock.close();
      throw new AssertionError("the cache lock of " + cacheFile + " was not taken", lock.failure());
    }
    return lock;
  }

  /** What went wrong on the holder's thread, or null. */
  public @Nullable Throwable failure() {
    return failure.get();
  }

  /** Releases the lock and waits (10 s at most) for the holder to end. Idempotent. */
  @Override
  public void close() throws InterruptedException {
    release.countDown();
    holder.join(10_000);
  }
}
