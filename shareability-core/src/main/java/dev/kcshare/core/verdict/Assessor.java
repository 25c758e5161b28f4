package dev.kcshare.core.verdict;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.SelfTest;
import dev.kcshare.core.text.SecretPrefixes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The verdict function: turns one server's {@link Evidence} into a {@link Verdict}.
 *
 * <p>Model: evidence is ranked, and the ranking is the load-bearing property. An observation (the
 * hazard ledger) outranks everything; config and transport facts come next; then the server's own
 * declaration; then a pre-flight that replayed identically; then the mere absence of objections.
 * Inferences (a divergent pre-flight, a capability that degrades when shared, a rotating-secret env
 * name) are notes: they are reported and, except for the rotating-secret share withholding on
 * {@code declared}, gate nothing.
 *
 * <p>Rules, in the order evaluated (the first terminal step wins):
 *
 * <ol>
 *   <li>any observed hazard: {@code refuted}, one {@code observed_hazard} per hazard;
 *   <li>not stdio: {@code disqualified}, {@code not_stdio};
 *   <li>session-bound by construction: {@code disqualified};
 *   <li>rotating-secret notes are collected (before the probe gate, so they reach {@code unknown});
 *   <li>no observed handshake: {@code unknown};
 *   <li>degradation and divergence notes are collected;
 *   <li>caller-identity declared: {@code declared}, the only tier that can recommend sharing;
 *   <li>otherwise {@code measured} (pre-flight ran, no divergence) or {@code no_objection}.
 * </ol>
 *
 * <p>Non-goals: no IO, no configuration, no clock; every input is an argument, so the ordering is
 * verified by unit tests. Malformed JSON content inside the evidence (a list where an object was
 * expected, a non-boolean hint) is handled by the predicates and never raises.
 */
public final class Assessor {
  /** The experimental member whose presence declares the caller-identity extension. */
  static final String CALLER_IDENTITY = "kirocrew.caller-identity";

  /**
   * The 2026-07-28 form of the declaration: an extension identifier (vendor prefix and slash) in
   * {@code capabilities.extensions}, whose value is the extension's settings object.
   */
  public static final String CALLER_IDENTITY_EXTENSION = "dev.kcshare/caller-identity";

  private static final Reason NOT_STDIO = Reason.of(ReasonCode.NOT_STDIO);
  private static final Reason SESSION_BOUND = Reason.of(ReasonCode.SESSION_BOUND_BY_CONSTRUCTION);
  private static final Reason NOT_PROBED = Reason.of(ReasonCode.NOT_PROBED);
  private static final Reason DECLARES = Reason.of(ReasonCode.DECLARES_CALLER_IDENTITY);
  private static final Reason PASSED = Reason.of(ReasonCode.PREFLIGHT_PASSED);
  private static final Reason NOT_RUN = Reason.of(ReasonCode.PREFLIGHT_NOT_RUN);
  private static final Reason NO_OBJECTION = Reason.of(ReasonCode.NO_OBJECTION_FOUND);
  private static final Reason READ_ONLY = Reason.of(ReasonCode.ALL_TOOLS_READ_ONLY);
  private static final Reason NO_TOOLS = Reason.of(ReasonCode.NO_TOOLS_LISTED);
  private static final Reason DEGRADES_LOGGING =
      Reason.of(ReasonCode.DEGRADES_WHEN_SHARED, "logging_level");
  private static final Reason DIVERGED = Reason.of(ReasonCode.HANDSHAKE_NOT_REPRODUCIBLE);
  private static final Reason LISTING_PUBLIC = Reason.of(ReasonCode.LISTING_PUBLIC);
  private static final Reason MODERN_ONLY = Reason.of(ReasonCode.MODERN_ONLY);
  private static final Reason SELF_TEST_PASSED = Reason.of(ReasonCode.ISOLATION_SELF_TEST_PASSED);
  private static final Reason SELF_TEST_FAILED = Reason.of(ReasonCode.ISOLATION_SELF_TEST_FAILED);
  private static final Reason SELF_TEST_NOT_RUN =
      Reason.of(ReasonCode.ISOLATION_SELF_TEST_FAILED, "not_run");

  private static final List<Reason> ONLY_NOT_STDIO = List.of(NOT_STDIO);
  private static final List<Reason> ONLY_SESSION_BOUND = List.of(SESSION_BOUND);
  private static final List<Reason> ONLY_NOT_PROBED = List.of(NOT_PROBED);

