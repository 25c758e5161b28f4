package dev.kcshare.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.SelfTest;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.text.SecretPrefixes;
import dev.kcshare.core.verdict.internal.VerdictJson;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded randomized checks of the properties docs/design.md#tiers-and-recommendations and
 * docs/design.md#order-of-checks require of every verdict. Each seed generates {@value #PER_SEED}
 * evidence records (including malformed JSON content); a failure names the seed, the case index and
 * the input.
 */
class AssessInvariantsTest {
  private static final int PER_SEED = 400;

  /**
   * Retired vocabulary (docs/design.md#reason-layout) that must never appear anywhere in a verdict.
   */
  private static final List<String> RETIRED =
      List.of(
          "first_party_session_scoped",
          "per_client_capability",
          "caller_sensitive_initialize",
          "resources_subscribe",
          "capability_shape_differs");

  private static final Set<Strength> STUB_TIERS =
      EnumSet.of(Strength.DECLARED, Strength.MEASURED, Strength.NO_OBJECTION);

  static LongStream seeds() {
    return Seeds.seeds(25);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void everyVerdictSatisfiesTheTierContract(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Set<Strength> seen = EnumSet.noneOf(Strength.class);
    Set<ReasonCode> seenCodes = EnumSet.noneOf(ReasonCode.class);
    boolean sawShare = false;
    for (int i = 0; i < PER_SEED; i++) {
      Evidence evidence = EvidenceGen.evidence(random);
      Set<String> keys = EvidenceGen.identityKeys(random, evidence);
      try {
        Verdict verdict = check(evidence, keys);
        seen.add(verdict.strength());
        seenCodes.addAll(verdict.codes());
        sawShare |= verdict.recommendShare();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            "seed=" + seed + " case=" + i + "\n evidence=" + evidence + "\n identityKeys=" + keys,
            e);
      }
    }
    // The generator must keep reaching every tier and code, or the checks above prove little.
    assertThat(seen).as("seed=%d tiers", seed).containsExactlyInAnyOrder(Strength.values());
    assertThat(seenCodes).as("seed=%d codes", seed).containsExactlyInAnyOrder(ReasonCode.values());
    assertThat(sawShare).as("seed=%d share", seed).isTrue();
  }

