package dev.kcshare.core.records;

import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.json.internal.Maps;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory observed-hazard ledger of a ledger writer (docs/design.md#ledger-in-memory,
 * docs/design.md#ledger-flush): what the routing path records, what views read, and the pure steps
 * of a flush that merges with the file. The file, its lock and the flush mutex are the caller's. An
 * embedder normally uses it through {@code dev.kcshare.host.records.LedgerStore}, which adds the
 * file.
 *
 * <pre>{@code
 * HazardLedger ledger = HazardLedger.create();
 * ledger.record("files-mcp", HazardCodes.UNROUTABLE_SERVER_REQUEST, launchIdentity, now);
 * ledger.codesForName("files-mcp");   // [unroutable_server_request]
 * }</pre>
 *
 * <h2>Merging with the file</h2>
 *
 * <p>Several writers may share one file (two gateway processes, a gateway and {@code kcshare
 * hazards clear}). Each record therefore has two parts: the <em>baseline</em>, what this ledger
 * knows the file holds (loaded, or absorbed at a flush), and the <em>pending</em> observations
 * recorded here since the last successful write, with their times. A flush, under the file lock:
 *
 * <ol>
 *   <li>re-reads the file and {@link #applyCleared applies its clear markers}: every record of a
 *       cleared name that is at or before the marker is dropped, from the baseline and from the
 *       pending times alike, so nothing a clear covers is ever written again;
 *   <li>{@link #absorb absorbs} the file into the baseline: codes are united, {@code count} and
 *       {@code lastSeen} take the larger value, records only another writer made are adopted;
 *   <li>if dirty, {@link #beginFlush begins} the write: the pending observations are sealed into
 *       the plan, whose document is the baseline plus them (a count is the baseline's plus the
 *       observations made here, so two writers' counts add up exactly);
 *   <li>after the write, {@link #flushed} makes the written records the new baseline, or {@link
 *       #flushFailed} hands the sealed observations back to be written next time.
 * </ol>
 *
 * <p>So no writer drops a record it did not make itself, counts and {@code lastSeen} never move
 * backwards, and a clear stamped at T removes exactly the observations made up to T.
 *
 * <h2>Concurrency</h2>
 *
 * <p>{@link #record} runs on the latency-critical routing path, usually for a code that is already
 * recorded (a misbehaving server repeats itself). The structure (name → identity → cell, plus the
 * clear markers) is an immutable {@code State} published through one {@link AtomicReference}; only
 * adding an identity or removing one builds a new {@code State}, by compare-and-set. Each cell is a
 * small mutable holder guarded by its own monitor; a repeat only touches the cell (a window of its
 * pending times, see {@link PendingTimes}), without allocating. A removed cell is first
 * <em>retired</em> under its monitor; an update that finds its cell retired publishes a fresh cell
 * instead, so an observation newer than a clear is never dropped by it.
 *
 * <p>Every change is applied BEFORE the generation is incremented, and {@link #beginFlush} reads
 * the generation BEFORE sealing: after a successful write, the ledger stays dirty exactly when
 * something may be missing from the file.
 *
 * <p>{@link #record}, the reads and {@link #snapshot} are thread-safe and never block on I/O. The
 * flush steps ({@link #applyCleared}, {@link #absorb}, {@link #beginFlush}, {@link #flushed},
 * {@link #flushFailed}) and {@link #clear} must not run concurrently with each other (the caller's
 * flush mutex serialises them), but may run concurrently with recording. The class creates no
 * threads.
 */
public final class HazardLedger {
  private final AtomicReference<State> state = new AtomicReference<>(State.EMPTY);
  private final AtomicLong generation = new AtomicLong();
  private volatile long persistedGeneration;

  private HazardLedger() {}

  /**
   * The longest server name or launch identity a writer records, in UTF-16 code units
   * (docs/design.md#record-limits).
   */
  public static final int MAX_KEY_LENGTH = RecordLimits.MAX_KEY_LENGTH;

  /**
   * Why a record for (name, identity) would be refused for its size, or null when it is within the
   * limits (docs/design.md#record-limits). Cheap: compares lengths only.
   *
   * @param name the server name
   * @param identity the launch identity
   * @return the reason, or null
   */
  public static @Nullable String refusal(String name, String identity) {
    return RecordLimits.refusal(name, identity);
  }

  /**
   * An empty, clean ledger.
   *
   * @return a new ledger with no records and no clear markers
   */
  public static HazardLedger create() {
    return new HazardLedger();
  }

  /**
   * A clean ledger holding what was loaded ({@link #load}).
   *
   * @param load the decoded file, its records becoming the baseline
   * @return a new ledger, not dirty
   */
  public static HazardLedger of(LedgerLoad load) {
    HazardLedger ledger = new HazardLedger();
    ledger.load(load);
    return ledger;
  }

  /**
   * Records one observation of {@code code} for (name, identity) at {@code now} (epoch seconds; a
   * non-finite time counts as 0.0). Refused — returns false and stores nothing — when {@code name}
   * is empty, {@code code} is outside the closed vocabulary, or the name or identity is longer than
   * {@link #MAX_KEY_LENGTH} (so the file stays readable); callers log the refusal (check with
   * {@link HazardCodes#isKnown} and {@link #refusal}). The recording site's gating (shared backend
   * only) is the caller's.
   *
   * @param name the server name
   * @param code the hazard code observed ({@link HazardCodes})
   * @param identity the launch identity, {@code ""} when unattributable
   * @param now the time of the observation, in epoch seconds
   * @return true iff the code was new for (name, identity), so the caller can warn once
   * @throws NullPointerException if an argument is null
   */
  public boolean record(String name, String code, String identity, double now) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(identity, "identity");
    int bit = HazardCodes.bit(code);
    if (bit == 0 || name.isEmpty() || RecordLimits.refusal(name, identity) != null) {
      return false;
    }
    double time = Double.isFinite(now) ? now : 0.0;
    while (true) {
      State current = state.get();
      @Nullable Cell cell = current.cell(name, identity);
      if (cell != null) {
        int outcome = cell.update(bit, time);
        if (outcome != Cell.RETIRED) {
          generation.incrementAndGet();
          return outcome == Cell.NEW_CODE;
        }
      }
      Cell fresh = new Cell();
      fresh.update(bit, time);
      if (state.compareAndSet(current, current.withCell(name, identity, fresh))) {
        generation.incrementAndGet();
        return true;
      }
    }
  }

  /**
   * {@link #record(String, String, String, double)} under the unattributable identity {@code ""}.
   *
   * @param name the server name
   * @param code the hazard code observed ({@link HazardCodes})
   * @param now the time of the observation, in epoch seconds
   * @return true iff the code was new for (name, {@code ""})
   */
  public boolean record(String name, String code, double now) {
    return record(name, code, "", now);
  }

  /**
   * Removes every identity of {@code name} and stamps the marker {@code cleared[name] = now} (kept
   * at the later of an existing marker and now), which the next flush writes: the only deletion
   * path. The marker is stamped even when nothing was held here, since the file may hold records of
   * the name that other writers made; either way the ledger becomes dirty. Flush at once: until the
   * marker is in the file, another writer may merge an observation made after it into a record made
   * before it, which no marker can then separate ({@code LedgerStore.clear} writes it at once).
   *
   * @param name the server name to clear
   * @param now the time of the clear, in epoch seconds
   * @return true iff something was removed from memory
   * @throws NullPointerException if {@code name} is null
   */
  public boolean clear(String name, double now) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      return false;
    }
    while (true) {
      State current = state.get();
      boolean removed = false;
      @Nullable Map<String, Cell> identities = current.servers.get(name);
      if (identities != null) {
        for (Cell cell : identities.values()) {
          removed |= cell.retire();
        }
      }
      State next = current.withoutServer(name);
      if (Double.isFinite(now)) {
        next = next.withMarker(name, now);
      }
      if (next == current || state.compareAndSet(current, next)) {
        generation.incrementAndGet();
        return removed;
      }
    }
  }

  /**
   * Applies clear markers re-read from the file (docs/design.md#clearing, flush step 5): for each
   * marked name, drops every observation the clear covers — pending observations made at or before
   * its marker, by their own times ({@link PendingTimes}), and the baseline: all of it when the
   * marker is newer than this ledger's own (that clear removed the name from the file, so nothing
   * this ledger knew the file to hold survived it, whatever its {@code lastSeen}), else the records
   * last seen at or before the marker — and merges the markers into this ledger's own (maximum per
   * name) so they are written back. Entries with an empty name or a non-finite time are ignored.
   *
   * <p>Dirties the ledger when something was dropped, and also when a marker advanced for a name
   * that still holds (newer) records: the other process removed the whole name from the file, so
   * those records must be written again.
   *
   * @param markers the file's clear markers: name → epoch seconds
   * @return true iff something was dropped
   */
  public boolean applyCleared(Map<String, Double> markers) {
    Objects.requireNonNull(markers, "markers");
    boolean dropped = false;
    while (true) {
      State current = state.get();
      @Nullable Map<String, Map<String, Cell>> servers = null;
      @Nullable Map<String, Double> cleared = null;
      boolean rewrite = false;
      for (Map.Entry<String, Double> marker : markers.entrySet()) {
        String name = marker.getKey();
        Double time = marker.getValue();
        if (name == null || name.isEmpty() || time == null || !Double.isFinite(time)) {
          continue;
        }
        @Nullable Double own = current.cleared.get(name);
        boolean advanced = own == null || time > own;
        if (advanced) {
          if (cleared == null) {
            cleared = new HashMap<>(current.cleared);
          }
          cleared.put(name, time);
        }
        @Nullable Map<String, Cell> identities = current.servers.get(name);
        if (identities == null) {
          continue;
        }
        Map<String, Cell> kept = new HashMap<>();
        for (Map.Entry<String, Cell> identity : identities.entrySet()) {
          int outcome = identity.getValue().clearUpTo(time, advanced);
          if (outcome == Cell.KEPT || outcome == Cell.TRIMMED) {
            kept.put(identity.getKey(), identity.getValue());
          }
          dropped |= outcome == Cell.TRIMMED || outcome == Cell.DROPPED;
        }
        if (kept.size() != identities.size()) {
          if (servers == null) {
            servers = new HashMap<>(current.servers);
          }
          if (kept.isEmpty()) {
            servers.remove(name);
          } else {
            servers.put(name, Collections.unmodifiableMap(kept));
          }
        }
        rewrite |= advanced && !kept.isEmpty();
      }
      if (servers == null && cleared == null) {
        if (dropped) {
          generation.incrementAndGet();
        }
        return dropped;
      }
      State next =
          new State(
              servers == null ? current.servers : Collections.unmodifiableMap(servers),
              cleared == null ? current.cleared : Collections.unmodifiableMap(cleared));
      if (state.compareAndSet(current, next)) {
        if (dropped || rewrite) {
          generation.incrementAndGet();
        }
        return dropped;
      }
    }
  }

  /**
   * Absorbs what the file holds into the baseline (flush step 6, and a reload): for each record,
   * codes are united and {@code count} and {@code lastSeen} take the larger of the file's and the
   * baseline's value; a record this ledger did not hold is adopted. Records of a name whose own
   * clear marker covers them (last seen at or before it) are ignored. Pending observations are
   * untouched, and the ledger is not dirtied: the file already holds what is absorbed.
   *
   * @param onDisk the file as read, tolerantly
   */
  public void absorb(LedgerLoad onDisk) {
    Objects.requireNonNull(onDisk, "onDisk");
    for (Map.Entry<String, SortedMap<String, HazardRecord>> server : onDisk.servers().entrySet()) {
      String name = server.getKey();
      if (name.isEmpty()) {
        continue;
      }
      for (Map.Entry<String, HazardRecord> identity : server.getValue().entrySet()) {
        HazardRecord record = identity.getValue();
        int mask = record.mask();
        if (mask <= 0) {
          continue;
        }
        while (true) {
          State current = state.get();
          @Nullable Double marker = current.cleared.get(name);
          if (marker != null && record.lastSeen() <= marker) {
            break;
          }
          @Nullable Cell cell = current.cell(name, identity.getKey());
          if (cell != null && cell.absorb(mask, record.count(), record.lastSeen())) {
            break;
          }
          Cell fresh = new Cell();
          fresh.absorb(mask, record.count(), record.lastSeen());
          if (state.compareAndSet(current, current.withCell(name, identity.getKey(), fresh))) {
            break;
          }
        }
      }
    }
  }

  /**
   * This ledger, read-only: for handing its state to readers that must not change it.
   *
   * @return a view answering from this ledger's current state
   */
  public LedgerView readOnly() {
    HazardLedger ledger = this;
    return new LedgerView() {
      @Override
      public List<String> codesFor(String name, String identity) {
        return ledger.codesFor(name, identity);
      }

      @Override
      public List<String> codesForName(String name) {
        return ledger.codesForName(name);
      }

      @Override
      public SortedMap<String, List<String>> all() {
        return ledger.all();
      }

      @Override
      public SortedMap<String, Double> clearedMarkers() {
        return ledger.clearedMarkers();
      }

      @Override
      public LedgerSnapshot snapshot() {
        return ledger.snapshot();
      }

      @Override
      public boolean isDirty() {
        return ledger.isDirty();
      }

      @Override
      public long generation() {
        return ledger.generation();
      }
    };
  }

  /**
   * The ledger's own clear markers: name → epoch seconds, in code-point order.
   *
   * @return a copy of the markers
   */
  public SortedMap<String, Double> clearedMarkers() {
    return Maps.sortedCopy(state.get().cleared);
  }

  /**
   * The sorted codes of exactly (name, identity); empty if none. For callers holding the exact
   * launch identity: a launch whose identity has no record of its own reads as unobserved.
   *
   * @param name the server name
   * @param identity the exact launch identity
   * @return the codes recorded for that identity, sorted
   */
  public List<String> codesFor(String name, String identity) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(identity, "identity");
    @Nullable Cell cell = state.get().cell(name, identity);
    return HazardCodes.listOf(cell == null ? 0 : cell.liveCodes());
  }

  /**
   * The sorted union of the codes over every identity of {@code name} (including {@code ""}).
   *
   * @param name the server name
   * @return the codes, empty if none
   */
  public List<String> codesForName(String name) {
    Objects.requireNonNull(name, "name");
    @Nullable Map<String, Cell> identities = state.get().servers.get(name);
    int mask = 0;
    if (identities != null) {
      for (Cell cell : identities.values()) {
        mask |= cell.liveCodes();
      }
    }
    return HazardCodes.listOf(mask);
  }

  /**
   * Name → union of codes, for every name with at least one code, in code-point order.
   *
   * @return an unmodifiable map; each list sorted
   */
  public SortedMap<String, List<String>> all() {
    TreeMap<String, List<String>> out = new TreeMap<>(CodePoints.ORDER);
    for (Map.Entry<String, Map<String, Cell>> server : state.get().servers.entrySet()) {
      int mask = 0;
      for (Cell cell : server.getValue().values()) {
        mask |= cell.liveCodes();
      }
      if (mask != 0) {
        out.put(server.getKey(), HazardCodes.listOf(mask));
      }
    }
    return Collections.unmodifiableSortedMap(out);
  }

  /**
   * A stable copy of everything this ledger holds (baseline and pending alike) and its markers,
   * with the generation captured BEFORE they were read. For views and for writing a file that no
   * one else writes; a writer that shares its file flushes with {@link #beginFlush} instead.
   *
   * @return the snapshot
   */
  public LedgerSnapshot snapshot() {
    long captured = generation.get();
    State current = state.get();
    TreeMap<String, SortedMap<String, HazardRecord>> servers = new TreeMap<>(CodePoints.ORDER);
    for (Map.Entry<String, Map<String, Cell>> server : current.servers.entrySet()) {
      TreeMap<String, HazardRecord> identities = new TreeMap<>(CodePoints.ORDER);
      for (Map.Entry<String, Cell> identity : server.getValue().entrySet()) {
        @Nullable HazardRecord record = identity.getValue().read();
        if (record != null) {
          identities.put(identity.getKey(), record);
        }
      }
      if (!identities.isEmpty()) {
        servers.put(server.getKey(), identities);
      }
    }
    return new LedgerSnapshot(captured, servers, new TreeMap<>(current.cleared));
  }

  /**
   * Begins a write (flush step 8, after {@link #applyCleared} and {@link #absorb} of the file just
   * read): captures the generation, then seals every cell's pending observations into the plan. The
   * plan's snapshot is what to write: each record's baseline plus its sealed observations, and the
   * markers. Observations recorded from now on are pending for the next write. Exactly one of
   * {@link #flushed} and {@link #flushFailed} must follow.
   *
   * @return the plan
   */
  public FlushPlan beginFlush() {
    long captured = generation.get();
    State current = state.get();
    TreeMap<String, SortedMap<String, HazardRecord>> servers = new TreeMap<>(CodePoints.ORDER);
    List<Cell> sealed = new ArrayList<>();
    for (Map.Entry<String, Map<String, Cell>> server : current.servers.entrySet()) {
      TreeMap<String, HazardRecord> identities = new TreeMap<>(CodePoints.ORDER);
      for (Map.Entry<String, Cell> identity : server.getValue().entrySet()) {
        Cell cell = identity.getValue();
        @Nullable HazardRecord record = cell.seal();
        if (record != null) {
          identities.put(identity.getKey(), record);
          sealed.add(cell);
        }
      }
      if (!identities.isEmpty()) {
        servers.put(server.getKey(), identities);
      }
    }
    return new FlushPlan(
        new LedgerSnapshot(captured, servers, new TreeMap<>(current.cleared)), sealed);
  }

  /**
   * Flush steps 5 to 8 against the file just read, under its lock: {@link #applyCleared} its
   * markers, {@link #absorb} its records, then, if dirty, {@link #beginFlush}. Write the plan's
   * document, then call {@link #flushed} or {@link #flushFailed}.
   *
   * @param onDisk the file as read, tolerantly (never one read as future-schema: that file must not
   *     be replaced at all)
   * @return the plan, or null when nothing needs writing (not dirty)
   */
  public @Nullable FlushPlan mergeForFlush(LedgerLoad onDisk) {
    Objects.requireNonNull(onDisk, "onDisk");
    applyCleared(onDisk.cleared());
    absorb(onDisk);
    return isDirty() ? beginFlush() : null;
  }

  /**
   * A clear of {@code name} performed under the file lock, against the file just read: flush steps
   * 5 to 8 with the clear in between. The clear is stamped with {@link LedgerCodec#clearStamp} (the
   * clock reading {@code now}, raised to cover everything the file holds for the name and any
   * existing marker), every identity of the name is dropped from memory, and the plan to write
   * follows: the file without the name's records and with the marker. Write it, then call {@link
   * #flushed} or {@link #flushFailed}. A failed write leaves the clear in memory, written by the
   * next flush.
   *
   * @param onDisk the file as read under the lock, tolerantly (never one read as not understood)
   * @param name the server to clear (an empty name clears nothing)
   * @param now this process's clock, read under the lock, epoch seconds
   * @return the plan; {@link FlushPlan#removedByClear()} says whether memory held the name
   */
  public FlushPlan clearForFlush(LedgerLoad onDisk, String name, double now) {
    Objects.requireNonNull(onDisk, "onDisk");
    Objects.requireNonNull(name, "name");
    applyCleared(onDisk.cleared());
    boolean removed = false;
    if (!name.isEmpty()) {
      double stamp = LedgerCodec.clearStamp(onDisk, name, now);
      @Nullable Double own = state.get().cleared.get(name);
      removed = clear(name, own == null ? stamp : Math.max(own, stamp));
    }
    absorb(onDisk);
    FlushPlan plan = beginFlush();
    return new FlushPlan(plan.snapshot, plan.sealed, removed);
  }

  /**
   * The plan's write succeeded (flush step 11): what it wrote becomes the baseline, and the
   * generation it captured is persisted, so the ledger stays dirty iff something changed since.
   *
   * @param plan the plan whose document was written
   */
  public void flushed(FlushPlan plan) {
    Objects.requireNonNull(plan, "plan");
    for (Cell cell : plan.sealed) {
      cell.commit();
    }
    persistedGeneration = plan.snapshot.generation();
  }

  /**
   * The plan's write failed (flush step 10): its observations are pending again; still dirty.
   *
   * @param plan the plan whose document could not be written
   */
  public void flushFailed(FlushPlan plan) {
    Objects.requireNonNull(plan, "plan");
    for (Cell cell : plan.sealed) {
      cell.abort();
    }
  }

  /**
   * Replaces the whole state with a loaded file (docs/design.md#ledger-in-memory {@code load}): its
   * records, as the baseline, and its clear markers. Does not dirty. Meant for a fresh ledger or a
   * read-only view: it forgets pending observations (a writer that already recorded reloads with
   * {@link #absorb}).
   *
   * @param load the decoded file
   */
  public void load(LedgerLoad load) {
    Objects.requireNonNull(load, "load");
    Map<String, Map<String, Cell>> servers = new HashMap<>();
    for (Map.Entry<String, SortedMap<String, HazardRecord>> server : load.servers().entrySet()) {
      Map<String, Cell> identities = new HashMap<>();
      for (Map.Entry<String, HazardRecord> identity : server.getValue().entrySet()) {
        HazardRecord record = identity.getValue();
        int mask = record.mask();
        if (mask > 0) {
          Cell cell = new Cell();
          cell.absorb(mask, record.count(), record.lastSeen());
          identities.put(identity.getKey(), cell);
        }
      }
      if (!server.getKey().isEmpty() && !identities.isEmpty()) {
        servers.put(server.getKey(), Collections.unmodifiableMap(identities));
      }
    }
    Map<String, Double> cleared = new HashMap<>();
    load.cleared()
        .forEach(
            (name, time) -> {
              if (!name.isEmpty() && Double.isFinite(time)) {
                cleared.put(name, time);
              }
            });
    State previous =
        state.getAndSet(
            new State(Collections.unmodifiableMap(servers), Collections.unmodifiableMap(cleared)));
    for (Map<String, Cell> identities : previous.servers.values()) {
      for (Cell cell : identities.values()) {
        cell.retire();
      }
    }
  }

  /**
   * Whether something changed since the last successful write ({@link #flushed}).
   *
   * @return true iff the generation differs from the one the last successful write persisted
   */
  public boolean isDirty() {
    return generation.get() != persistedGeneration;
  }

  /**
   * The current generation: incremented after every change.
   *
   * @return the generation counter
   */
  public long generation() {
    return generation.get();
  }

  /**
   * A write in progress: what to write ({@link #snapshot()}, {@link #toDocument()}) and the cells
   * whose pending observations it sealed. Obtained from {@link #beginFlush}.
   */
  public static final class FlushPlan {
    private final LedgerSnapshot snapshot;
    private final List<Cell> sealed;
    private final boolean removedByClear;

    private FlushPlan(LedgerSnapshot snapshot, List<Cell> sealed) {
      this(snapshot, sealed, false);
    }

    private FlushPlan(LedgerSnapshot snapshot, List<Cell> sealed, boolean removedByClear) {
      this.snapshot = snapshot;
      this.sealed = sealed;
      this.removedByClear = removedByClear;
    }

    /**
     * For a plan of {@link #clearForFlush}: whether memory held something of the cleared name.
     *
     * @return true iff the clear removed something from memory; false for other plans
     */
    public boolean removedByClear() {
      return removedByClear;
    }

    /**
     * The records and markers to write, with the generation captured before sealing.
     *
     * @return the snapshot to write
     */
    public LedgerSnapshot snapshot() {
      return snapshot;
    }

    /**
     * The document to write ({@link LedgerCodec#encode(LedgerSnapshot)}).
     *
     * @return the encoded snapshot
     */
    public Map<String, Object> toDocument() {
      return LedgerCodec.encode(snapshot);
    }
  }

  /** The immutable structure: never modified after it is published. */
  private static final class State {
    static final State EMPTY = new State(Map.of(), Map.of());

    final Map<String, Map<String, Cell>> servers;
    final Map<String, Double> cleared;

    State(Map<String, Map<String, Cell>> servers, Map<String, Double> cleared) {
      this.servers = servers;
      this.cleared = cleared;
    }

    @Nullable Cell cell(String name, String identity) {
      @Nullable Map<String, Cell> identities = servers.get(name);
      return identities == null ? null : identities.get(identity);
    }

    State withCell(String name, String identity, Cell cell) {
      @Nullable Map<String, Cell> identities = servers.get(name);
      Map<String, Cell> nextIdentities =
          identities == null ? new HashMap<>() : new HashMap<>(identities);
      nextIdentities.put(identity, cell);
      Map<String, Map<String, Cell>> nextServers = new HashMap<>(servers);
      nextServers.put(name, Collections.unmodifiableMap(nextIdentities));
      return new State(Collections.unmodifiableMap(nextServers), cleared);
    }

    State withoutServer(String name) {
      if (!servers.containsKey(name)) {
        return this;
      }
      Map<String, Map<String, Cell>> nextServers = new HashMap<>(servers);
      nextServers.remove(name);
      return new State(Collections.unmodifiableMap(nextServers), cleared);
    }

    State withMarker(String name, double time) {
      @Nullable Double own = cleared.get(name);
      if (own != null && own >= time) {
        return this;
      }
      Map<String, Double> nextCleared = new HashMap<>(cleared);
      nextCleared.put(name, time);
      return new State(servers, Collections.unmodifiableMap(nextCleared));
    }
  }

  /**
   * The observations of one (name, identity); every field is guarded by the monitor. The baseline
   * is what the file is known to hold; pending and sealed observations are per code (index 0:
   * {@code unattributable_notification}, 1: {@code unroutable_server_request}).
   */
  private static final class Cell {
    /** Outcomes of {@link #update}. */
    static final int RETIRED = -1;

    static final int REPEAT = 0;
    static final int NEW_CODE = 1;

    /** Outcomes of {@link #clearUpTo}. */
    static final int KEPT = 0;

    static final int TRIMMED = 1;
    static final int DROPPED = 2;
    static final int ALREADY_RETIRED = 3;

    private int baseCodes;
    private long baseCount;
    private double baseLastSeen;
    private final PendingTimes @Nullable [] pending = new PendingTimes[2];
    private final PendingTimes @Nullable [] sealed = new PendingTimes[2];
    private boolean retired;

    private static int index(int bit) {
      return Integer.numberOfTrailingZeros(bit);
    }

    /** Adds one observation: {@link #NEW_CODE}, {@link #REPEAT} or {@link #RETIRED}. */
    synchronized int update(int bit, double time) {
      if (retired) {
        return RETIRED;
      }
      int before = codes();
      int i = index(bit);
      PendingTimes times = pending[i];
      if (times == null) {
        times = new PendingTimes();
        pending[i] = times;
      }
      times.add(time);
      return (before & bit) == 0 ? NEW_CODE : REPEAT;
    }

    /**
     * Unites a file record with the baseline; false when the cell is retired (the caller then
     * publishes a fresh one).
     */
    synchronized boolean absorb(int mask, long count, double lastSeen) {
      if (retired) {
        return false;
      }
      if (baseCodes == 0) {
        baseCodes = mask;
        baseCount = count;
        baseLastSeen = lastSeen;
      } else {
        baseCodes |= mask;
        baseCount = Math.max(baseCount, count);
        baseLastSeen = Math.max(baseLastSeen, lastSeen);
      }
      return true;
    }

    /** Retires the cell; true iff it held something. */
    synchronized boolean retire() {
      boolean held = !retired && codes() != 0;
      retired = true;
      return held;
    }

    /**
     * Drops what a clear at {@code marker} covers: the whole baseline when {@code baselineRemoved}
     * (a clear newer than this ledger's markers removed the name from the file, and with it all the
     * file held, which is all the baseline is), else the baseline if last seen at or before the
     * marker; pending observations by their own times. {@link #KEPT} (nothing covered), {@link
     * #TRIMMED} (some dropped, some kept), {@link #DROPPED} (everything: the cell is retired) or
     * {@link #ALREADY_RETIRED}.
     */
    synchronized int clearUpTo(double marker, boolean baselineRemoved) {
      if (retired) {
        return ALREADY_RETIRED;
      }
      boolean dropped = false;
      if (baseCodes != 0 && (baselineRemoved || baseLastSeen <= marker)) {
        baseCodes = 0;
        baseCount = 0;
        baseLastSeen = 0.0;
        dropped = true;
      }
      for (PendingTimes[] part : List.of(pending, sealed)) {
        for (int i = 0; i < part.length; i++) {
          PendingTimes times = part[i];
          if (times != null) {
            dropped |= times.clearUpTo(marker);
            if (times.isEmpty()) {
              part[i] = null;
            }
          }
        }
      }
      if (codes() == 0) {
        retired = true;
        return DROPPED;
      }
      return dropped ? TRIMMED : KEPT;
    }

    /** Seals the pending observations for a write; the record to write, or null if none. */
    synchronized @Nullable HazardRecord seal() {
      if (retired) {
        return null;
      }
      for (int i = 0; i < 2; i++) {
        PendingTimes times = pending[i];
        if (times != null) {
          PendingTimes already = sealed[i];
          if (already != null) {
            times.prepend(already); // a plan that was never ended: keep its observations
          }
          sealed[i] = times;
          pending[i] = null;
        }
      }
      return record(true, false);
    }

    /** The sealed observations were written: they are part of the baseline now. */
    synchronized void commit() {
      if (retired) {
        return;
      }
      @Nullable HazardRecord written = record(true, false);
      sealed[0] = null;
      sealed[1] = null;
      if (written != null) {
        baseCodes = written.mask();
        baseCount = written.count();
        baseLastSeen = written.lastSeen();
      }
    }

    /** The write failed: the sealed observations are pending again. */
    synchronized void abort() {
      for (int i = 0; i < 2; i++) {
        PendingTimes times = sealed[i];
        if (times != null) {
          PendingTimes newer = pending[i];
          if (newer == null) {
            pending[i] = times;
          } else {
            newer.prepend(times);
          }
          sealed[i] = null;
        }
      }
    }

    private int codes() {
      int mask = baseCodes;
      for (int i = 0; i < 2; i++) {
        if (holds(pending[i]) || holds(sealed[i])) {
          mask |= 1 << i;
        }
      }
      return mask;
    }

    private static boolean holds(@Nullable PendingTimes times) {
      return times != null && !times.isEmpty();
    }

    synchronized int liveCodes() {
      return retired ? 0 : codes();
    }

    /** Everything held: baseline, sealed and pending; null when retired or empty. */
    synchronized @Nullable HazardRecord read() {
      return retired ? null : record(true, true);
    }

    /** The baseline plus the sealed and/or pending observations, or null when that holds none. */
    private @Nullable HazardRecord record(boolean withSealed, boolean withPending) {
      int mask = baseCodes;
      long count = baseCodes == 0 ? 0 : baseCount;
      double lastSeen = baseCodes == 0 ? Double.NEGATIVE_INFINITY : baseLastSeen;
      for (int i = 0; i < 2; i++) {
        @Nullable PendingTimes first = withSealed ? sealed[i] : null;
        @Nullable PendingTimes second = withPending ? pending[i] : null;
        if (holds(first) || holds(second)) {
          mask |= 1 << i;
        }
        if (holds(first)) {
          count = PendingTimes.saturated(count, first.total());
          lastSeen = Math.max(lastSeen, first.latest());
        }
        if (holds(second)) {
          count = PendingTimes.saturated(count, second.total());
          lastSeen = Math.max(lastSeen, second.latest());
        }
      }
      return mask == 0 ? null : HazardRecord.ofMask(mask, count, lastSeen);
    }
  }
}
