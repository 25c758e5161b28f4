package dev.kcshare.core.verdict;

import java.util.Locale;

/**
 * The stable reason codes {@code assess} emits. The JSON spelling ({@link #code()}) is a UI and
 * aggregation vocabulary shared with the Kiro Crew gateway and is never renamed.
 *
 * <p>Retired codes ({@code first_party_session_scoped}, {@code per_client_capability}, {@code
 * caller_sensitive_initialize}) are deliberately absent, so they cannot be emitted.
 */
public enum ReasonCode {
  /** Refutes: the ledger recorded this hazard code (detail) while the server was shared. */
  OBSERVED_HAZARD,
  /** Disqualifies: the definition does not launch a stdio process. */
  NOT_STDIO,
  /** Disqualifies: the host profile says the server resolves its session from its own process. */
  SESSION_BOUND_BY_CONSTRUCTION,
  /** No handshake with this server has been observed. */
  NOT_PROBED,
  /** The server advertises the {@code kirocrew.caller-identity} extension. */
  DECLARES_CALLER_IDENTITY,
  /** A pre-flight ran and the two identities' handshakes agreed. */
  PREFLIGHT_PASSED,
  /** A declaration has not been tested by a pre-flight. */
  PREFLIGHT_NOT_RUN,
  /** Nothing disqualifying was found. */
  NO_OBJECTION_FOUND,
  /** Every listed tool carries {@code readOnlyHint: true}. */
  ALL_TOOLS_READ_ONLY,
  /** The listing carried no tool annotations; detail = the answered protocolVersion. */
  NO_TOOL_ANNOTATIONS,
  /** The listing produced no tool with a name. */
  NO_TOOLS_LISTED,
  /** A declared env name looks like a rotating secret (detail = the name). */
  ROTATING_SECRET_ENV,
  /** A capability degrades when shared (detail = {@code logging_level}). */
  DEGRADES_WHEN_SHARED,
  /** The two pre-flight identities received different handshakes. */
  HANDSHAKE_NOT_REPRODUCIBLE,
  /**
   * Modern era: {@code server/discover} and every {@code tools/list} page answered {@code
   * cacheScope: "public"} for both identities (kcshare's own).
   */
  LISTING_PUBLIC,
  /**
   * The server rejects {@code initialize} and speaks only modern versions (kcshare's own note):
   * servers that rely on process-lifetime state are to stay on the older revision.
   */
  MODERN_ONLY,
  /**
   * The isolation self-test the declaring server designated passed (kcshare's own; supporting, on
   * {@code declared}).
   */
  ISOLATION_SELF_TEST_PASSED,
  /**
   * The isolation self-test failed (a second caller saw the first one's marker, or the first lost
   * it), or could not run (detail {@code not_run}); the share is withheld (kcshare's own note).
   */
  ISOLATION_SELF_TEST_FAILED;

  private final String json = name().toLowerCase(Locale.ROOT);

  /**
   * The stable JSON spelling, for example {@code "observed_hazard"}.
   *
   * @return the code as written in verdict JSON
   */
  public String code() {
    return json;
  }

  /**
   * Parses a JSON reason code.
   *
   * @param code the JSON spelling
   * @return the reason code
   * @throws IllegalArgumentException if {@code code} is not an emitted code (retired codes too)
   */
  public static ReasonCode fromCode(String code) {
    for (ReasonCode c : values()) {
      if (c.code().equals(code)) {
        return c;
      }
    }
    throw new IllegalArgumentException("not a reason code: " + code);
  }
}
