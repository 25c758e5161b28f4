package dev.kcshare.core.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The arithmetic of {@code kcshare cost}. */
final class CostReportTest {
  private static final long MIB = 1024 * 1024;

  static Verdict verdict(String name, Strength s, boolean share, Reason... reasons) {
    boolean stub = s == Strength.DECLARED || s == Strength.MEASURED || s == Strength.NO_OBJECTION;
    return new Verdict(name, s, stub, share, List.of(reasons));
  }

  static final Verdict DECLARED_SHARED =
      verdict(
          "calendar",
          Strength.DECLARED,
          true,
          Reason.of(ReasonCode.DECLARES_CALLER_IDENTITY),
          Reason.of(ReasonCode.PREFLIGHT_PASSED));
  static final Verdict MEASURED =
      verdict("notes", Strength.MEASURED, false, Reason.of(ReasonCode.PREFLIGHT_PASSED));
  static final Verdict REFUTED =
      verdict(
          "tickets",
          Strength.REFUTED,
          false,
          Reason.of(ReasonCode.OBSERVED_HAZARD, "unattributable_notification"),
          Reason.of(ReasonCode.OBSERVED_HAZARD, "unroutable_server_request"));
  static final Verdict NOT_STDIO =
      verdict("docs", Strength.DISQUALIFIED, false, Reason.of(ReasonCode.NOT_STDIO));
  static final Verdict UNKNOWN =
      verdict("billing", Strength.UNKNOWN, false, Reason.of(ReasonCode.NOT_PROBED));

  static Map<String, SessionCost> costs() {
    Map<String, SessionCost> c = new HashMap<>();
    c.put("calendar", SessionCost.of(50 * MIB, 40 * MIB, 1, 300, 200));
    c.put("notes", SessionCost.of(120 * MIB, 84 * MIB, 2, 500, 400));
    c.put("tickets", SessionCost.of(70 * MIB, -1, 3, 200, 100));
    return c;
  }

  static CostReport fleet(int sessions) {
    return CostReport.of(
        List.of(UNKNOWN, DECLARED_SHARED, NOT_STDIO, MEASURED, REFUTED), costs(), sessions);
  }

  @Test
  void serversAreListedLargestFirstWithTheUnknownLast() {
    // notes 84 MiB (PSS), tickets 70 MiB (RSS: no PSS), calendar 40 MiB (PSS); then the rest in
    // the given order.
    assertThat(fleet(5).servers())
        .extracting(CostReport.ServerCost::name)
        .containsExactly("notes", "tickets", "calendar", "billing", "docs");
  }

  @Test
  void totalsForFiveSessions() {
    CostReport.Totals t = fleet(5).totals();
    assertThat(t.measured()).isEqualTo(3);
    assertThat(t.missing()).isEqualTo(1);
    assertThat(t.notLocal()).isEqualTo(1);
    assertThat(t.perSession()).isEqualTo(new CostReport.Figures((84 + 70 + 40) * MIB, 6));
    assertThat(t.today()).isEqualTo(new CostReport.Figures(5 * (84 + 70 + 40) * MIB, 30));
    // Only calendar is recommended for sharing: (5 - 1) x its cost comes back.
    assertThat(t.shared()).isEqualTo(1);
    assertThat(t.sharedPerSession()).isEqualTo(new CostReport.Figures(40 * MIB, 1));
    assertThat(t.sharedMissing()).isZero();
    assertThat(t.givenBack()).isEqualTo(new CostReport.Figures(4 * 40 * MIB, 4));
    assertThat(t.withSharing())
        .isEqualTo(new CostReport.Figures(5 * (84 + 70 + 40) * MIB - 4 * 40 * MIB, 26));
  }

