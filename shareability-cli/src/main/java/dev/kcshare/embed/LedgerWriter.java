package dev.kcshare.embed;

import dev.kcshare.api.RecordResult;
import dev.kcshare.api.RecordsException;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.FileProblem;
import dev.kcshare.host.FileProblems;
import dev.kcshare.host.records.LedgerStore;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's writer of the hazard ledger: what it saw on SHARED backends. Obtained from {@link
 * Shareability#openLedger}, loaded from the ledger file so a restart forgets nothing; one per
 * facade at a time.
 *
 * <pre>{@code
 * LedgerWriter ledger = kc.openLedger(Duration.ofMinutes(1)); // loads; flushes every minute
 * ledger.record(name, HazardCodes.UNROUTABLE_SERVER_REQUEST, launchIdentity); // routing path
 * ledger.close();                                              // at shutdown: the last flush
 * }</pre>
 *
 * <p>{@link #record} and the reads ({@link #codesFor}, {@link #codesForName}, {@link #all}) are in
 * memory, never block and never log: safe on an event loop. What {@code record} refused, and the
 * hazards newly observed, are logged by the next flush, on the thread that flushes. {@link #flush},
 * {@link #clear} and {@link #close} do file I/O under the ledger file's lock and belong on a
 * background thread. Once the writer (or its facade) is closed, {@code record} returns {@link
 * RecordResult#REFUSED} (a gateway's event loop may still route during its shutdown) and every
 * other method but {@code close} throws {@link IllegalStateException}. Thread-safe.
 */
public final class LedgerWriter implements AutoCloseable {
  /**
   * The shortest period {@link Shareability#openLedger(java.time.Duration)} accepts between
   * scheduled flushes: 10 ms. Each flush locks, reads and rewrites the ledger file.
   */
  public static final java.time.Duration MIN_FLUSH_PERIOD = java.time.Duration.ofMillis(10);

  private static final Logger log = LoggerFactory.getLogger(LedgerWriter.class);

  /** Why a record was refused: each kind is logged once per writer. */
  private enum Refusal {
    EMPTY_NAME,
    UNKNOWN_CODE,
    TOO_LONG
  }

  /** The refusals of one kind: how many, the first one in words, and whether it was logged. */
  private static final class Refused {
    final AtomicLong count = new AtomicLong();
    final AtomicReference<@Nullable String> first = new AtomicReference<>();
    final AtomicBoolean logged = new AtomicBoolean();
  }

  private final Shareability owner;
  private final LedgerStore store;
  private final Consumer<RecordsException> onFlushFailure;
  private final Runnable onClose;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Map<Refusal, Refused> refused = new EnumMap<>(Refusal.class);
  private final Set<String> newlyObserved = ConcurrentHashMap.newKeySet();
  private volatile @Nullable ScheduledFuture<?> schedule;
  private @Nullable String lastTold; // the scheduled flushes' last failure; only their thread

  LedgerWriter(
      Shareability owner,
      LedgerStore store,
      Consumer<RecordsException> onFlushFailure,
      Runnable onClose) {
    this.owner = Objects.requireNonNull(owner, "owner");
    this.store = Objects.requireNonNull(store, "store");
    this.onFlushFailure = Objects.requireNonNull(onFlushFailure, "onFlushFailure");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
    for (Refusal r : Refusal.values()) {
      refused.put(r, new Refused());
    }
  }

  /** Refuses a flush period shorter than {@link #MIN_FLUSH_PERIOD} (before a writer is opened). */
  static void requireFlushPeriod(Duration flushEvery) {
    Objects.requireNonNull(flushEvery, "flushEvery");
    if (flushEvery.compareTo(MIN_FLUSH_PERIOD) < 0) {
      throw new IllegalArgumentException(
          "flushEvery must be at least " + MIN_FLUSH_PERIOD.toMillis() + " ms: " + flushEvery);
    }
  }

  /** Flushes every {@code period} on {@code executor} until closed. */
  void scheduleFlushes(ScheduledExecutorService executor, Duration period) {
    long nanos = period.toNanos();
    this.schedule =
        executor.scheduleWithFixedDelay(this::flushQuietly, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  private void flushQuietly() {
    try {
      flushScheduled(); // not written this time: logged once; the next flush retries
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("the scheduled ledger flush failed; the next one retries", e);
    }
  }

  /** The facade that opened this writer. */
  Shareability owner() {
    return owner;
  }

  LedgerStore store() {
    return store;
  }

  private void ensureOpen() {
    if (closed.get()) {
      throw new IllegalStateException("this ledger writer is closed");
    }
  }

  /**
   * Records a hazard observed on a SHARED backend: no exclusive owner and at least two sessions
   * attached (the caller's duty to check). In memory, no I/O, no logging; the next flush writes it.
   *
   * @param name the configured server name
   * @param code a hazard code ({@link dev.kcshare.core.records.HazardCodes})
   * @param launchIdentity the backend's launch identity ({@link Shareability#launchIdentity}), or
   *     {@code ""} when unknown
   * @return {@link RecordResult#RECORDED} when the code is new for this name and identity, {@link
   *     RecordResult#ALREADY_RECORDED} when it was known (the observation still counts), {@link
   *     RecordResult#REFUSED} for an empty or blank name, an unknown code, or an over-long name or
   *     identity (nothing stored; the next flush logs the kind once), and once this writer is
   *     closed (nothing stored, nothing logged)
   * @throws NullPointerException if an argument is null
   */
  public RecordResult record(String name, String code, String launchIdentity) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(launchIdentity, "identity");
    if (closed.get()) {
      return RecordResult.REFUSED; // during a shutdown race: nothing is flushed any more
    }
    Refusal refusal =
        name.isBlank()
            ? Refusal.EMPTY_NAME
            : !HazardCodes.isKnown(code)
                ? Refusal.UNKNOWN_CODE
                : HazardLedger.refusal(name, launchIdentity) != null ? Refusal.TOO_LONG : null;
    if (refusal != null) {
      Refused r = refused.get(refusal);
      r.count.incrementAndGet();
      r.first.compareAndSet(null, code + "\0" + name + "\0" + launchIdentity);
      return RecordResult.REFUSED;
    }
    if (store.recordChecked(name, code, launchIdentity)) {
      newlyObserved.add(code + "\0" + name);
      return RecordResult.RECORDED;
    }
    return RecordResult.ALREADY_RECORDED;
  }

  /**
   * Drops every observation of {@code name}, here and in the file: stamps a clear marker and writes
   * it at once (blocking), so no other writer merges an older observation back. If that write
   * fails, the next flush retries. The only way evidence is removed: an operator's decision.
   *
   * @param name the configured server name
   * @return true if anything was removed from memory
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalStateException if this writer is closed
   */
  public boolean clear(String name) {
    Objects.requireNonNull(name, "name");
    ensureOpen();
    report();
    return store.clear(name);
  }

  /**
   * Writes what was recorded (merging with the file, applying clears other processes stamped), and
   * logs what {@link #record} refused and observed since the last flush. Never throws for a failed
   * write: it logs why once, returns false, and the next flush retries; nothing recorded is lost
   * meanwhile.
   *
   * @return true if the file now holds everything recorded up to this call
   * @throws InterruptedException if interrupted while waiting for the file lock
   * @throws IllegalStateException if this writer is closed
   */
  public boolean flush() throws InterruptedException {
    ensureOpen();
    report();
    return store.flush();
  }

  /**
   * A scheduled flush: nothing once closed (the close makes the last one). A failure is logged and
   * handed to the facade's {@code onFlushFailure} listener once while it lasts (again when it
   * changes, or after a flush that succeeded); the next flush retries, and nothing recorded is lost
   * meanwhile.
   */
  void flushScheduled() throws InterruptedException {
    if (!closed.get()) {
      report();
      FileProblem failure = store.flushTelling();
      String message = failure == null ? null : String.valueOf(failure.getMessage());
      String before = lastTold;
      lastTold = message;
      if (failure != null && !message.equals(before) && !closed.get()) {
        tell(FileProblems.asRecordsException(failure, owner.ledgerPath()));
      }
    }
  }

  private void tell(RecordsException problem) {
    try {
      onFlushFailure.accept(problem);
    } catch (RuntimeException e) {
      log.debug("the onFlushFailure listener failed", e);
    }
  }

  /**
   * The hazard codes observed for one launch of a server. In memory: a read-only answer.
   *
   * @param name the configured server name
   * @param launchIdentity the launch identity
   * @return the codes, sorted (unmodifiable)
   * @throws IllegalStateException if this writer is closed
   */
  public List<String> codesFor(String name, String launchIdentity) {
    ensureOpen();
    return List.copyOf(store.ledger().codesFor(name, launchIdentity));
  }

  /**
   * The hazard codes observed for a server under any launch identity: the evidence a verdict uses.
   *
   * @param name the configured server name
   * @return the codes, sorted (unmodifiable)
   * @throws IllegalStateException if this writer is closed
   */
  public List<String> codesForName(String name) {
    ensureOpen();
    return List.copyOf(store.ledger().codesForName(name));
  }

  /**
   * Every server with observed hazards and its codes.
   *
   * @return a copy, by server name (unmodifiable, as are its lists)
   * @throws IllegalStateException if this writer is closed
   */
  public SortedMap<String, List<String>> all() {
    ensureOpen();
    return store.ledger().all();
  }

  /**
   * Stops the scheduled flushes (if any) and flushes once more, waiting for a scheduled flush that
   * is running. When that last flush fails, the facade's {@code onFlushFailure} listener receives
   * the problem and it is logged, once. Idempotent: later calls do nothing. {@link
   * Shareability#close()} closes every writer it opened.
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
      report();
      FileProblem failure;
      while (true) {
        try {
          failure = store.flushReporting();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the last flush still runs: what was recorded must reach the file
        }
      }
      if (failure != null) {
        RecordsException problem = FileProblems.asRecordsException(failure, owner.ledgerPath());
        log.warn(
            "the ledger's last flush failed; what was recorded since the last successful flush is"
                + " lost: {}",
            Escaper.esc(String.valueOf(problem.getMessage()), Escaper.LONG_LIMIT));
        tell(problem);
      }
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

  /** Logs, on the flushing thread, what was newly observed and each kind of refusal once. */
  private void report() {
    for (String entry : newlyObserved) {
      if (!newlyObserved.remove(entry)) {
        continue; // a concurrent flush took it, and logs it
      }
      String[] pair = entry.split("\0", 2);
      log.warn(
          "hazard {} observed for server {}",
          Escaper.quoted(pair[0], Escaper.SHORT_LIMIT),
          Escaper.quoted(pair[1], Escaper.SHORT_LIMIT));
    }
    for (Map.Entry<Refusal, Refused> e : refused.entrySet()) {
      Refused r = e.getValue();
      String first = r.first.get();
      if (first == null || !r.logged.compareAndSet(false, true)) {
        continue;
      }
      String[] parts = first.split("\0", 3);
      String why =
          switch (e.getKey()) {
            case EMPTY_NAME -> parts[1].isEmpty() ? "empty server name" : "blank server name";
            case UNKNOWN_CODE -> "not a known hazard code";
            case TOO_LONG -> String.valueOf(HazardLedger.refusal(parts[1], parts[2]));
          };
      log.warn(
          "refusing to record hazard {} for server {}: {} ({} such record(s) so far; logged once)",
          Escaper.quoted(parts[0], Escaper.SHORT_LIMIT),
          Escaper.quoted(parts[1], Escaper.SHORT_LIMIT),
          why,
          r.count.get());
    }
  }
}
