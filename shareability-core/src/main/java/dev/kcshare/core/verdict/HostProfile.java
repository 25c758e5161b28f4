package dev.kcshare.core.verdict;

import dev.kcshare.core.json.internal.CodePoints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which configured servers the host product ships, and how each is classified. This is where {@link
 * Evidence#sessionBoundByConstruction()} comes from: never from a handshake and never by loading
 * server code, because the classification must be answerable before any probe ran.
 *
 * <p>Nothing about which servers a machine runs ships with kcshare, so the default profile ({@link
 * #empty()}) claims no name either way. All four sets are stored sorted by code point and
 * unmodifiable.
 *
 * <pre>{@code
 * HostProfile mine = new HostProfile(
 *     Set.of("acme-core", "acme-desktop"),   // managed
 *     Set.of("acme-core"),                   // caller-aware: may be shared
 *     Set.of(),                              // withheld
 *     Set.of());                             // unstubbable
 * mine.sessionBound("acme-desktop");        // true: managed but not caller-aware
 * }</pre>
 *
 * @param managed servers shipped by the host product
 * @param callerAware managed servers that consume the injected caller block and may be classified
 *     shareable
 * @param withheld managed servers that advertise the caller block but are deliberately kept
 *     session-bound
 * @param unstubbable names that can never be stubbed (bulk-stub eligibility only)
 */
public record HostProfile(
    Set<String> managed, Set<String> callerAware, Set<String> withheld, Set<String> unstubbable) {

  private static final List<String> KIROCREW_MANAGED =
      List.of(
          "kirocrew-core",
          "kirocrew-cron",
          "kirocrew-computer",
          "kirocrew-dashboard",
          "kirocrew-work",
          "kirocrew-crew-log",
          "kirocrew-panel");
  private static final String KIROCREW_WITHHELD = "kirocrew-computer";

  private static final HostProfile EMPTY = new HostProfile(Set.of(), Set.of(), Set.of(), Set.of());
  private static final HostProfile KIROCREW = kirocrewProfile();

  /**
   * Validates the profile invariants: callerAware ⊆ managed, withheld ⊆ managed, withheld ∩
   * callerAware = ∅.
   *
   * @param managed servers shipped by the host product
   * @param callerAware managed servers that consume the injected caller block and may be classified
   *     shareable
   * @param withheld managed servers that advertise the caller block but are deliberately kept
   *     session-bound
   * @param unstubbable names that can never be stubbed (bulk-stub eligibility only)
   * @throws IllegalArgumentException naming the offending names when an invariant fails
   * @throws NullPointerException if a set or any element is null
   */
  public HostProfile {
    managed = sortedCopy(managed, "managed");
    callerAware = sortedCopy(callerAware, "callerAware");
    withheld = sortedCopy(withheld, "withheld");
    unstubbable = sortedCopy(unstubbable, "unstubbable");
    List<String> problems = new ArrayList<>(3);
    List<String> awareOutside = outside(callerAware, managed);
    if (!awareOutside.isEmpty()) {
      problems.add("callerAware names not in managed: " + awareOutside);
    }
    List<String> withheldOutside = outside(withheld, managed);
    if (!withheldOutside.isEmpty()) {
      problems.add("withheld names not in managed: " + withheldOutside);
    }
    List<String> both = new ArrayList<>();
    for (String name : withheld) {
      if (callerAware.contains(name)) {
        both.add(name);
      }
    }
    if (!both.isEmpty()) {
      problems.add("names both withheld and callerAware: " + both);
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("invalid host profile: " + String.join("; ", problems));
    }
  }

  /**
   * The default profile: no managed names, so no name is ever claimed session-bound.
   *
   * @return the empty profile
   */
  public static HostProfile empty() {
    return EMPTY;
  }

  /**
   * The Kiro Crew profile: the seven managed servers, all caller-aware except {@code
   * kirocrew-computer}, which is withheld (and therefore the one session-bound name).
   *
   * @return the Kiro Crew profile
   */
  public static HostProfile kirocrew() {
    return KIROCREW;
  }

  /**
   * A built-in profile by its CLI name.
   *
   * @param name {@code "default"} (the empty profile) or {@code "kirocrew"}
   * @return the profile
   * @throws IllegalArgumentException for any other name
   */
  public static HostProfile byName(String name) {
    return switch (name) {
      case "default" -> EMPTY;
      case "kirocrew" -> KIROCREW;
      default ->
          throw new IllegalArgumentException(
              "unknown host profile (expected default or kirocrew): " + name);
    };
  }

  /**
   * Whether the server resolves its session from its own process: a managed name that is not
   * caller-aware. A name outside {@code managed} is never claimed (false); a managed name missing
   * from {@code callerAware} is session-bound, the conservative default for a newly shipped server.
   *
   * @param name the server name
   * @return true iff the name is managed and not caller-aware
   */
  public boolean sessionBound(String name) {
    return managed.contains(name) && !callerAware.contains(name);
  }

  /**
   * Whether the name can never be stubbed (bulk-stub eligibility).
   *
   * @param name the server name
   * @return true iff the profile marks it unstubbable
   */
  public boolean isUnstubbable(String name) {
    return unstubbable.contains(name);
  }

  private static HostProfile kirocrewProfile() {
    Set<String> aware = new LinkedHashSet<>(KIROCREW_MANAGED);
    aware.remove(KIROCREW_WITHHELD);
    return new HostProfile(
        Set.copyOf(KIROCREW_MANAGED), aware, Set.of(KIROCREW_WITHHELD), Set.of());
  }

  private static Set<String> sortedCopy(Set<String> names, String what) {
    Objects.requireNonNull(names, what);
    List<String> sorted = new ArrayList<>(names.size());
    for (String name : names) {
      sorted.add(Objects.requireNonNull(name, () -> what + " contains null"));
    }
    sorted.sort(CodePoints.ORDER);
    return Collections.unmodifiableSet(new LinkedHashSet<>(sorted));
  }

  private static List<String> outside(Set<String> names, Set<String> allowed) {
    List<String> out = new ArrayList<>();
    for (String name : names) {
      if (!allowed.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }
}