  @Test
  void theReferenceSessionsAreOneTheCostDefaultAndSixteenEachPricedAsOf() {
    assertThat(CostReport.REFERENCE_SESSIONS).containsExactly(1, CostReport.DEFAULT_SESSIONS, 16);
    List<Verdict> verdicts = List.of(UNKNOWN, DECLARED_SHARED, NOT_STDIO, MEASURED, REFUTED);
    Map<Integer, CostReport.Totals> at = CostReport.atReferenceSessions(verdicts, costs());
    assertThat(at.keySet()).containsExactly(1, 5, 16);
    for (int n : at.keySet()) {
      assertThat(at.get(n)).as("%d sessions", n).isEqualTo(fleet(n).totals());
    }
    // Sixteen sessions: calendar (40 MiB, 1 process) comes back fifteen times.
    assertThat(at.get(16).givenBack()).isEqualTo(new CostReport.Figures(15 * 40 * MIB, 15));
    assertThat(at.get(16).today()).isEqualTo(new CostReport.Figures(16 * 194 * MIB, 96));
    assertThat(at.get(1).givenBack()).isEqualTo(CostReport.Figures.ZERO);
  }

  @Test
  void oneSessionHasNothingToGiveBack() {
    CostReport.Totals t = fleet(1).totals();
    assertThat(t.today()).isEqualTo(t.perSession());
    assertThat(t.givenBack()).isEqualTo(CostReport.Figures.ZERO);
    assertThat(t.withSharing()).isEqualTo(t.today());
  }

  @Test
  void whatWouldChangeEachServerThatCannotBeShared() {
    Map<String, CostReport.ServerCost> byName = new LinkedHashMap<>();
    for (CostReport.ServerCost s : fleet(5).servers()) {
      byName.put(s.name(), s);
    }
    assertThat(byName.get("calendar").blocker()).isEmpty();
    assertThat(byName.get("notes").blocker()).hasValue(ShareBlocker.NO_CALLER_IDENTITY_DECLARATION);
    assertThat(byName.get("tickets").blocker()).hasValue(ShareBlocker.OBSERVED_HAZARD);
    assertThat(byName.get("tickets").blockerDetail())
        .isEqualTo("unattributable_notification, unroutable_server_request");
    assertThat(byName.get("docs").blocker()).hasValue(ShareBlocker.NOT_STDIO);
    assertThat(byName.get("docs").local()).isFalse();
    assertThat(byName.get("billing").blocker()).hasValue(ShareBlocker.NOT_PROBED);
    assertThat(fleet(5).largestUnshareable(5))
        .extracting(CostReport.ServerCost::name)
        .containsExactly("notes", "tickets");
    assertThat(fleet(5).largestUnshareable(1))
        .extracting(CostReport.ServerCost::name)
        .containsExactly("notes");
  }

  static Stream<Arguments> declaredWithoutTheShare() {
    return Stream.of(
        Arguments.of(
            List.of(
                Reason.of(ReasonCode.DECLARES_CALLER_IDENTITY),
                Reason.of(ReasonCode.PREFLIGHT_NOT_RUN)),
            ShareBlocker.PREFLIGHT_NOT_RUN,
            ""),
        Arguments.of(
            List.of(
                Reason.of(ReasonCode.DECLARES_CALLER_IDENTITY),
                Reason.of(ReasonCode.PREFLIGHT_PASSED),
                Reason.of(ReasonCode.ROTATING_SECRET_ENV, "OAUTH_TOKEN"),
                Reason.of(ReasonCode.ROTATING_SECRET_ENV, "AWS_SESSION_TOKEN")),
            ShareBlocker.ROTATING_SECRET_ENV,
            "OAUTH_TOKEN, AWS_SESSION_TOKEN"),
        Arguments.of(
            List.of(
                Reason.of(ReasonCode.DECLARES_CALLER_IDENTITY),
                Reason.of(ReasonCode.PREFLIGHT_NOT_RUN),
                Reason.of(ReasonCode.ROTATING_SECRET_ENV, "OAUTH_TOKEN")),
            ShareBlocker.PREFLIGHT_NOT_RUN,
            ""));
  }

