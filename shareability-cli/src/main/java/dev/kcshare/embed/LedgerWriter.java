package dev.kcshare.embed;

import dev.kcshare.host.records.LedgerStore;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The gateway's writer of the hazard ledger: what it saw on SHARED backends. Obtained from {@link
 * Shareability#openLedger}, loaded from the ledger file so a restart forgets nothing.
 *
 * <pre>{@code
 * LedgerWriter ledger = kc.openLedger(Duration.ofMinutes(1)); // loads; flushes every minute
 * ledger.record(name, HazardCodes.UNROUTABLE_SERVER_REQUEST, launchIdentity); // routing path
 * ledger.close();                                              // at shutdown: the last flush
 * }</pre>
 *
 * <p>{@link #record} and the reads ({@link #codesFor}, {@link #codesForName}, {@link #all}) are in
 * memory and never block: safe on an event loop. {@link #flush}, {@link #clear} and {@link #close}
 * do file I/O under the ledger file's lock and belong on a background thread. Thread-safe.
 */
public final class LedgerWriter implements AutoCloseable {
  private final LedgerStore store;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Runnable onClose;
  private volatile @Nullable ScheduledFuture<?> schedule;

  LedgerWriter(LedgerStore store, Runnable onClose) {
    this.store = Objects.requireNonNull(store, "store");
    this.onClose = onClose;
  }

  void schedule(ScheduledFuture<?> flushes) {
    this.schedule = flushes;
  }

  LedgerStore store() {
    return store;
  }

  /**
   * Records a hazard observed on a SHARED backend: no exclusive owner and at least two sessions
   * attached (the caller's duty to check). In memory; the next flush writes it. Refused — false,
   * nothing stored, one warning — for an empty name, an unknown code, or an over-long name or
   * identity.
   *
   * @param name the configured server name
   * @param code a hazard code ({@link dev.kcshare.core.records.HazardCodes})
   * @param launchIdentity the backend's launch identity ({@link Shareability#launchIdentity}), or
   *     {@code ""} when unknown
   * @return true iff the code was new for this name and identity
   * @throws NullPointerException if an argument is null
   */
  public boolean record(String name, String code, String launchIdentity) {
    return store.record(name, code, launchIdentity);
  }

  /**
   * Drops every observation of {@code name}, here and in the file: stamps a clear marker and writes
   * it at once (blocking), so no other writer merges an older observation back. If that write
   * fails, the next flush retries. The only way evidence is removed: an operator's decision.
   *
   * @param name the configured server name
   * @return true if anything was removed from memory
   * @throws NullPointerException if {@code name} is null
   */
  public boolean clear(String name) {
    return store.clear(name);
  }

  /**
   * Writes what was recorded (merging with the file, applying clears other processes stamped).
   * Never throws for a failed write: it logs, returns false, and the next flush retries; nothing
   * recorded is lost meanwhile.
   *
   * @return true if the file now holds everything recorded up to this call
   * @throws InterruptedException if interrupted while waiting for the file lock
   */
  public boolean flush() throws InterruptedException {
    return store.flush();
  }

  /**
   * The hazard codes observed for one launch of a server. In memory: a read-only answer.
   *
   * @param name the configured server name
   * @param launchIdentity the launch identity
   * @return the codes, sorted (unmodifiable)
   */
  public List<String> codesFor(String name, String launchIdentity) {
    return List.copyOf(store.ledger().codesFor(name, launchIdentity));
  }

  /**
   * The hazard codes observed for a server under any launch identity: the evidence a verdict uses.
   *
   * @param name the configured server name
   * @return the codes, sorted (unmodifiable)
   */
  public List<String> codesForName(String name) {
    return List.copyOf(store.ledger().codesForName(name));
  }

  /**
   * Every server with observed hazards and its codes.
   *
   * @return a copy, by server name
   */
  public SortedMap<String, List<String>> all() {
    return store.ledger().all();
  }

  /**
   * Stops the scheduled flushes (if any) and flushes once more. Idempotent: later calls do nothing.
   * {@link Shareability#close()} closes every writer it opened.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    ScheduledFuture<?> flushes = schedule;
    if (flushes != null) {
      flushes.cancel(false);
    }
    boolean interrupted = Thread.interrupted();
    try {
      store.flush();
    } catch (InterruptedException e) {
      interrupted = true;
    } finally {
      onClose.run();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Whether {@link #close()} was called. */
  boolean isClosed() {
    return closed.get();
  }
}
