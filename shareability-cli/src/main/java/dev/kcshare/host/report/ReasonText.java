package dev.kcshare.host.report;

import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;

/** One-line explanations of tiers and reason codes for people, with what would change them. */
public final class ReasonText {
  private ReasonText() {}

  /** What a tier means, in a few words. */
  public static String tier(Strength s) {
    return switch (s) {
      case REFUTED -> "the gateway saw it misbehave while shared";
      case DISQUALIFIED -> "a config or transport fact rules sharing out";
      case DECLARED -> "it declares per-caller isolation";
      case MEASURED -> "a pre-flight found the handshake reproducible";
      case NO_OBJECTION -> "nothing disqualifying was found";
      case UNKNOWN -> "nothing observed yet";
    };
  }

  /** What a reason means. */
  public static String meaning(ReasonCode code) {
    return switch (code) {
      case OBSERVED_HAZARD ->
          "the gateway recorded this hazard while the backend was shared by several sessions";
      case NOT_STDIO -> "the server is not launched over stdio, so there is no process to share";
      case SESSION_BOUND_BY_CONSTRUCTION ->
          "the host profile says the server binds itself to one session";
      case NOT_PROBED -> "no handshake with this server has been observed";
      case DECLARES_CALLER_IDENTITY -> "the server advertises the caller-identity extension";
      case PREFLIGHT_PASSED -> "two callers received the same handshake";
      case PREFLIGHT_NOT_RUN -> "the declaration has not been tested by a pre-flight";
      case NO_OBJECTION_FOUND -> "nothing disqualifying was found";
      case ALL_TOOLS_READ_ONLY -> "every tool is annotated read-only";
      case NO_TOOL_ANNOTATIONS ->
          "the tools carry no annotations (detail: the protocol version the server answered)";
      case NO_TOOLS_LISTED -> "the server listed no tools";
      case ROTATING_SECRET_ENV ->
          "a declared env variable looks like a rotating secret; sharing is withheld";
      case DEGRADES_WHEN_SHARED ->
          "a capability named in the detail works per process, not per session: shared, one"
              + " session's setting (for logging, the level it sets) applies to every session";
      case HANDSHAKE_NOT_REPRODUCIBLE -> "two callers received different handshakes";
      case LISTING_PUBLIC ->
          "the server marked its discover result and every tool listing page cacheScope public"
              + " for both callers: its listing is the same for everyone";
      case MODERN_ONLY ->
          "the server rejects initialize and speaks only the 2026-07-28 era, which servers that"
              + " keep state for the life of their process are asked not to do";
      case ISOLATION_SELF_TEST_PASSED ->
          "the isolation self-test the server offers passed: a second caller did not see the"
              + " first caller's marker, and the first caller got it back";
      case ISOLATION_SELF_TEST_FAILED ->
          "the isolation self-test the server offers failed (detail not_run: it could not be"
              + " run); sharing is withheld";
    };
  }

  /**
   * What the kind of a divergence means (docs/verdicts.md#pre-flight-details): {@code in_process}
   * or {@code across_processes}; {@code ""} for anything else.
   */
  public static String divergence(String kind) {
    return switch (kind) {
      case "in_process" ->
          "one process answered the two callers differently: its answer depends on the caller,"
              + " which the 2026-07-28 revision asks servers not to do";
      case "across_processes" ->
          "one process answered both callers alike: the difference is between the two process"
              + " starts, not the callers";
      default -> "";
    };
  }

  /** What would change the reason, or {@code ""} when nothing an operator does would. */
  public static String change(ReasonCode code, String server) {
    String measure = "run `kcshare measure " + server + "`";
    return switch (code) {
      case OBSERVED_HAZARD ->
          "only `kcshare hazards clear " + server + "`, if the gateway misattributed the frame";
      case NOT_STDIO -> "configure a stdio command instead of a URL";
      case SESSION_BOUND_BY_CONSTRUCTION -> "a server release that consumes the caller block";
      case NOT_PROBED, PREFLIGHT_NOT_RUN -> measure;
      case HANDSHAKE_NOT_REPRODUCIBLE -> measure + " again; divergent servers are re-measured";
      case ROTATING_SECRET_ENV ->
          "name the variable in mcp_gateway.pool_identity_env if it identifies the caller";
      case NO_TOOL_ANNOTATIONS -> "a server release that annotates its tools";
      case ISOLATION_SELF_TEST_FAILED ->
          "a server release whose self-test tool keeps callers apart; " + measure + " again";
      case DEGRADES_WHEN_SHARED -> "";
      case DECLARES_CALLER_IDENTITY,
          PREFLIGHT_PASSED,
          NO_OBJECTION_FOUND,
          ALL_TOOLS_READ_ONLY,
          NO_TOOLS_LISTED,
          LISTING_PUBLIC,
          MODERN_ONLY,
          ISOLATION_SELF_TEST_PASSED ->
          "";
    };
  }
}