  @ParameterizedTest
  @MethodSource("declaredWithoutTheShare")
  void aDeclaredServerWithoutTheShareSaysWhy(
      List<Reason> reasons, ShareBlocker blocker, String detail) {
    Verdict v = new Verdict("s", Strength.DECLARED, true, false, reasons);
    CostReport.ServerCost s =
        CostReport.of(List.of(v), Map.of("s", SessionCost.of(1, 1, 1, 1, 1)), 2).servers().get(0);
    assertThat(s.blocker()).hasValue(blocker);
    assertThat(s.blockerDetail()).isEqualTo(detail);
  }

  @Test
  void aSessionBoundServerIsLocalAndBlockedByTheProfile() {
    Verdict v =
        verdict(
            "computer",
            Strength.DISQUALIFIED,
            false,
            Reason.of(ReasonCode.SESSION_BOUND_BY_CONSTRUCTION));
    CostReport r =
        CostReport.of(List.of(v), Map.of("computer", SessionCost.of(10, -1, 1, 1, 1)), 3);
    assertThat(r.servers().get(0).blocker()).hasValue(ShareBlocker.SESSION_BOUND_BY_CONSTRUCTION);
    assertThat(r.totals().today()).isEqualTo(new CostReport.Figures(30, 3));
  }

  @Test
  void aNotStdioServerNeverCostsAnythingEvenWithAStrayFigure() {
    CostReport r =
        CostReport.of(List.of(NOT_STDIO), Map.of("docs", SessionCost.of(10, 10, 1, 1, 1)), 5);
    assertThat(r.servers().get(0).cost()).isEmpty();
    assertThat(r.totals().today()).isEqualTo(CostReport.Figures.ZERO);
    assertThat(r.totals().notLocal()).isEqualTo(1);
    assertThat(r.totals().missing()).isZero();
  }

  @Test
  void aSharedServerOfUnknownCostIsCountedAsMissing() {
    CostReport r =
        CostReport.of(List.of(DECLARED_SHARED, MEASURED), Map.of("notes", costs().get("notes")), 5);
    assertThat(r.totals().shared()).isZero();
    assertThat(r.totals().sharedMissing()).isEqualTo(1);
    assertThat(r.totals().missing()).isEqualTo(1);
    assertThat(r.totals().givenBack()).isEqualTo(CostReport.Figures.ZERO);
  }

  @Test
  void aCostWithoutMemoryIsUnknownAndMissingProcessesAddNothing() {
    Map<String, SessionCost> c = new HashMap<>();
    c.put("notes", SessionCost.of(-1, -1, 2, 500, 400));
    c.put("calendar", SessionCost.of(10, -1, -1, -1, -1));
    CostReport r = CostReport.of(List.of(MEASURED, DECLARED_SHARED), c, 2);
    assertThat(r.totals().measured()).isEqualTo(1);
    assertThat(r.totals().missing()).isEqualTo(1);
    assertThat(r.totals().perSession()).isEqualTo(new CostReport.Figures(10, 0));
  }

  @Test
  void perStrengthHasEveryTierAndOnlySums() {
    Map<Strength, CostReport.Tier> tiers = fleet(5).perStrength();
    assertThat(tiers).containsOnlyKeys(Strength.values());
    assertThat(tiers.get(Strength.MEASURED))
        .isEqualTo(new CostReport.Tier(1, 0, new CostReport.Figures(84 * MIB, 2)));
    assertThat(tiers.get(Strength.REFUTED))
        .isEqualTo(new CostReport.Tier(1, 0, new CostReport.Figures(70 * MIB, 3)));
    assertThat(tiers.get(Strength.UNKNOWN))
        .isEqualTo(new CostReport.Tier(1, 1, CostReport.Figures.ZERO));
    assertThat(tiers.get(Strength.DISQUALIFIED))
        .isEqualTo(new CostReport.Tier(1, 0, CostReport.Figures.ZERO));
    assertThat(tiers.get(Strength.NO_OBJECTION))
        .isEqualTo(new CostReport.Tier(0, 0, CostReport.Figures.ZERO));
  }