  private Assessor() {}

  /**
   * Assesses one server.
   *
   * <pre>{@code
   * Verdict v = Assessor.assess(evidence, IdentityKeys.resolve(section.get("pool_identity_env")));
   * }</pre>
   *
   * @param evidence everything known about the server
   * @param identityKeys the resolved pool identity env names ({@link IdentityKeys#resolve}); a
   *     declared name in this set (exact, case-sensitive) raises no rotating-secret note and does
   *     not withhold the share. Trusted as given.
   * @return the verdict; never null, reasons never empty. Never throws for well-typed arguments,
   *     whatever JSON content the evidence carries.
   */
  public static Verdict assess(Evidence evidence, Set<String> identityKeys) {
    String name = evidence.name();

    // 1. Refutation: an observation outranks everything, nothing else is evaluated.
    List<String> hazards = evidence.observedHazards();
    if (!hazards.isEmpty()) {
      Reason[] reasons = new Reason[hazards.size()];
      for (int i = 0; i < reasons.length; i++) {
        reasons[i] = new Reason(ReasonCode.OBSERVED_HAZARD, hazards.get(i));
      }
      return new Verdict(name, Strength.REFUTED, false, false, List.of(reasons));
    }
    // 2. Transport, 3. session-bound: config facts, decided before any probe evidence.
    if (!evidence.isStdio()) {
      return new Verdict(name, Strength.DISQUALIFIED, false, false, ONLY_NOT_STDIO);
    }
    if (evidence.sessionBoundByConstruction()) {
      return new Verdict(name, Strength.DISQUALIFIED, false, false, ONLY_SESSION_BOUND);
    }

    // 4. Rotating-secret notes, before the probe gate so that they also reach `unknown`.
    List<Reason> rotating = rotatingNotes(evidence.declaredEnvNames(), identityKeys);
    boolean withholdShare = !rotating.isEmpty();

    // 5. Probe gate.
    Map<String, ?> capabilities = evidence.capabilities();
    if (!evidence.probeOk() || capabilities == null) {
      if (rotating.isEmpty()) {
        return new Verdict(name, Strength.UNKNOWN, false, false, ONLY_NOT_PROBED);
      }
      List<Reason> reasons = new ArrayList<>(1 + rotating.size());
      reasons.add(NOT_PROBED);
      reasons.addAll(rotating);
      return new Verdict(name, Strength.UNKNOWN, false, false, reasons);
    }

    // 6. Further notes.
    // In the modern era the log level travels per request, and log notifications with their
    // request: logging degrades nothing when shared (docs/design.md#order-of-checks).
    boolean modern = evidence.era() == Era.MODERN;
    boolean degrades = !modern && hasMember(capabilities, "logging");
    boolean listingPublic = modern && evidence.listingPublic();
    boolean ran = Boolean.TRUE.equals(evidence.preflightRan());
    boolean diverged = ran && evidence.preflightCallerSensitive();
    boolean readOnly = allToolsReadOnly(evidence.toolAnnotations());

    List<Reason> reasons = new ArrayList<>(4 + rotating.size());
    Strength strength;
    boolean share;
    if (declaresCallerIdentity(capabilities)) {
      // 7. Declaration.
      strength = Strength.DECLARED;
      SelfTest selfTest = evidence.selfTest();
      boolean selfTestFailed = selfTest == SelfTest.FAILED || selfTest == SelfTest.NOT_RUN;
      share = ran && !withholdShare && !selfTestFailed;
      reasons.add(DECLARES);
      if (selfTest == SelfTest.PASSED) {
        reasons.add(SELF_TEST_PASSED);
      }
      if (readOnly) {
        reasons.add(READ_ONLY);
      }
      if (!ran) {
        reasons.add(NOT_RUN);
      } else if (!diverged) {
        reasons.add(PASSED);
      }
      if (listingPublic) {
        reasons.add(LISTING_PUBLIC);
      }
    } else {
      // 8. Nothing objected.
      boolean measured = ran && !diverged;
      strength = measured ? Strength.MEASURED : Strength.NO_OBJECTION;
      share = false;
      reasons.add(measured ? PASSED : NO_OBJECTION);
      if (readOnly) {
        reasons.add(READ_ONLY);
      } else if (evidence.toolAnnotations().isEmpty()) {
        reasons.add(Reason.of(ReasonCode.NO_TOOL_ANNOTATIONS, evidence.protocolVersion()));
      }
      if (!evidence.hasTools()) {
        reasons.add(NO_TOOLS);
      }
      if (listingPublic) {
        reasons.add(LISTING_PUBLIC);
      }
    }
    reasons.addAll(rotating);
    if (strength == Strength.DECLARED) {
      if (evidence.selfTest() == SelfTest.FAILED) {
        reasons.add(SELF_TEST_FAILED);
      } else if (evidence.selfTest() == SelfTest.NOT_RUN) {
        reasons.add(SELF_TEST_NOT_RUN);
      }
    }
    if (degrades) {
      reasons.add(DEGRADES_LOGGING);
    }
    if (diverged) {
      String kind = evidence.divergence();
      reasons.add(
          kind.isEmpty() ? DIVERGED : Reason.of(ReasonCode.HANDSHAKE_NOT_REPRODUCIBLE, kind));
    }
    if (evidence.modernOnly() && strength != Strength.DECLARED) {
      reasons.add(MODERN_ONLY);
    }
    return new Verdict(name, strength, true, share, reasons);
  }