  private static Verdict check(Evidence evidence, Set<String> keys) {
    Verdict verdict = Assessor.assess(evidence, keys);
    Strength tier = verdict.strength();
    List<ReasonCode> codes = verdict.codes();
    boolean ran = Boolean.TRUE.equals(evidence.preflightRan());

    assertThat(verdict.name()).isEqualTo(evidence.name());
    assertThat(verdict.reasons()).isNotEmpty();

    // Stub/share per tier.
    assertThat(verdict.recommendStub()).as("stub").isEqualTo(STUB_TIERS.contains(tier));
    if (verdict.recommendShare()) {
      assertThat(tier).as("share only on declared").isEqualTo(Strength.DECLARED);
    }

    // Which tier (order of checks, steps 1, 2, 3, 5) and the shape of the terminal rows.
    boolean hazards = !evidence.observedHazards().isEmpty();
    boolean configFact = !evidence.isStdio() || evidence.sessionBoundByConstruction();
    boolean unprobed = !evidence.probeOk() || evidence.capabilities() == null;
    assertThat(tier == Strength.REFUTED).as("refuted iff hazards").isEqualTo(hazards);
    assertThat(tier == Strength.DISQUALIFIED).isEqualTo(!hazards && configFact);
    assertThat(tier == Strength.UNKNOWN).isEqualTo(!hazards && !configFact && unprobed);
    if (tier == Strength.REFUTED) {
      assertThat(codes).containsOnly(ReasonCode.OBSERVED_HAZARD);
      assertThat(verdict.reasons())
          .extracting(Reason::detail)
          .containsExactlyElementsOf(evidence.observedHazards());
    }
    if (tier == Strength.DISQUALIFIED) {
      assertThat(codes)
          .containsExactly(
              evidence.isStdio() ? ReasonCode.SESSION_BOUND_BY_CONSTRUCTION : ReasonCode.NOT_STDIO);
    }
    if (tier == Strength.MEASURED) {
      assertThat(ran && !evidence.preflightCallerSensitive()).isTrue();
    }
    if (tier == Strength.NO_OBJECTION) {
      assertThat(ran && !evidence.preflightCallerSensitive()).isFalse();
    }
    if (tier == Strength.DECLARED) {
      assertThat(verdict.recommendShare())
          .as("declared share iff ran, no rotating note and no failed self-test")
          .isEqualTo(
              ran
                  && !codes.contains(ReasonCode.ROTATING_SECRET_ENV)
                  && !codes.contains(ReasonCode.ISOLATION_SELF_TEST_FAILED));
      assertThat(codes.contains(ReasonCode.ISOLATION_SELF_TEST_FAILED))
          .isEqualTo(
              evidence.selfTest() == SelfTest.FAILED || evidence.selfTest() == SelfTest.NOT_RUN);
      assertThat(codes.contains(ReasonCode.ISOLATION_SELF_TEST_PASSED))
          .isEqualTo(evidence.selfTest() == SelfTest.PASSED);
    } else {
      assertThat(codes)
          .doesNotContain(
              ReasonCode.ISOLATION_SELF_TEST_PASSED, ReasonCode.ISOLATION_SELF_TEST_FAILED);
    }

    // Reason layout and notes.
    assertLayout(tier, codes);
    // Era-aware notes (docs/design.md#order-of-checks): logging degrades only a legacy row, a
    // public listing counts only on a modern one.
    if (evidence.era() == Era.MODERN) {
      assertThat(codes).doesNotContain(ReasonCode.DEGRADES_WHEN_SHARED);
    } else {
      assertThat(codes).doesNotContain(ReasonCode.LISTING_PUBLIC);
    }
    if (!evidence.modernOnly()) {
      assertThat(codes).doesNotContain(ReasonCode.MODERN_ONLY);
    }
    assertThat(
            codes.contains(ReasonCode.PREFLIGHT_PASSED)
                && codes.contains(ReasonCode.HANDSHAKE_NOT_REPRODUCIBLE))
        .as("preflight_passed beside handshake_not_reproducible")
        .isFalse();
    if (!hazards && !configFact) {
      List<String> expectedNotes = new ArrayList<>();
      for (String env : evidence.declaredEnvNames()) {
        if (SecretPrefixes.matchesIgnoringCase(env) && !keys.contains(env)) {
          expectedNotes.add(env);
        }
      }
      assertThat(details(verdict, ReasonCode.ROTATING_SECRET_ENV))
          .containsExactlyElementsOf(expectedNotes);
    }
    if (!unprobed && !hazards && !configFact) {
      boolean logging =
          evidence.era() == Era.LEGACY && evidence.capabilities().containsKey("logging");
      assertThat(details(verdict, ReasonCode.DEGRADES_WHEN_SHARED))
          .isEqualTo(logging ? List.of("logging_level") : List.of());
      assertThat(codes.contains(ReasonCode.HANDSHAKE_NOT_REPRODUCIBLE))
          .isEqualTo(ran && evidence.preflightCallerSensitive());
    }
    for (String detail : details(verdict, ReasonCode.NO_TOOL_ANNOTATIONS)) {
      assertThat(detail).isEqualTo(evidence.protocolVersion());
    }

    // preflightRan false ≡ null, and callerSensitive only matters when the pre-flight ran.
    if (!ran) {
      Evidence other =
          evidence.toBuilder()
              .preflightRan(evidence.preflightRan() == null ? Boolean.FALSE : null)
              .preflightCallerSensitive(!evidence.preflightCallerSensitive())
              .build();
      assertThat(Assessor.assess(other, keys)).isEqualTo(verdict);
    }

    // Determinism, including on an equal copy of the input.
    Verdict again = Assessor.assess(evidence.toBuilder().build(), Set.copyOf(keys));
    assertThat(again).isEqualTo(verdict);
    Map<String, Object> json = VerdictJson.toJson(verdict);
    assertThat(VerdictJson.toJson(again)).isEqualTo(json);
    assertThat(VerdictJson.fromJson(json)).isEqualTo(verdict);

    // No retired vocabulary anywhere in the verdict.
    String text = JsonWriter.compact(json);
    for (String retired : RETIRED) {
      assertThat(text).doesNotContain(retired);
    }

    // The export form carries codes and strengths only (docs/design.md#export-contract).
    Map<String, Object> export = VerdictJson.toExport(verdict);
    assertThat(export.keySet())
        .containsExactly("strength", "recommendStub", "recommendShare", "reasons");
    assertThat(export.get("reasons")).isEqualTo(codes.stream().map(ReasonCode::code).toList());
    String exported = JsonWriter.canonical(export);
    if (!evidence.name().isEmpty()) {
      assertThat(exported).doesNotContain(JsonWriter.canonical(evidence.name()));
      assertThat(exported).doesNotContain(evidence.name());
    }
    for (Reason reason : verdict.reasons()) {
      if (!reason.detail().isEmpty()) {
        // As a JSON string: a fixed detail (not_run) may be part of a code's spelling.
        assertThat(exported).doesNotContain(JsonWriter.canonical(reason.detail()));
      }
    }
    return verdict;
  }

  private static List<String> details(Verdict verdict, ReasonCode code) {
    List<String> out = new ArrayList<>();
    for (Reason reason : verdict.reasons()) {
      if (reason.code() == code) {
        out.add(reason.detail());
      }
    }
    return out;
  }