  @Test
  void sessionsOutOfRangeAreRefused() {
    assertThatThrownBy(() -> fleet(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> fleet(CostReport.MAX_SESSIONS + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void hugeFiguresSaturateInsteadOfOverflowing() {
    Map<String, SessionCost> c = new HashMap<>();
    c.put("notes", SessionCost.of(Long.MAX_VALUE / 2, -1, Long.MAX_VALUE / 2, 1, 1));
    c.put("calendar", SessionCost.of(Long.MAX_VALUE / 2 + 10, -1, 1, 1, 1));
    CostReport.Totals t =
        CostReport.of(List.of(MEASURED, DECLARED_SHARED), c, CostReport.MAX_SESSIONS).totals();
    assertThat(t.perSession().memoryBytes()).isEqualTo(Long.MAX_VALUE);
    assertThat(t.today().memoryBytes()).isEqualTo(Long.MAX_VALUE);
    assertThat(t.today().processes()).isEqualTo(Long.MAX_VALUE);
    assertThat(t.withSharing().memoryBytes()).isNotNegative();
  }

  static Stream<Long> seeds() {
    long base = Long.getLong("kcshare.seed", 20261201L);
    return IntStream.range(0, 40).mapToObj(i -> base + i);
  }

  /**
   * Seeded fleets: the invariants hold whatever the verdicts and figures are. Reproduce one with
   * {@code -Dkcshare.seed=N}.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void invariantsOnSeededFleets(long seed) {
    Random random = new Random(seed);
    List<Verdict> verdicts = new ArrayList<>();
    Map<String, SessionCost> c = new HashMap<>();
    Verdict[] kinds = {DECLARED_SHARED, MEASURED, REFUTED, NOT_STDIO, UNKNOWN};
    int n = random.nextInt(30);
    for (int i = 0; i < n; i++) {
      Verdict k = kinds[random.nextInt(kinds.length)];
      Verdict v =
          new Verdict("s" + i, k.strength(), k.recommendStub(), k.recommendShare(), k.reasons());
      verdicts.add(v);
      if (random.nextInt(4) != 0) {
        c.put(
            v.name(),
            SessionCost.of(
                random.nextInt(1 << 30),
                random.nextBoolean() ? random.nextInt(1 << 30) : -1,
                1 + random.nextInt(4),
                random.nextInt(3000),
                random.nextInt(3000)));
      }
    }
    int sessions = 1 + random.nextInt(20);
    CostReport r = CostReport.of(verdicts, c, sessions);
    CostReport.Totals t = r.totals();
    assertThat(r.servers()).hasSize(n);
    assertThat(t.measured() + t.missing() + t.notLocal()).isEqualTo(n);
    long perSession = 0;
    long shared = 0;
    long previous = Long.MAX_VALUE;
    boolean unknownSeen = false;
    for (CostReport.ServerCost s : r.servers()) {
      if (s.measured()) {
        assertThat(unknownSeen).as("measured after unknown").isFalse();
        long m = s.memoryBytes().getAsLong();
        assertThat(m).isLessThanOrEqualTo(previous);
        previous = m;
        perSession += m;
        shared += s.verdict().recommendShare() ? m : 0;
      } else {
        unknownSeen = true;
      }
      assertThat(s.blocker().isEmpty()).isEqualTo(s.verdict().recommendShare());
    }
    assertThat(t.perSession().memoryBytes()).isEqualTo(perSession);
    assertThat(t.today().memoryBytes()).isEqualTo(perSession * sessions);
    assertThat(t.givenBack().memoryBytes()).isEqualTo(shared * (sessions - 1));
    assertThat(t.withSharing().memoryBytes())
        .isEqualTo(t.today().memoryBytes() - t.givenBack().memoryBytes());
    assertThat(t.withSharing().memoryBytes()).isGreaterThanOrEqualTo(perSession);
    long tiers = 0;
    for (CostReport.Tier tier : r.perStrength().values()) {
      tiers += tier.perSession().memoryBytes();
    }
    assertThat(tiers).isEqualTo(perSession);
  }
}