  /**
   * Order of checks, step 4 (docs/design.md#order-of-checks): one note per declared name with a
   * rotating prefix that is not an identity key.
   */
  private static List<Reason> rotatingNotes(List<String> envNames, Set<String> identityKeys) {
    List<Reason> notes = List.of();
    for (int i = 0, n = envNames.size(); i < n; i++) {
      String env = envNames.get(i);
      if (SecretPrefixes.matchesIgnoringCase(env) && !identityKeys.contains(env)) {
        if (notes.isEmpty()) {
          notes = new ArrayList<>(2);
        }
        notes.add(new Reason(ReasonCode.ROTATING_SECRET_ENV, env));
      }
    }
    return notes;
  }

  /**
   * docs/design.md#predicates: {@code capabilities.experimental} is an object containing the member
   * {@code kirocrew.caller-identity}, whatever its value; or {@code capabilities.extensions} is an
   * object whose member {@code dev.kcshare/caller-identity} is an object (the settings).
   */
  static boolean declaresCallerIdentity(Map<String, ?> capabilities) {
    return (member(capabilities, "experimental") instanceof Map<?, ?> experimental
            && hasMember(experimental, CALLER_IDENTITY))
        || declarationSettings(capabilities) != null;
  }

  /**
   * The settings object of the 2026-07-28 form of the declaration, or of the experimental form when
   * its value is an object; null when neither is (docs/verdicts.md#declaring-caller-identity). Its
   * members {@code callerMetaKey} and {@code selfTest} name, as strings, the request {@code _meta}
   * key that carries the caller and the tool of the isolation self-test.
   *
   * @param capabilities the server's advertised capabilities
   * @return the settings object, or null
   */
  public static @Nullable Map<?, ?> declarationSettings(Map<String, ?> capabilities) {
    if (member(capabilities, "extensions") instanceof Map<?, ?> extensions
        && member(extensions, CALLER_IDENTITY_EXTENSION) instanceof Map<?, ?> settings) {
      return settings;
    }
    if (member(capabilities, "experimental") instanceof Map<?, ?> experimental
        && member(experimental, CALLER_IDENTITY) instanceof Map<?, ?> settings) {
      return settings;
    }
    return null;
  }

  /**
   * docs/design.md#predicates: non-empty, and every element is an object whose {@code readOnlyHint}
   * is boolean {@code true} (not {@code "true"}, not {@code 1}).
   */
  static boolean allToolsReadOnly(List<?> toolAnnotations) {
    int n = toolAnnotations.size();
    if (n == 0) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (!(toolAnnotations.get(i) instanceof Map<?, ?> annotations)
          || !Boolean.TRUE.equals(member(annotations, "readOnlyHint"))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Key presence that cannot fail: a map that rejects a string key (a sorted map of another key
   * type) simply has no such member.
   */
  private static boolean hasMember(Map<?, ?> object, String key) {
    try {
      return object.containsKey(key);
    } catch (RuntimeException notAJsonObject) {
      return false;
    }
  }

  private static @Nullable Object member(Map<?, ?> object, String key) {
    try {
      return object.get(key);
    } catch (RuntimeException notAJsonObject) {
      return null;
    }
  }
}