  /**
   * The reason layout (docs/design.md#reason-layout) as slots: each tier's reasons must walk its
   * slots in order, start with the headline, and only the hazard and rotating slots may repeat.
   */
  private static void assertLayout(Strength tier, List<ReasonCode> codes) {
    List<Set<ReasonCode>> slots = layout(tier);
    Set<ReasonCode> repeatable =
        EnumSet.of(ReasonCode.OBSERVED_HAZARD, ReasonCode.ROTATING_SECRET_ENV);
    assertThat(slots.get(0)).as("headline").contains(codes.get(0));
    int slot = 0;
    ReasonCode previous = null;
    for (ReasonCode code : codes) {
      int at = slot;
      while (at < slots.size() && !slots.get(at).contains(code)) {
        at++;
      }
      assertThat(at).as("%s out of place on %s in %s", code, tier, codes).isLessThan(slots.size());
      if (at == slot && previous != null && slots.get(at).contains(previous)) {
        assertThat(repeatable).as("%s repeated in %s", code, codes).contains(code);
      }
      slot = at;
      previous = code;
    }
  }

  private static List<Set<ReasonCode>> layout(Strength tier) {
    Set<ReasonCode> rotating = EnumSet.of(ReasonCode.ROTATING_SECRET_ENV);
    Set<ReasonCode> degrades = EnumSet.of(ReasonCode.DEGRADES_WHEN_SHARED);
    Set<ReasonCode> diverged = EnumSet.of(ReasonCode.HANDSHAKE_NOT_REPRODUCIBLE);
    Set<ReasonCode> support =
        EnumSet.of(ReasonCode.ALL_TOOLS_READ_ONLY, ReasonCode.NO_TOOL_ANNOTATIONS);
    Set<ReasonCode> noTools = EnumSet.of(ReasonCode.NO_TOOLS_LISTED);
    Set<ReasonCode> listingPublic = EnumSet.of(ReasonCode.LISTING_PUBLIC);
    Set<ReasonCode> modernOnly = EnumSet.of(ReasonCode.MODERN_ONLY);
    return switch (tier) {
      case REFUTED -> List.of(EnumSet.of(ReasonCode.OBSERVED_HAZARD));
      case DISQUALIFIED ->
          List.of(EnumSet.of(ReasonCode.NOT_STDIO, ReasonCode.SESSION_BOUND_BY_CONSTRUCTION));
      case UNKNOWN -> List.of(EnumSet.of(ReasonCode.NOT_PROBED), rotating);
      case DECLARED ->
          List.of(
              EnumSet.of(ReasonCode.DECLARES_CALLER_IDENTITY),
              EnumSet.of(ReasonCode.ISOLATION_SELF_TEST_PASSED),
              EnumSet.of(ReasonCode.ALL_TOOLS_READ_ONLY),
              EnumSet.of(ReasonCode.PREFLIGHT_PASSED, ReasonCode.PREFLIGHT_NOT_RUN),
              listingPublic,
              rotating,
              EnumSet.of(ReasonCode.ISOLATION_SELF_TEST_FAILED),
              degrades,
              diverged);
      case MEASURED ->
          List.of(
              EnumSet.of(ReasonCode.PREFLIGHT_PASSED),
              support,
              noTools,
              listingPublic,
              rotating,
              degrades,
              modernOnly);
      case NO_OBJECTION ->
          List.of(
              EnumSet.of(ReasonCode.NO_OBJECTION_FOUND),
              support,
              noTools,
              listingPublic,
              rotating,
              degrades,
              diverged,
              modernOnly);
    };
  }

  /**
   * Random evidence biased towards the documented corner cases, with distinctive names and details.
   */
  static final class EvidenceGen {
    private static final List<String> ENV_CORNERS =
        List.of(
            "oauth_token",
            "OAUTH_TOKEN",
            "Aws_Secret_Key",
            "MY_OAUTH_TOKEN",
            "OAUTHLIB_X",
            "AWS_SESSION",
            "AWS_SECRETS_MANAGER_ARN",
            "AWS_ACCESS_KEY_ID",
            "GITHUB_TOKEN",
            "aws_sess\u0131on_x",
            "SSH_AUTH_SOCK");
    private static final List<String> HAZARDS =
        List.of("unroutable_server_request", "unattributable_notification");

    private EvidenceGen() {}

