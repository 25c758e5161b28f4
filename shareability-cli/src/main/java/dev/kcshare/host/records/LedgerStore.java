package dev.kcshare.host.records;

import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.HazardRecord;
import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.records.LedgerSnapshot;
import dev.kcshare.core.text.Escaper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ledger writer: the in-memory {@link HazardLedger} bound to its file, with the flush protocol of
 * docs/design.md#ledger-flush and the cross-process clear of docs/design.md#clearing.
 *
 * <p>{@link #record} is cheap and never blocks, so it may run on a gateway's event loop; {@link
 * #flush} does blocking I/O and belongs on a background thread (a heartbeat, and once on shutdown).
 * Thread-safe.
 *
 * <pre>{@code
 * LedgerStore ledger = shareability.openLedger();          // loaded: a restart forgets nothing
 * // routing path, shared backend only:
 * ledger.record(name, HazardCodes.UNROUTABLE_SERVER_REQUEST, launchIdentity);
 * heartbeat.scheduleAtFixedRate(() -> ledger.flush(), 60, 60, SECONDS); // (handle the interrupt)
 * // shutdown: one last ledger.flush()
 * }</pre>
 */
public final class LedgerStore {
  private static final Logger log = LoggerFactory.getLogger(LedgerStore.class);

  /** How long a flush waits for the ledger file lock before giving up this attempt. */
  static final Duration LOCK_WAIT = Duration.ofSeconds(10);

  private final Path file;
  private final HazardLedger ledger;
  private final DoubleSupplier clock;
  private final ReentrantLock flushMutex = new ReentrantLock();

  /**
   * @param file the ledger file ({@code observed-hazards.json})
   * @param clock wall-clock epoch seconds
   */
  public LedgerStore(Path file, DoubleSupplier clock) {
    this.file = Objects.requireNonNull(file, "file");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ledger = HazardLedger.create();
  }

  /**
   * The in-memory state, for reads ({@code codesFor}, {@code codesForName}, {@code all}).
   *
   * @return the live ledger (never copied)
   */
  public HazardLedger ledger() {
    return ledger;
  }

  /**
   * Reads the ledger file tolerantly (never throws; a bad file is "nothing observed").
   *
   * @param file the ledger file
   * @return what it holds
   */
  public static LedgerLoad read(Path file) {
    return LedgerCodec.decode(RecordFile.read(file).root());
  }

  /** Loads the file into memory (at start, before recording). Does not dirty. */
  public void load() {
    ledger.load(read(file));
  }

  /**
   * Records a hazard observed on a SHARED backend (the caller's duty to check). Refused for an
   * empty name or an unknown code, with a warning.
   *
   * @param name the configured server name
   * @param code a hazard code ({@link dev.kcshare.core.records.HazardCodes#ALL})
   * @param identity the backend's launch identity ({@code Shareability.launchIdentity}), or {@code
   *     ""} when unknown
   * @return true iff the code was new for this (name, identity)
   */
  public boolean record(String name, String code, String identity) {
    boolean known = dev.kcshare.core.records.HazardCodes.isKnown(code);
    if (name.isEmpty() || !known) {
      log.warn(
          "refusing to record hazard {} for server {}: {}",
          Escaper.quoted(code, Escaper.SHORT_LIMIT),
          Escaper.quoted(name, Escaper.SHORT_LIMIT),
          known ? "empty server name" : "not a known hazard code");
      return false;
    }
    boolean isNew = ledger.record(name, code, identity, clock.getAsDouble());
    if (isNew) {
      log.warn(
          "hazard {} observed for server {}",
          Escaper.quoted(code, Escaper.SHORT_LIMIT),
          Escaper.quoted(name, Escaper.SHORT_LIMIT));
    }
    return isNew;
  }

  /**
   * Drops every observation of {@code name} from memory and stamps a clear marker that the next
   * flush writes, so the clear survives a restart and reaches other kcshare readers. The only way
   * evidence is removed (an operator's decision, for example after the gateway misattributed a
   * frame).
   *
   * @param name the configured server name
   * @return true if anything was removed
   */
  public boolean clear(String name) {
    return ledger.clear(name, clock.getAsDouble());
  }

  /**
   * Flushes per docs/design.md#ledger-flush: under the flush mutex and the ledger file lock,
   * applies the file's {@code cleared} markers to memory, then, if dirty, writes a snapshot
   * atomically and marks that snapshot's generation persisted.
   *
   * @return true if the file now holds everything recorded up to this call's snapshot
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public boolean flush() throws InterruptedException {
    flushMutex.lockInterruptibly();
    try {
      // Clean, and no file that could carry clear markers: nothing to apply and nothing to write.
      // Returning before the lock keeps an idle writer's heartbeat from creating the records
      // directory and the lock file (docs/formats.md#where-the-files-live: directories appear only
      // when a file is
      // written). A file created meanwhile is picked up by the next flush.
      if (!ledger.isDirty() && !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        return true;
      }
      FileLock lock;
      try {
        lock = FileLock.tryAcquire(file, LOCK_WAIT);
      } catch (IOException e) {
        log.warn("ledger flush skipped: cannot lock {}: {}", file, e.toString());
        return false;
      }
      if (lock == null) {
        log.warn("ledger flush skipped: {} is locked by another process", file);
        return false;
      }
      try {
        ledger.applyCleared(read(file).cleared());
        if (!ledger.isDirty()) {
          return true;
        }
        LedgerSnapshot snapshot = ledger.snapshot();
        try {
          RecordFile.write(file, LedgerCodec.encode(snapshot));
        } catch (IOException e) {
          log.warn("ledger flush failed, will retry: {}", e.toString());
          return false;
        }
        ledger.markPersisted(snapshot.generation());
        return true;
      } finally {
        release(lock);
      }
    } finally {
      flushMutex.unlock();
    }
  }

  private static void release(FileLock lock) {
    try {
      lock.close();
    } catch (IOException e) {
      log.warn("releasing the ledger lock failed: {}", e.toString());
    }
  }

  /**
   * The cross-process clear (docs/design.md#clearing): under the ledger lock, drops every
   * observation of {@code name} from the file and stamps {@code cleared[name]}, so a live kcshare
   * ledger writer drops its in-memory copy at its next flush. The marker is written even when the
   * file held nothing for the name.
   *
   * @param file the ledger file
   * @param name the configured server name (not empty)
   * @param now epoch seconds for the marker
   * @return true if the file held observations for {@code name}
   * @throws IOException if the file cannot be locked or written
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public static boolean clearInFile(Path file, String name, double now)
      throws IOException, InterruptedException {
    if (name.isEmpty()) {
      throw new IllegalArgumentException("server name must not be empty");
    }
    try (FileLock lock = FileLock.acquire(file)) {
      LedgerLoad load = read(file);
      SortedMap<String, SortedMap<String, HazardRecord>> servers = new TreeMap<>(load.servers());
      boolean had = servers.remove(name) != null;
      Map<String, Double> cleared = new TreeMap<>(load.cleared());
      double at = Double.isFinite(now) ? now : 0.0;
      cleared.merge(name, at, Math::max);
      RecordFile.write(file, LedgerCodec.encode(servers, cleared));
      return had;
    }
  }
}
