package dev.kcshare.api;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.Verdict;
import java.time.Instant;
import java.util.Optional;

/**
 * One configured server's verdict with the evidence behind it. Obtained from {@link
 * dev.kcshare.embed.Shareability#verdicts}; immutable. kcshare implements it (two rows are equal
 * when their components are); later versions may add accessors.
 */
public interface ServerVerdict {
  /**
   * The configured server.
   *
   * @return the server
   */
  ConfiguredServer server();

  /**
   * The verdict: strength, reasons, recommendations.
   *
   * @return the verdict
   */
  Verdict verdict();

  /**
   * The evidence the verdict was assessed from (config facts, observed hazards, the stored
   * pre-flight).
   *
   * @return the evidence
   */
  Evidence evidence();

  /**
   * When the stored pre-flight the evidence used was measured (the verdict cache's {@code
   * evaluatedAt}, to the nanosecond nearest the stored epoch seconds).
   *
   * @return the time; empty when none counted
   */
  Optional<Instant> measuredAt();

  /**
   * What one session's copy of this server costs, as that pre-flight measured it. Feed it, with the
   * verdicts, to {@link dev.kcshare.core.cost.CostReport#of}.
   *
   * @return the cost; empty when never measured or not measurable here
   */
  Optional<SessionCost> sessionCost();

  /**
   * Whether every definition resolves to the same execution identity.
   *
   * @return true when they agree
   */
  boolean identitiesAgree();

  /**
   * The server name.
   *
   * @return the name
   */
  default String name() {
    return server().name();
  }
}
