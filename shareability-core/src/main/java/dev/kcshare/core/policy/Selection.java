package dev.kcshare.core.policy;

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
 * The evaluation selection policy (engine spec §10.2): which servers a pass pays two spawns for.
 *
 * @param due the servers to measure now, in order: never-measured first, then previously divergent,
 *     each group in config order, cut to the budget
 * @param stored the stored hits included in the pass result, in config order
 * @param versionDrops rows deleted because the server reported a different version (log them)
 */
public record Selection(
    List<String> due, Map<String, CacheRow> stored, Map<String, CacheLookup> versionDrops) {

  /** No budget: an explicit "measure all". */
  public static final int UNCAPPED = Integer.MAX_VALUE;

  /** The budget of a pass reached incidentally: 2 servers = 4 short-lived processes. */
  public static final int MAX_EVALUATIONS_PER_PASS = 2;

  public Selection {
    due = List.copyOf(due);
    stored = Collections.unmodifiableMap(new LinkedHashMap<>(stored));
    versionDrops = Collections.unmodifiableMap(new LinkedHashMap<>(versionDrops));
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
    if (budget < 0) {
      throw new IllegalArgumentException("budget must not be negative: " + budget);
    }
    List<String> neverMeasured = new ArrayList<>();
    List<String> divergent = new ArrayList<>();
    Map<String, CacheRow> stored = new LinkedHashMap<>();
    Map<String, CacheLookup> drops = new LinkedHashMap<>();
    for (Candidate c : servers) {
      CacheRow hit = null;
      // Without a command there is no identity, so no row can be a hit for it.
      if (c.identity() != null) {
        CacheLookup lookup = cache.get(c.name(), c.identity(), c.currentVersion());
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
    return new Selection(due, stored, drops);
  }
}
