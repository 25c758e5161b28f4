package dev.kcshare.host.records;

import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.records.LedgerView;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.FileProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ledger writer: the in-memory {@link HazardLedger} bound to its file, with the flush protocol of
 * docs/design.md#ledger-flush, merging with the file, and the cross-process clear of
 * docs/design.md#clearing.
 *
 * <p>Several writers may share one file (two gateway processes, or a gateway and {@code kcshare
 * hazards clear}): every flush re-reads the file under its lock and writes the union of what it
 * holds and what this writer holds, so no writer drops what another recorded, counts add up, and a
 * clear removes exactly what was observed before it, whatever any writer still held in memory.
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
  private final LedgerView view;
  private final DoubleSupplier clock;
  private final ReentrantLock flushMutex = new ReentrantLock();
  private @Nullable String lastWarning; // guarded by flushMutex
  private @Nullable FileProblem lastFailure; // guarded by flushMutex
  private boolean quiet; // guarded by flushMutex

  /**
   * A writer of {@code file}, loaded from it (blocking: reads the file; a missing or unusable file
   * is "nothing observed"). Even a writer that loaded nothing never drops what the file holds: its
   * flushes merge.
   *
   * @param file the ledger file ({@code observed-hazards.json})
   * @param clock wall-clock epoch seconds
   * @throws NullPointerException if an argument is null
   */
  public LedgerStore(Path file, DoubleSupplier clock) {
    this.file = Objects.requireNonNull(file, "file");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ledger = HazardLedger.of(read(file));
    this.view = ledger.readOnly();
  }

  /**
   * The in-memory state, read-only ({@code codesFor}, {@code codesForName}, {@code all}). It holds
   * what this writer recorded and what it found in the file at its last load or flush; it changes
   * only through this writer.
   *
   * @return a read-only view of the live ledger
   */
  public LedgerView ledger() {
    return view;
  }

  /**
   * Reads the ledger file tolerantly (never throws; a bad file is "nothing observed").
   *
   * @param file the ledger file
   * @return what it holds
   * @throws NullPointerException if {@code file} is null
   */
  public static LedgerLoad read(Path file) {
    return RecordFile.readLedger(Objects.requireNonNull(file, "file")).value();
  }

  /**
   * Reads the file for a writer that will replace it, under its lock.
   *
   * @throws FileProblem when the file must be left as it is: written by a newer version or
   *     otherwise not understood, or present but unreadable (its records could not be merged)
   */
  private static LedgerLoad readForWrite(Path file) throws FileProblem {
    RecordFile.Loaded<LedgerLoad> read = RecordFile.readLedger(file);
    return read.forWriting(file, read.value().refusal());
  }

  /**
   * Reads the file again and unites it with memory; nothing recorded here is dropped. Does not
   * dirty. (The constructor already loads; a flush absorbs the file too.)
   */
  public void load() {
    ledger.absorb(read(file));
  }

  /**
   * Records a hazard observed on a SHARED backend (the caller's duty to check). Refused — false,
   * nothing stored, one warning — for an empty name, an unknown code, or a name or identity longer
   * than {@link HazardLedger#MAX_KEY_LENGTH} characters (so the file always reads back).
   *
   * @param name the configured server name
   * @param code a hazard code ({@link dev.kcshare.core.records.HazardCodes#ALL})
   * @param identity the backend's launch identity ({@code Shareability.launchIdentity}), or {@code
   *     ""} when unknown
   * @return true iff the code was new for this (name, identity)
   * @throws NullPointerException if an argument is null
   */
  public boolean record(String name, String code, String identity) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(identity, "identity");
    boolean known = dev.kcshare.core.records.HazardCodes.isKnown(code);
    String tooLong = HazardLedger.refusal(name, identity);
    if (name.isEmpty() || !known || tooLong != null) {
      log.warn(
          "refusing to record hazard {} for server {}: {}",
          Escaper.quoted(code, Escaper.SHORT_LIMIT),
          Escaper.quoted(name, Escaper.SHORT_LIMIT),
          !known ? "not a known hazard code" : tooLong != null ? tooLong : "empty server name");
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
   * Records an observation that the caller has already checked ({@code name} not empty, {@code
   * code} known, neither key over {@link HazardLedger#MAX_KEY_LENGTH}), without logging: for a
   * writer whose record runs on a gateway's routing thread and reports from its flush thread.
   *
   * @return true iff the code was new for this (name, identity); false also for an input that
   *     should have been refused (nothing is then stored)
   * @throws NullPointerException if an argument is null
   */
  public boolean recordChecked(String name, String code, String identity) {
    return ledger.record(name, code, identity, clock.getAsDouble());
  }

  /**
   * Clears {@code name} under the ledger lock (docs/design.md#clearing): stamps a clear marker with
   * the clock read while the lock is held (raised to cover what the file holds for the name), drops
   * every observation of the name from memory and from the file, and writes the file at once
   * (blocking), so no other writer can merge an older observation back and the clear reaches every
   * kcshare reader and writer. If the lock cannot be had or the write fails, memory is cleared and
   * the next flush writes the marker. The only way evidence is removed (an operator's decision, for
   * example after the gateway misattributed a frame).
   *
   * @param name the configured server name (an empty name changes nothing)
   * @return true if anything was removed from memory
   * @throws NullPointerException if {@code name} is null
   */
  public boolean clear(String name) {
    Objects.requireNonNull(name, "name");
    boolean interrupted = false;
    flushMutex.lock();
    try {
      try {
        Boolean removed = clearLocked(name);
        if (removed != null) {
          return removed;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
      // The file could not be locked, read or written: clear memory now; the next flush writes it.
      return ledger.clear(name, clock.getAsDouble());
    } finally {
      flushMutex.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The clear under the ledger lock (docs/design.md#clearing): stamped by the clock read while the
   * lock is held, raised to cover what the file holds for the name, and written at once.
   *
   * @return whether memory held the name, or null when the clear could not be written (nothing was
   *     changed then, except when the write itself failed: the clear is then in memory)
   */
  private @Nullable Boolean clearLocked(String name) throws InterruptedException {
    if (name.isEmpty()) {
      return false;
    }
    FileLock lock;
    Path target;
    try {
      target = RecordsTrust.requireWritableFile(file);
      lock = FileLock.tryAcquire(target, LOCK_WAIT);
    } catch (IOException e) {
      warnOnce(
          "ledger clear not written, will retry: "
              + FileProblem.of("lock", FileLock.lockFileFor(file), e).getMessage());
      return null;
    }
    if (lock == null) {
      log.warn("ledger clear not written yet: {} is locked by another process", file);
      return null;
    }
    try {
      LedgerLoad onDisk;
      try {
        onDisk = readForWrite(target);
      } catch (FileProblem e) {
        warnOnce("ledger clear not written, kept in memory: " + e.getMessage());
        return null;
      }
      HazardLedger.FlushPlan plan = ledger.clearForFlush(onDisk, name, clock.getAsDouble());
      boolean written = false;
      try {
        RecordFile.write(target, LedgerCodec.encode(plan.snapshot(), onDisk.extras()));
        written = true;
        lastWarning = null;
      } catch (IOException e) {
        warnOnce(
            "ledger clear not written, will retry: "
                + FileProblem.of("write", file, e).getMessage());
      } finally {
        if (written) {
          ledger.flushed(plan);
        } else {
          ledger.flushFailed(plan);
        }
      }
      return plan.removedByClear();
    } catch (RuntimeException e) {
      log.warn("ledger clear failed (an error of kcshare's own), will retry: {}", e.toString());
      log.debug("ledger clear failed", e);
      return null;
    } finally {
      release(lock);
    }
  }

  /**
   * Flushes per docs/design.md#ledger-flush: under the flush mutex and the ledger file lock,
   * re-reads the file, applies its {@code cleared} markers to memory and absorbs its records, then,
   * if dirty, writes the union atomically. Never throws an unchecked exception: every failure is
   * logged, reported as false, and retried by the next flush (nothing recorded is lost meanwhile;
   * the in-memory copy still guards this process).
   *
   * @return true if the file now holds everything recorded up to this call
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public boolean flush() throws InterruptedException {
    flushMutex.lockInterruptibly();
    try {
      return flushLocked();
    } finally {
      flushMutex.unlock();
    }
  }

  /**
   * As {@link #flush()}, logging as it does, and telling why it failed: for a scheduled flush whose
   * owner also hands the failure to a listener (the next flush retries).
   *
   * @return null if the file now holds everything recorded up to this call, else the problem
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public @Nullable FileProblem flushTelling() throws InterruptedException {
    flushMutex.lockInterruptibly();
    try {
      lastFailure = null;
      return flushLocked() ? null : failureOrUnknown();
    } finally {
      flushMutex.unlock();
    }
  }

  /**
   * As {@link #flush()}, telling why instead of logging: for a last flush whose owner reports the
   * failure itself (nothing retries it).
   *
   * @return null if the file now holds everything recorded up to this call, else the problem
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public @Nullable FileProblem flushReporting() throws InterruptedException {
    flushMutex.lockInterruptibly();
    try {
      lastFailure = null;
      quiet = true;
      return flushLocked() ? null : failureOrUnknown();
    } finally {
      quiet = false;
      flushMutex.unlock();
    }
  }

  private FileProblem failureOrUnknown() {
    FileProblem f = lastFailure;
    return f != null
        ? f
        : FileProblem.of("write", file, new IOException("an error of kcshare's own"));
  }

  private boolean flushLocked() throws InterruptedException {
    try {
      // Clean, and no file that could carry clear markers: nothing to apply and nothing to write.
      // Returning before the lock keeps an idle writer's heartbeat from creating the records
      // directory and the lock file (docs/formats.md#where-the-files-live: directories appear
      // only when a file is written). A file created meanwhile is picked up by the next flush.
      if (!ledger.isDirty() && !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        return true;
      }
      FileLock lock;
      Path target;
      try {
        target = RecordsTrust.requireWritableFile(file);
        lock = FileLock.tryAcquire(target, LOCK_WAIT);
      } catch (IOException e) {
        lastFailure = FileProblem.of("lock", FileLock.lockFileFor(file), e);
        warnOnce("ledger flush skipped, will retry: " + lastFailure.getMessage());
        return false;
      }
      if (lock == null) {
        lastFailure =
            FileProblem.of(
                "lock",
                FileLock.lockFileFor(file),
                new IOException(
                    "held by another process for more than " + LOCK_WAIT.toSeconds() + " s"));
        if (!quiet) {
          log.warn("ledger flush skipped: {} is locked by another process", file);
        }
        return false;
      }
      try {
        LedgerLoad onDisk;
        try {
          onDisk = readForWrite(target);
        } catch (FileProblem e) {
          lastFailure = e;
          warnOnce("ledger not written, evidence kept in memory: " + e.getMessage());
          return false;
        }
        HazardLedger.FlushPlan plan = ledger.mergeForFlush(onDisk);
        if (plan == null) {
          lastWarning = null;
          return true;
        }
        boolean written = false;
        try {
          RecordFile.write(target, LedgerCodec.encode(plan.snapshot(), onDisk.extras()));
          written = true;
          lastWarning = null;
        } catch (IOException e) {
          lastFailure = FileProblem.of("write", file, e);
          warnOnce("ledger flush failed, will retry: " + lastFailure.getMessage());
          return false;
        } finally {
          if (written) {
            ledger.flushed(plan);
          } else {
            ledger.flushFailed(plan);
          }
        }
        return true;
      } finally {
        release(lock);
      }
    } catch (RuntimeException e) {
      if (!quiet) {
        log.warn("ledger flush failed (an error of kcshare's own), will retry: {}", e.toString());
      }
      log.debug("ledger flush failed", e);
      return false;
    }
  }

  /**
   * Logs a flush failure, once until it changes or a flush succeeds: a heartbeat retrying every
   * minute against a read-only file must not fill the log.
   */
  private void warnOnce(String message) {
    if (quiet) {
      log.debug("{}", Escaper.esc(message, Escaper.LONG_LIMIT));
    } else if (!message.equals(lastWarning)) {
      log.warn("{}", Escaper.esc(message, Escaper.LONG_LIMIT));
      lastWarning = message;
    } else {
      log.debug("{}", Escaper.esc(message, Escaper.LONG_LIMIT));
    }
  }

  private static void release(FileLock lock) {
    try {
      lock.close();
    } catch (IOException e) {
      log.warn(
          "{}",
          FileProblem.of("release the lock", FileLock.lockFileFor(lock.recordFile()), e)
              .getMessage());
    }
  }

  /**
   * The cross-process clear (docs/design.md#clearing): under the ledger lock, drops every
   * observation of {@code name} from the file and stamps {@code cleared[name]}, so a live kcshare
   * ledger writer drops its in-memory copy at its next flush. The stamp is {@code clock} read while
   * the lock is held, raised to cover every record the file holds for the name ({@link
   * LedgerCodec#clearStamp}): a clock read before waiting for the lock would let a writer's flush
   * meanwhile put newer observations in the file that the clear then removes but a writer could not
   * tell from the ones after it. The marker is written even when the file held nothing for the
   * name.
   *
   * @param file the ledger file
   * @param name the configured server name (not empty)
   * @param clock epoch seconds for the stamp, read once the lock is held
   * @return true if the file held observations for {@code name}
   * @throws FileProblem if the file cannot be locked or written, or must be left as it is (written
   *     by a newer version, not understood, or unreadable), or others may write the records
   *     directory ({@link RecordsTrust}): the file is then unchanged
   * @throws IOException if the file cannot be locked or written
   * @throws InterruptedException if interrupted while waiting for the lock
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code name} is empty
   */
  public static boolean clearInFile(Path file, String name, DoubleSupplier clock)
      throws IOException, InterruptedException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(clock, "clock");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("server name must not be empty");
    }
    FileLock lock;
    Path target;
    try {
      target = RecordsTrust.requireWritableFile(file);
      lock = FileLock.acquire(target);
    } catch (IOException e) {
      throw FileProblem.of("write", file, e);
    }
    try (lock) {
      LedgerLoad load = readForWrite(target);
      try {
        RecordFile.write(target, LedgerCodec.encodeCleared(load, name, clock.getAsDouble()));
      } catch (IOException e) {
        throw FileProblem.of("write", file, e);
      }
      return load.servers().containsKey(name);
    }
  }

  /**
   * {@link #clearInFile(Path, String, DoubleSupplier)} with a fixed clock reading (raised, as
   * always, to cover what the file holds for the name).
   */
  public static boolean clearInFile(Path file, String name, double now)
      throws IOException, InterruptedException {
    return clearInFile(file, name, () -> now);
  }
}
