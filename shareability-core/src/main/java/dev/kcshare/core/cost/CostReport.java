package dev.kcshare.core.cost;

import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * What the configured servers cost at a number of concurrent sessions, and what sharing would give
 * back: the arithmetic of {@code kcshare cost}, pure, for a gateway's own dashboard too.
 *
 * <p>Model: every stdio server runs once per session (a stub keeps its backend 1:1), so today a
 * server costs {@code sessions} times its per-session figures. Sharing one backend across all
 * sessions costs it once, so sharing the servers whose verdict recommends it gives back {@code
 * (sessions - 1)} times their cost. A server that is not launched over stdio has no local process
 * and costs nothing here. Memory sums use {@link SessionCost#memoryBytes()}: proportional memory
 * (PSS) where it was measured, which divides shared pages instead of counting them in every
 * process, else resident memory (RSS), which overstates a sum.
 *
 * <pre>{@code
 * CostReport report = CostReport.of(verdicts, costsByName, 5);
 * long today = report.totals().today().memoryBytes();
 * long back = report.totals().givenBack().memoryBytes();   // sharing what is recommended
 * int unknown = report.totals().missing();                  // servers never measured
 * }</pre>
 *
 * <p>Non-goals: it never recommends anything the verdicts do not (only {@code recommendShare}
 * servers count as shareable), and it does not guess a figure for a server never measured.
 */
public final class CostReport {
  /** The most sessions a report prices (a bound that keeps every product far from overflow). */
  public static final int MAX_SESSIONS = 100_000;

  /**
   * Five sessions: what {@code kcshare cost} prices by default, the count behind the fan-out
   * figures operators report (five concurrent sessions, each starting every configured server).
   */
  public static final int DEFAULT_SESSIONS = 5;

  /**
   * The session counts an export prices ({@link #atReferenceSessions}): one session, {@link
   * #DEFAULT_SESSIONS} and sixteen. A fixed, small set, so that a metric labelled with it has a
   * bounded number of series and a dashboard can pick one without arithmetic.
   */
  public static final List<Integer> REFERENCE_SESSIONS = List.of(1, DEFAULT_SESSIONS, 16);

  private final int sessions;
  private final List<ServerCost> servers;
  private final Totals totals;

  private CostReport(int sessions, List<ServerCost> servers, Totals totals) {
    this.sessions = sessions;
    this.servers = List.copyOf(servers);
    this.totals = totals;
  }

  /**
   * Memory and processes, summed.
   *
   * @param memoryBytes bytes ({@link SessionCost#memoryBytes()} of each server counted)
   * @param processes processes
   */
  public record Figures(long memoryBytes, long processes) {
    /** Nothing. */
    public static final Figures ZERO = new Figures(0, 0);

    Figures plus(SessionCost cost) {
      return new Figures(
          saturatedAdd(memoryBytes, cost.memoryBytes().orElse(0)),
          saturatedAdd(processes, cost.processes().orElse(0)));
    }

    Figures times(long n) {
      return new Figures(saturatedMultiply(memoryBytes, n), saturatedMultiply(processes, n));
    }

    Figures minus(Figures other) {
      return new Figures(
          Math.max(0, memoryBytes - other.memoryBytes), Math.max(0, processes - other.processes));
    }
  }

  /**
   * One server in the report.
   *
   * @param verdict its verdict
   * @param cost its per-session cost, when it was measured
   * @param local it runs as a local process (not {@code not_stdio}), so it costs something
   * @param blocker why it is not recommended for sharing (empty when it is)
   * @param blockerDetail the observation behind the blocker (hazard codes, env names), or {@code
   *     ""}
   */
  public record ServerCost(
      Verdict verdict,
      Optional<SessionCost> cost,
      boolean local,
      Optional<ShareBlocker> blocker,
      String blockerDetail) {
    /**
     * Validates.
     *
     * @param verdict its verdict
     * @param cost its per-session cost, when it was measured
     * @param local it runs as a local process (not {@code not_stdio}), so it costs something
     * @param blocker why it is not recommended for sharing (empty when it is)
     * @param blockerDetail the observation behind the blocker (hazard codes, env names), or {@code
     *     ""}
     * @throws NullPointerException if {@code verdict}, {@code cost}, {@code blocker} or {@code
     *     blockerDetail} is null
     */
    public ServerCost {
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(cost, "cost");
      Objects.requireNonNull(blocker, "blocker");
      Objects.requireNonNull(blockerDetail, "blockerDetail");
    }

    /**
     * The server name.
     *
     * @return the name of {@link #verdict()}
     */
    public String name() {
      return verdict.name();
    }

    /**
     * The memory figure it counts with (PSS if measured, else RSS); empty when unknown.
     *
     * @return the figure in bytes, or empty
     */
    public OptionalLong memoryBytes() {
      return cost.map(SessionCost::memoryBytes).orElse(OptionalLong.empty());
    }

    /**
     * Whether its cost is known: a local server with a memory figure.
     *
     * @return true iff {@link #local()} and {@link #memoryBytes()} is present
     */
    public boolean measured() {
      return local && memoryBytes().isPresent();
    }
  }

  /**
   * The sums of a report.
   *
   * @param measured local servers whose cost is known (they are in every sum)
   * @param missing local servers never measured: not in any sum
   * @param notLocal servers without a local process ({@code not_stdio}): they cost nothing here
   * @param perSession one session's worth of the measured servers
   * @param today {@code sessions} sessions as things are: every stdio server once per session
   * @param shared measured servers whose verdict recommends sharing
   * @param sharedPerSession one session's worth of the {@code shared} servers
   * @param sharedMissing servers recommended for sharing whose cost is unknown (not in any sum)
   * @param givenBack what sharing the {@code shared} servers would give back: {@code (sessions -
   *     1)} times their per-session cost
   * @param withSharing {@code today} minus {@code givenBack}
   */
  public record Totals(
      int measured,
      int missing,
      int notLocal,
      Figures perSession,
      Figures today,
      int shared,
      Figures sharedPerSession,
      int sharedMissing,
      Figures givenBack,
      Figures withSharing) {}

  /**
   * Per-session sums of the servers of one strength tier.
   *
   * @param servers servers of that tier
   * @param missing local servers of that tier whose cost is unknown
   * @param perSession one session's worth of the tier's measured servers
   */
  public record Tier(int servers, int missing, Figures perSession) {}

  /**
   * Prices the servers.
   *
   * @param verdicts one verdict per server, in display order (ties in size keep it)
   * @param costs per-session costs by server name; a name without one is "never measured"
   * @param sessions concurrent sessions, 1 to {@value #MAX_SESSIONS}
   * @return the report
   * @throws IllegalArgumentException if {@code sessions} is out of range
   */
  public static CostReport of(
      List<Verdict> verdicts, Map<String, SessionCost> costs, int sessions) {
    if (sessions < 1 || sessions > MAX_SESSIONS) {
      throw new IllegalArgumentException(
          "sessions must be between 1 and " + MAX_SESSIONS + ": " + sessions);
    }
    List<ServerCost> servers = new ArrayList<>(verdicts.size());
    for (Verdict v : verdicts) {
      servers.add(serverCost(v, costs.get(v.name())));
    }
    // Largest first; unknown sizes last; ties keep the given order (List.sort is stable).
    servers.sort(
        Comparator.comparingLong(
            (ServerCost s) -> s.measured() ? -s.memoryBytes().getAsLong() : Long.MAX_VALUE));
    int measured = 0;
    int missing = 0;
    int notLocal = 0;
    int shared = 0;
    int sharedMissing = 0;
    Figures perSession = Figures.ZERO;
    Figures shareable = Figures.ZERO;
    for (ServerCost s : servers) {
      if (!s.local()) {
        notLocal++;
        continue;
      }
      if (!s.measured()) {
        missing++;
        sharedMissing += s.verdict().recommendShare() ? 1 : 0;
        continue;
      }
      measured++;
      SessionCost cost = s.cost().orElseThrow();
      perSession = perSession.plus(cost);
      if (s.verdict().recommendShare()) {
        shared++;
        shareable = shareable.plus(cost);
      }
    }
    Figures today = perSession.times(sessions);
    Figures givenBack = shareable.times(sessions - 1L);
    Totals totals =
        new Totals(
            measured,
            missing,
            notLocal,
            perSession,
            today,
            shared,
            shareable,
            sharedMissing,
            givenBack,
            today.minus(givenBack));
    return new CostReport(sessions, servers, totals);
  }

  private static ServerCost serverCost(Verdict v, @Nullable SessionCost cost) {
    boolean local = !v.codes().contains(ReasonCode.NOT_STDIO);
    Optional<SessionCost> known =
        cost == null || cost.isEmpty() || !local ? Optional.empty() : Optional.of(cost);
    if (v.recommendShare()) {
      return new ServerCost(v, known, local, Optional.empty(), "");
    }
    ShareBlocker blocker;
    String detail = "";
    switch (v.strength()) {
      case REFUTED -> {
        blocker = ShareBlocker.OBSERVED_HAZARD;
        detail = details(v, ReasonCode.OBSERVED_HAZARD);
      }
      case DISQUALIFIED ->
          blocker = local ? ShareBlocker.SESSION_BOUND_BY_CONSTRUCTION : ShareBlocker.NOT_STDIO;
      case DECLARED -> {
        if (v.codes().contains(ReasonCode.PREFLIGHT_NOT_RUN)
            || !v.codes().contains(ReasonCode.ROTATING_SECRET_ENV)) {
          blocker = ShareBlocker.PREFLIGHT_NOT_RUN;
        } else {
          blocker = ShareBlocker.ROTATING_SECRET_ENV;
          detail = details(v, ReasonCode.ROTATING_SECRET_ENV);
        }
      }
      case UNKNOWN -> blocker = ShareBlocker.NOT_PROBED;
      default -> blocker = ShareBlocker.NO_CALLER_IDENTITY_DECLARATION;
    }
    return new ServerCost(v, known, local, Optional.of(blocker), detail);
  }

  /** The distinct details of the verdict's reasons with that code, comma-separated. */
  private static String details(Verdict v, ReasonCode code) {
    List<String> out = new ArrayList<>();
    for (Reason r : v.reasons()) {
      if (r.code() == code && !r.detail().isEmpty() && !out.contains(r.detail())) {
        out.add(r.detail());
      }
    }
    return String.join(", ", out);
  }

  /**
   * The totals at each of the {@link #REFERENCE_SESSIONS}, in that order: what an export carries
   * (sums only, never a server name), so that "given back at 16 sessions" needs no arithmetic by
   * whoever reads it.
   *
   * @param verdicts one verdict per server
   * @param costs per-session costs by server name; a name without one is "never measured"
   * @return session count to the totals of {@link #of of(verdicts, costs, sessions)}
   */
  public static Map<Integer, Totals> atReferenceSessions(
      List<Verdict> verdicts, Map<String, SessionCost> costs) {
    Map<Integer, Totals> out = new LinkedHashMap<>();
    for (int sessions : REFERENCE_SESSIONS) {
      out.put(sessions, of(verdicts, costs, sessions).totals());
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * The number of concurrent sessions priced.
   *
   * @return 1 to {@value #MAX_SESSIONS}
   */
  public int sessions() {
    return sessions;
  }

  /**
   * Every server, largest per-session memory first, those of unknown cost last.
   *
   * @return the servers in that order
   */
  public List<ServerCost> servers() {
    return servers;
  }

  /**
   * The sums.
   *
   * @return the totals at {@link #sessions()} sessions
   */
  public Totals totals() {
    return totals;
  }

  /**
   * The largest measured servers that are not recommended for sharing, each with its {@link
   * ServerCost#blocker()}: where to look for memory that sharing cannot give back yet.
   *
   * @param limit at most this many
   * @return the servers, largest per-session memory first
   */
  public List<ServerCost> largestUnshareable(int limit) {
    List<ServerCost> out = new ArrayList<>();
    for (ServerCost s : servers) {
      if (out.size() >= limit) {
        break;
      }
      if (s.measured() && s.blocker().isPresent()) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * One session's worth per strength tier, every tier present: what a metrics export may carry
   * (strengths and sums only, never a server name).
   *
   * @return a map with every {@link Strength} as a key
   */
  public Map<Strength, Tier> perStrength() {
    Map<Strength, int[]> counts = new EnumMap<>(Strength.class);
    Map<Strength, Figures> sums = new EnumMap<>(Strength.class);
    for (Strength s : Strength.values()) {
      counts.put(s, new int[2]);
      sums.put(s, Figures.ZERO);
    }
    for (ServerCost s : servers) {
      Strength strength = s.verdict().strength();
      int[] c = counts.get(strength);
      c[0]++;
      if (s.measured()) {
        sums.put(strength, sums.get(strength).plus(s.cost().orElseThrow()));
      } else if (s.local()) {
        c[1]++;
      }
    }
    Map<Strength, Tier> out = new EnumMap<>(Strength.class);
    for (Strength s : Strength.values()) {
      out.put(s, new Tier(counts.get(s)[0], counts.get(s)[1], sums.get(s)));
    }
    return out;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  private static long saturatedMultiply(long a, long n) {
    long hi = Math.multiplyHigh(a, n);
    long lo = a * n;
    return (hi == 0 && lo >= 0) ? lo : Long.MAX_VALUE;
  }
}
