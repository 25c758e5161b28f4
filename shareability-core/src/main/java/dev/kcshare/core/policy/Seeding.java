package dev.kcshare.core.policy;

import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Seeding (docs/design.md#seeding): turns verdicts into configuration once per server. {@link
 * #plan} is pure; {@link #apply} mutates an in-memory {@code mcp_gateway} section and records
 * applied markers. The caller reads, locks and writes the config file and the cache.
 *
 * <p>Seeding writes only {@code stub_overrides}; it never writes {@code stub_servers} (the roster
 * belongs to whoever ships it) and never turns the global sharing switch {@code enabled} on: a wish
 * to share is reported in {@link SeedPlan#wantsShare()} for a separate decision.
 *
 * <p>A server whose verdict is {@code unknown} (never measured, conflicting definitions, disabled)
 * is not seeded and not marked: marking it would use up its one seed with no evidence, and it would
 * never be seeded once measured (docs/seeding.md). {@link #recommendations} applies that rule; it
 * is the one place it lives.
 *
 * <pre>{@code
 * // at start, inside the gateway's own config lock:
 * Map<String, Object> section = config.mcpGatewaySection();          // mutable, in memory
 * Map<String, Recommendation> recommendations = Seeding.recommendations(verdicts);
 * SeedPlan plan = Seeding.plan(cache.applied(), recommendations, Seeding.effectiveStubSet(section));
 * if (Seeding.apply(plan, section, cache::markApplied)) config.write(); // then flush the cache
 * }</pre>
 */
public final class Seeding {
  private Seeding() {}

  /**
   * A server's two recommendations, from its {@link dev.kcshare.core.verdict.Verdict}.
   *
   * @param stub {@code recommendStub}
   * @param share {@code recommendShare}
   */
  public record Recommendation(boolean stub, boolean share) {
    /**
     * The recommendations of a verdict.
     *
     * @param verdict the server's verdict
     * @return its {@code recommendStub} and {@code recommendShare}
     */
    public static Recommendation of(Verdict verdict) {
      return new Recommendation(verdict.recommendStub(), verdict.recommendShare());
    }
  }

  /**
   * Whether seeding may act on a server with this verdict now: not when it is {@code unknown}. Such
   * a server is left unmarked, so the first seed after it has been measured seeds it.
   *
   * @param verdict the server's verdict
   * @return false for {@link Strength#UNKNOWN}, true for every other strength
   */
  public static boolean isSeedable(Verdict verdict) {
    return verdict.strength() != Strength.UNKNOWN;
  }

  /**
   * The recommendations seeding plans from: one per seedable verdict ({@link #isSeedable}), by
   * name; an {@code unknown} verdict is left out, so it is neither seeded nor marked.
   *
   * @param verdicts the servers' verdicts (a repeated name keeps its first verdict)
   * @return the recommendations by name, in the given order
   */
  public static Map<String, Recommendation> recommendations(Collection<Verdict> verdicts) {
    Map<String, Recommendation> out = new LinkedHashMap<>();
    for (Verdict v : verdicts) {
      if (isSeedable(v)) {
        out.putIfAbsent(v.name(), Recommendation.of(v));
      }
    }
    return out;
  }

  /**
   * What seeding would do, each list sorted by code point.
   *
   * @param addStub names to add to the effective stub set
   * @param markApplied names to mark applied
   * @param wantsShare names whose verdict recommends sharing (reported, never acted on)
   */
  public record SeedPlan(List<String> addStub, List<String> markApplied, List<String> wantsShare) {
    /**
     * Copies the lists (unmodifiable).
     *
     * @param addStub names to add to the effective stub set
     * @param markApplied names to mark applied
     * @param wantsShare names whose verdict recommends sharing (reported, never acted on)
     */
    public SeedPlan {
      addStub = List.copyOf(addStub);
      markApplied = List.copyOf(markApplied);
      wantsShare = List.copyOf(wantsShare);
    }

    /**
     * Nothing to write and nothing to mark ({@code wantsShare} is ignored).
     *
     * @return true iff {@code addStub} and {@code markApplied} are both empty
     */
    public boolean isEmpty() {
      return addStub.isEmpty() && markApplied.isEmpty();
    }
  }

  /**
   * The roster, by key presence: {@code stub_servers} when present (a non-array reads as empty;
   * {@code []} means "stub nothing"), else {@code poolable_servers} when {@code enabled} is {@code
   * true}, else empty. Non-empty string elements only; duplicates collapse to the first.
   *
   * @param section the {@code mcp_gateway} section of the host's config
   * @return the roster's names, in list order
   */
  public static List<String> roster(Map<String, ?> section) {
    Object list;
    if (section.containsKey("stub_servers")) {
      list = section.get("stub_servers");
    } else if (Boolean.TRUE.equals(section.get("enabled"))) {
      list = section.get("poolable_servers");
    } else {
      return List.of();
    }
    LinkedHashSet<String> names = new LinkedHashSet<>();
    if (list instanceof List<?> elements) {
      for (Object e : elements) {
        if (e instanceof String s && !s.isEmpty()) {
          names.add(s);
        }
      }
    }
    return new ArrayList<>(names);
  }

  /**
   * The valid overrides: members of {@code stub_overrides} with a non-empty name and a boolean.
   *
   * @param section the {@code mcp_gateway} section of the host's config
   * @return name → override, in the section's order; empty when there is no such member
   */
  public static Map<String, Boolean> validOverrides(Map<String, ?> section) {
    Map<String, Boolean> out = new LinkedHashMap<>();
    if (section.get("stub_overrides") instanceof Map<?, ?> overrides) {
      for (Map.Entry<?, ?> e : overrides.entrySet()) {
        if (e.getKey() instanceof String name
            && !name.isEmpty()
            && e.getValue() instanceof Boolean b) {
          out.put(name, b);
        }
      }
    }
    return out;
  }

  /**
   * The effective stub set: the roster in order minus names overridden {@code false}, then the
   * names overridden {@code true} that are not in the roster, in code-point order.
   *
   * @param section the {@code mcp_gateway} section of the host's config
   * @return the names to stub
   */
  public static List<String> effectiveStubSet(Map<String, ?> section) {
    List<String> roster = roster(section);
    Map<String, Boolean> overrides = validOverrides(section);
    List<String> out = new ArrayList<>();
    for (String name : roster) {
      if (!Boolean.FALSE.equals(overrides.get(name))) {
        out.add(name);
      }
    }
    TreeSet<String> extra = new TreeSet<>(CodePoints.ORDER);
    for (Map.Entry<String, Boolean> e : overrides.entrySet()) {
      if (e.getValue() && !roster.contains(e.getKey())) {
        extra.add(e.getKey());
      }
    }
    out.addAll(extra);
    return out;
  }

  /**
   * Plans seeding (docs/design.md#seeding-plan), visiting names in code-point order: already
   * applied → skipped; stub not recommended → marked applied only; otherwise marked applied, added
   * to the stub set unless already in it, and reported in {@code wantsShare} when sharing is
   * recommended.
   *
   * @param applied the names that already carry an applied marker
   * @param verdicts each server's recommendation, by name
   * @param currentStub the effective stub set now ({@link #effectiveStubSet})
   * @return what to add to the stub set, what to mark applied and what wants sharing
   */
  public static SeedPlan plan(
      Set<String> applied, Map<String, Recommendation> verdicts, Collection<String> currentStub) {
    TreeMap<String, Recommendation> sorted = new TreeMap<>(CodePoints.ORDER);
    sorted.putAll(verdicts);
    Set<String> stubbed = Set.copyOf(currentStub);
    List<String> addStub = new ArrayList<>();
    List<String> markApplied = new ArrayList<>();
    List<String> wantsShare = new ArrayList<>();
    for (Map.Entry<String, Recommendation> e : sorted.entrySet()) {
      String name = e.getKey();
      if (applied.contains(name)) {
        continue;
      }
      markApplied.add(name);
      if (!e.getValue().stub()) {
        continue; // a share without a stub is not reported
      }
      if (!stubbed.contains(name)) {
        addStub.add(name);
      }
      if (e.getValue().share()) {
        wantsShare.add(name);
      }
    }
    return new SeedPlan(addStub, markApplied, wantsShare);
  }

  /**
   * Applies a plan to the {@code mcp_gateway} section (docs/design.md#seeding-apply). An existing
   * valid override is never overwritten, not even an operator's {@code false}
   * (docs/design.md#seeding-apply); the name is still marked applied. When something is added,
   * {@code stub_overrides} is replaced by the valid overrides plus the additions, keys in
   * code-point order (invalid entries are dropped).
   *
   * @param plan the plan to apply ({@link #plan})
   * @param section the mutable section map
   * @param markApplied receives every name of {@code plan.markApplied()}
   * @return true if the section changed
   */
  public static boolean apply(
      SeedPlan plan, Map<String, Object> section, Consumer<String> markApplied) {
    if (plan.isEmpty()) {
      return false;
    }
    boolean changed = false;
    if (!plan.addStub().isEmpty()) {
      List<String> roster = roster(section);
      Map<String, Boolean> valid = validOverrides(section);
      TreeMap<String, Boolean> next = new TreeMap<>(CodePoints.ORDER);
      next.putAll(valid);
      for (String name : plan.addStub()) {
        if (!roster.contains(name) && !valid.containsKey(name)) {
          next.put(name, true);
          changed = true;
        }
      }
      if (changed) {
        section.put("stub_overrides", new LinkedHashMap<>(next));
      }
    }
    plan.markApplied().forEach(markApplied);
    return changed;
  }

  /**
   * Writes {@code stub_overrides[name] = value} for each name, keeping the other valid overrides
   * and rewriting the map with keys in code-point order (the bulk stub and unstub actions).
   *
   * @param section the mutable {@code mcp_gateway} section map
   * @param names the server names to override
   * @param value {@code true} to stub them, {@code false} to unstub them
   * @return true if the section changed
   */
  public static boolean setOverrides(
      Map<String, Object> section, Collection<String> names, boolean value) {
    Map<String, Boolean> valid = validOverrides(section);
    TreeMap<String, Boolean> next = new TreeMap<>(CodePoints.ORDER);
    next.putAll(valid);
    for (String name : names) {
      next.put(name, value);
    }
    Object before = section.get("stub_overrides");
    Map<String, Boolean> after = new LinkedHashMap<>(next);
    if (after.equals(before) && before instanceof Map<?, ?> m && sameOrder(m, after)) {
      return false;
    }
    section.put("stub_overrides", after);
    return true;
  }

  private static boolean sameOrder(Map<?, ?> a, Map<String, Boolean> b) {
    return new ArrayList<>(a.keySet()).equals(new ArrayList<>(b.keySet()));
  }
}