    static Evidence evidence(SplittableRandom r) {
      return Evidence.builder()
          .name(r.nextInt(10) == 0 ? "" : "Srv-" + hex(r))
          .isStdio(r.nextInt(10) != 0)
          .sessionBoundByConstruction(r.nextInt(10) == 0)
          .probeOk(r.nextInt(10) < 7)
          .capabilities(r.nextInt(7) == 0 ? null : capabilities(r))
          .protocolVersion(r.nextInt(3) == 0 ? "" : "PV-" + hex(r))
          .toolAnnotations(annotations(r))
          .hasTools(r.nextBoolean())
          .declaredEnvNames(envNames(r))
          .observedHazards(r.nextInt(7) == 0 ? hazards(r) : List.of())
          .preflightRan(r.nextInt(3) == 0 ? null : r.nextBoolean())
          .preflightCallerSensitive(r.nextBoolean())
          .era(r.nextInt(3) == 0 ? Era.MODERN : Era.LEGACY)
          .listingPublic(r.nextInt(3) == 0)
          .modernOnly(r.nextInt(4) == 0)
          .selfTest(
              r.nextInt(2) == 0 ? null : SelfTest.values()[r.nextInt(SelfTest.values().length)])
          .build();
    }

    static Set<String> identityKeys(SplittableRandom r, Evidence evidence) {
      Set<String> keys = new HashSet<>();
      for (String env : evidence.declaredEnvNames()) {
        if (r.nextInt(3) == 0) {
          keys.add(r.nextInt(4) == 0 ? env.toLowerCase(java.util.Locale.ROOT) : env);
        }
      }
      if (r.nextBoolean()) {
        keys.add("OAUTH_" + hex(r));
      }
      return keys;
    }

    private static Map<String, @Nullable Object> capabilities(SplittableRandom r) {
      Map<String, @Nullable Object> caps = new LinkedHashMap<>();
      if (r.nextBoolean()) {
        caps.put("tools", r.nextBoolean() ? Map.of() : Map.of("logging", Map.of()));
      }
      if (r.nextInt(3) == 0) {
        caps.put("logging", pick(r, Map.of(), Map.of("level", "info"), null, Boolean.FALSE));
      }
      if (r.nextInt(3) == 0) {
        caps.put("resources", Map.of("subscribe", true, "listChanged", true));
      }
      if (r.nextInt(8) == 0) {
        caps.put("kirocrew.caller-identity", Map.of());
      }
      if (r.nextInt(3) != 0) {
        caps.put("experimental", experimental(r));
      }
      return caps;
    }

    private static @Nullable Object experimental(SplittableRandom r) {
      Map<String, @Nullable Object> declares = new LinkedHashMap<>();
      declares.put("kirocrew.caller-identity", pick(r, Map.of(), null, Boolean.FALSE, 1L));
      Map<Integer, String> hostile = new TreeMap<>(Map.of(1, "x"));
      return pick(
          r,
          declares,
          declares,
          declares,
          declares,
          Map.of("other", Map.of()),
          List.of("kirocrew.caller-identity"),
          "kirocrew.caller-identity",
          7L,
          null,
          hostile);
    }

    private static List<@Nullable Object> annotations(SplittableRandom r) {
      int n = r.nextInt(4);
      boolean clean = r.nextBoolean();
      List<@Nullable Object> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (clean || r.nextInt(3) != 0) {
          out.add(Map.of("readOnlyHint", true));
        } else {
          Map<Integer, Boolean> hostile = new TreeMap<>(Map.of(1, true));
          out.add(
              pick(
                  r,
                  Map.of("readOnlyHint", false),
                  Map.of("readOnlyHint", "true"),
                  Map.of("readOnlyHint", 1L),
                  Map.of("destructiveHint", false),
                  null,
                  "readOnlyHint",
                  List.of(Map.of("readOnlyHint", true)),
                  hostile));
        }
      }
      return out;
    }

    private static List<String> envNames(SplittableRandom r) {
      int n = r.nextInt(4);
      List<String> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        out.add(
            switch (r.nextInt(5)) {
              case 0 -> ENV_CORNERS.get(r.nextInt(ENV_CORNERS.size()));
              case 1 -> "OAUTH_" + hex(r);
              case 2 -> "aws_secret_" + hex(r);
              case 3 -> "PLAIN_" + hex(r);
              default -> out.isEmpty() ? "GH_" + hex(r) : out.get(0); // duplicates stay
            });
      }
      return out;
    }

    private static List<String> hazards(SplittableRandom r) {
      int n = 1 + r.nextInt(3);
      List<String> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        out.add(r.nextBoolean() ? HAZARDS.get(r.nextInt(2)) : "hz_" + hex(r));
      }
      return out;
    }

    private static String hex(SplittableRandom r) {
      return Long.toHexString(r.nextLong() | (1L << 62)).toUpperCase(java.util.Locale.ROOT);
    }

    private static @Nullable Object pick(SplittableRandom r, @Nullable Object... options) {
      return Arrays.asList(options).get(r.nextInt(options.length));
    }
  }
}
