package dev.kcshare.core.records;

import dev.kcshare.core.json.CodePoints;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory observed-hazard ledger of a ledger writer (docs/design.md#ledger-in-memory): what
 * the routing path records, what views read, and what the flusher writes. The file, its lock and
 * the flush mutex are the caller's; this class provides the state and the pure steps of the flush
 * protocol. An embedder normally uses it through {@code dev.kcshare.host.records.LedgerStore},
 * which adds the file.
 *
 * <pre>{@code
 * HazardLedger ledger = HazardLedger.create();
 * ledger.record("files-mcp", HazardCodes.UNROUTABLE_SERVER_REQUEST, launchIdentity, now);
 * ledger.codesForName("files-mcp");   // [unroutable_server_request]
 * }</pre>
 *
 * <h2>Design</h2>
 *
 * <p>{@link #record} runs on the latency-critical routing path, usually for a code that is already
 * recorded (a misbehaving server repeats itself). A copy-on-write snapshot per call would copy the
 * whole map for every repeated frame, so the state is split in two:
 *
 * <ul>
 *   <li><b>Structure</b>: an immutable {@code State} — name → identity → {@code Cell}, plus the
 *       clear markers — published through one {@link AtomicReference}. Only adding an identity (new
 *       name or identity) or removing identities ({@link #clear}, {@link #applyCleared}, {@link
 *       #load}) builds and publishes a new {@code State}, by compare-and-set, retried on a
 *       concurrent publish. These are rare: bounded by the distinct builds that ever misbehaved.
 *   <li><b>Cells</b>: one small mutable holder per (name, identity) with the code bit mask, count
 *       and lastSeen, guarded by the cell's own monitor. A new code for an existing identity and
 *       every repeat only touch the cell. Cells are shared by successive {@code State}s, so a
 *       structural publish never loses a concurrent update.
 * </ul>
 *
 * <p>The repeat path is therefore: two hash lookups on the current {@code State}, one uncontended
 * monitor (a few nanoseconds; the only other holders are readers copying three fields), then the
 * generation increment. It allocates nothing.
 *
 * <p><b>Removal.</b> A removed cell is first <em>retired</em> under its monitor; an update that
 * finds its cell retired takes the structural path and publishes a fresh cell instead. Deciding
 * "lastSeen ≤ marker" and retiring happen under the same monitor as an update, so an observation is
 * either counted in a cell that is still live (and then judged against the marker) or lands in a
 * fresh cell — an observation newer than a marker can never be dropped by it. {@code lastSeen}
 * keeps the maximum of the times recorded, so concurrent callers whose clock readings reach the
 * monitor out of order cannot move it backwards. Readers treat retired cells as absent.
 *
 * <p><b>Dirtiness.</b> Every change is applied (cell update or {@code State} publish) BEFORE the
 * generation is incremented, and {@link #snapshot} reads the generation BEFORE the state: if a
 * snapshot's generation includes an increment, it also sees the change behind it. So after a
 * successful write of {@code snapshot()}, {@link #markPersisted}{@code (snapshot.generation())}
 * leaves the ledger dirty exactly when something may be missing from the file.
 *
 * <p>All methods are thread-safe and non-blocking in the sense of docs/design.md#ledger-in-memory
 * (no I/O, no waiting on a flush); the class creates no threads.
 */
public final class HazardLedger {
  private final AtomicReference<State> state = new AtomicReference<>(State.EMPTY);
  private final AtomicLong generation = new AtomicLong();
  private volatile long persistedGeneration;

  private HazardLedger() {}

  /** An empty, clean ledger. */
  public static HazardLedger create() {
    return new HazardLedger();
  }

  /** A clean ledger holding what was loaded ({@link #load}). */
  public static HazardLedger of(LedgerLoad load) {
    HazardLedger ledger = new HazardLedger();
    ledger.load(load);
    return ledger;
  }

  /**
   * Records one observation of {@code code} for (name, identity) at {@code now} (epoch seconds; a
   * non-finite time counts as 0.0). Refused — returns false and stores nothing — when {@code name}
   * is empty or {@code code} is outside the closed vocabulary; callers log the refusal (check with
   * {@link HazardCodes#isKnown}). The recording site's gating (shared backend only) is the
   * caller's.
   *
   * @return true iff the code was new for (name, identity), so the caller can warn once
   */
  public boolean record(String name, String code, String identity, double now) {
    int bit = HazardCodes.bit(code);
    if (bit == 0 || name.isEmpty()) {
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
      State next = current.withCell(name, identity, new Cell(bit, 1, time));
      if (state.compareAndSet(current, next)) {
        generation.incrementAndGet();
        return true;
      }
    }
  }

  /**
   * {@link #record(String, String, String, double)} under the unattributable identity {@code ""}.
   */
  public boolean record(String name, String code, double now) {
    return record(name, code, "", now);
  }

  /**
   * Removes every identity of {@code name} and records the marker {@code cleared[name] = now} (kept
   * at the later of an existing marker and now). The only deletion path.
   *
   * @return true iff something was removed; false changes nothing (not even the marker)
   */
  public boolean clear(String name, double now) {
    boolean removed = false;
    while (true) {
      State current = state.get();
      @Nullable Map<String, Cell> identities = current.servers.get(name);
      if (identities != null) {
        for (Cell cell : identities.values()) {
          removed |= cell.retire();
        }
      }
      if (!removed) {
        return false;
      }
      State next = current.withoutServer(name);
      if (Double.isFinite(now)) {
        next = next.withMarker(name, now);
      }
      if (state.compareAndSet(current, next)) {
        generation.incrementAndGet();
        return true;
      }
    }
  }

  /**
   * Applies clear markers re-read from the file (docs/design.md#clearing, flush step 3): drops
   * every identity record of each marked name whose lastSeen is at or before the marker, and merges
   * the markers into this ledger's own (maximum per name) so they are written back. Entries with an
   * empty name or a non-finite time are ignored.
   *
   * <p>Dirties the ledger when something was dropped, and also when a marker advanced for a name
   * that still holds (newer) records: the other process removed the whole name from the file, so
   * those records must be written again.
   *
   * @return true iff something was dropped
   */
  public boolean applyCleared(Map<String, Double> markers) {
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
          int outcome = identity.getValue().retireIfSeenBy(time);
          if (outcome == Cell.KEPT) {
            kept.put(identity.getKey(), identity.getValue());
          } else if (outcome == Cell.DROPPED) {
            dropped = true;
          }
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

  /** The ledger's own clear markers: name → epoch seconds, in code-point order. */
  public SortedMap<String, Double> clearedMarkers() {
    return Maps.sortedCopy(state.get().cleared);
  }

  /**
   * The sorted codes of exactly (name, identity); empty if none. For callers holding the exact
   * launch identity: a launch whose identity has no record of its own reads as unobserved.
   */
  public List<String> codesFor(String name, String identity) {
    @Nullable Cell cell = state.get().cell(name, identity);
    return HazardCodes.listOf(cell == null ? 0 : cell.liveCodes());
  }

  /** The sorted union of the codes over every identity of {@code name} (including {@code ""}). */
  public List<String> codesForName(String name) {
    @Nullable Map<String, Cell> identities = state.get().servers.get(name);
    int mask = 0;
    if (identities != null) {
      for (Cell cell : identities.values()) {
        mask |= cell.liveCodes();
      }
    }
    return HazardCodes.listOf(mask);
  }

  /** Name → union of codes, for every name with at least one code, in code-point order. */
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
   * A stable copy of the records and markers, with the generation captured BEFORE they were read
   * (flush step 5). Encode it with {@link LedgerCodec#encode(LedgerSnapshot)}.
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
   * Replaces the whole state with a loaded file (docs/design.md#ledger-in-memory {@code load}): its
   * records and its clear markers. Does not dirty. Meant to be called at start, before recording;
   * an update racing it lands either in the old state (and is discarded with it) or in the new one.
   */
  public void load(LedgerLoad load) {
    Map<String, Map<String, Cell>> servers = new HashMap<>();
    for (Map.Entry<String, SortedMap<String, HazardRecord>> server : load.servers().entrySet()) {
      Map<String, Cell> identities = new HashMap<>();
      for (Map.Entry<String, HazardRecord> identity : server.getValue().entrySet()) {
        HazardRecord record = identity.getValue();
        int mask = record.mask();
        if (mask > 0) {
          identities.put(identity.getKey(), new Cell(mask, record.count(), record.lastSeen()));
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

  /** Whether something changed since the last successful write ({@link #markPersisted}). */
  public boolean isDirty() {
    return generation.get() != persistedGeneration;
  }

  /** The current generation: incremented after every change. */
  public long generation() {
    return generation.get();
  }

  /**
   * Records a successful write of a snapshot taken at {@code generation} (flush step 8). The ledger
   * stays dirty if anything changed after that snapshot's generation was captured.
   */
  public void markPersisted(long generation) {
    persistedGeneration = generation;
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

  /** The mutable observations of one (name, identity); every field is guarded by the monitor. */
  private static final class Cell {
    /** Outcomes of {@link #update}. */
    static final int RETIRED = -1;

    static final int REPEAT = 0;
    static final int NEW_CODE = 1;

    /** Outcomes of {@link #retireIfSeenBy}. */
    static final int KEPT = 0;

    static final int DROPPED = 1;
    static final int ALREADY_RETIRED = 2;

    private int codes;
    private long count;
    private double lastSeen;
    private boolean retired;

    Cell(int codes, long count, double lastSeen) {
      this.codes = codes;
      this.count = count;
      this.lastSeen = lastSeen;
    }

    /** Adds one observation: {@link #NEW_CODE}, {@link #REPEAT} or {@link #RETIRED}. */
    synchronized int update(int bit, double time) {
      if (retired) {
        return RETIRED;
      }
      int before = codes;
      codes = before | bit;
      if (count != Long.MAX_VALUE) {
        count++;
      }
      if (time > lastSeen) {
        lastSeen = time;
      }
      return (before & bit) == 0 ? NEW_CODE : REPEAT;
    }

    /** Retires the cell; true iff it was live. */
    synchronized boolean retire() {
      boolean wasLive = !retired;
      retired = true;
      return wasLive;
    }

    /**
     * Retires the cell if it was last seen at or before {@code marker}: {@link #DROPPED} if this
     * call retired it, {@link #ALREADY_RETIRED}, or {@link #KEPT}.
     */
    synchronized int retireIfSeenBy(double marker) {
      if (retired) {
        return ALREADY_RETIRED;
      }
      if (lastSeen <= marker) {
        retired = true;
        return DROPPED;
      }
      return KEPT;
    }

    synchronized int liveCodes() {
      return retired ? 0 : codes;
    }

    synchronized @Nullable HazardRecord read() {
      return retired ? null : HazardRecord.ofMask(codes, count, lastSeen);
    }
  }
}
