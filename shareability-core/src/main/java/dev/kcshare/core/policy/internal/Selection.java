package dev.kcshare.core.policy.internal;

import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.records.CacheLookup;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.VerdictCache;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The evaluation selection policy (docs/design.md#what-is-due): which servers a pass pays two
 * spawns for.
 *
 * @param due the servers to measure now, in order: never-measured first, then previously divergent,
 *     each group in config order, cut to the budget
 * @param stored the stored hits included in the pass result, in config order
 * @param versionDrops rows deleted because the server reported a different version (log them)
 * @param skipped candidates left out because their pre-flight kept failing ({@link Backoff}), in
 *     config order, each with the time it will be tried again (epoch seconds)
 */
public record Selection(
    List<String> due,
    Map<String, CacheRow> stored,
    Map<String, CacheLookup> versionDrops,
    Map<String, Double> skipped) {

  /** No budget: an explicit "measure all". */
  public static final int UNCAPPED = Integer.MAX_VALUE;

  /** The budget of a pass reached incidentally: 2 servers = 4 short-lived processes. */
  public static final int MAX_EVALUATIONS_PER_PASS = 2;

  /** The largest default process ceiling: four servers measured at once. */
  public static final int MAX_DEFAULT_PROCESS_CEILING = 8;

  /** The smallest process ceiling that still spawns a server's two identities together. */
  public static final int MIN_DEFAULT_PROCESS_CEILING = 2;

  public Selection {
    due = List.copyOf(due);
    stored = Collections.unmodifiableMap(new LinkedHashMap<>(stored));
    versionDrops = Collections.unmodifiableMap(new LinkedHashMap<>(versionDrops));
    skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
  }

  /** A selection that skipped nothing for backoff. */
  public Selection(
      List<String> due, Map<String, CacheRow> stored, Map<String, CacheLookup> versionDrops) {
    this(due, stored, versionDrops, Map.of());
  }

  /**
   * The default process ceiling (live server processes across a pass) for a host with this many
   * processors: one process per processor, at least {@value #MIN_DEFAULT_PROCESS_CEILING} and at
   * most {@value #MAX_DEFAULT_PROCESS_CEILING}. Each measured server runs two processes at once,
   * and starting a server (a Node.js or JVM launch, {@code npx} resolving a package) is CPU-bound
   * for its first second or so; a 2-core host therefore measures one server at a time, its two
   * identities on one core each, instead of starting eight processes on two cores and reporting
   * healthy but slow servers as timeouts.
   */
  public static int defaultProcessCeiling(int availableProcessors) {
    return Math.max(
        MIN_DEFAULT_PROCESS_CEILING, Math.min(MAX_DEFAULT_PROCESS_CEILING, availableProcessors));
  }

  /**
   * One configured server as the policy sees it.
   *
   * @param name the server name
   * @param identity the current cache identity of the definition that would be spawned, or null
   *     when there is none (no command)
   * @param currentVersion a fresh reported version, or {@code ""} (no information)
   * @param spawnable enabled and with a non-empty command
   */
  public record Candidate(
      String name, @Nullable String identity, String currentVersion, boolean spawnable) {
    public Candidate {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(currentVersion, "currentVersion");
      if (spawnable && identity == null) {
        throw new IllegalArgumentException("a spawnable server needs an identity: " + name);
      }
    }
  }

  /**
   * Applies the policy. Looks rows up with {@link VerdictCache#get}, which deletes a row whose
   * reported version changed (a side effect the caller persists at its flush).
   *
   * @param servers the configured servers in config order
   * @param cache the cache loaded under the pass lock
   * @param budget how many servers may be measured; {@link #UNCAPPED} for all
   */
  public static Selection select(List<Candidate> servers, VerdictCache cache, int budget) {
    return select(servers, cache, budget, Map.of());
  }

  /**
   * {@link #select(List, VerdictCache, int)} leaving out the servers in {@code heldBack} (name →
   * retry time, from {@link Backoff#heldBack}): they are neither due nor counted against the
   * budget, and are listed in {@link #skipped()} when they would otherwise have been candidates.
   * Their stored hits are still included.
   */
  public static Selection select(
      List<Candidate> servers, VerdictCache cache, int budget, Map<String, Double> heldBack) {
    return select(servers, cache, budget, heldBack, EraChoice.AUTO);
  }

  /**
   * {@link #select(List, VerdictCache, int, Map)} for a pass of the era choice {@code era}: a row
   * is a hit only when it holds the measurement that choice would make
   * (docs/design.md#rows-of-two-era-choices); otherwise the server is due as if never measured.
   */
  public static Selection select(
      List<Candidate> servers,
      VerdictCache cache,
      int budget,
      Map<String, Double> heldBack,
      EraChoice era) {
    if (budget < 0) {
      throw new IllegalArgumentException("budget must not be negative: " + budget);
    }
    List<String> neverMeasured = new ArrayList<>();
    List<String> divergent = new ArrayList<>();
    Map<String, CacheRow> stored = new LinkedHashMap<>();
    Map<String, CacheLookup> drops = new LinkedHashMap<>();
    Map<String, Double> skipped = new LinkedHashMap<>();
    for (Candidate c : servers) {
      CacheRow hit = null;
      // Without a command there is no identity, so no row can be a hit for it.
      if (c.identity() != null) {
        CacheLookup lookup = cache.get(c.name(), c.identity(), c.currentVersion(), era);
        if (lookup.outcome() == CacheLookup.Outcome.VERSION_CHANGED) {
          drops.put(c.name(), lookup);
        }
        hit = lookup.row();
      }
      if (hit != null) {
        stored.put(c.name(), hit);
      }
      if (!c.spawnable()) {
        continue; // consent withheld, or nothing to spawn: never a candidate
      }
      Double retryAt = heldBack.get(c.name());
      if (retryAt != null && (hit == null || hit.callerSensitive())) {
        skipped.put(c.name(), retryAt);
        continue;
      }
      if (hit == null) {
        neverMeasured.add(c.name());
      } else if (hit.callerSensitive()) {
        divergent.add(c.name());
      }
    }
    List<String> due = new ArrayList<>(neverMeasured);
    due.addAll(divergent);
    if (due.size() > budget) {
      due = due.subList(0, budget);
    }
    return new Selection(due, stored, drops, skipped);
  }
}
