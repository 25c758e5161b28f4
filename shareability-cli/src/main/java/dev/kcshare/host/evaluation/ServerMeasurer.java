package dev.kcshare.host.evaluation;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.EraBasis;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.prober.ProbeOutcome;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Measures one server of a pass: never spawns a refused one, and isolates any failure but a JVM
 * failure to that server (docs/design.md#failure-isolation).
 */
final class ServerMeasurer {
  private final DoubleSupplier clock;

  /**
   * @param clock wall-clock epoch seconds, for the row's {@code evaluatedAt}
   */
  ServerMeasurer(DoubleSupplier clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Measures {@code server} with {@code prober} under the response timeout {@code timeout}. */
  Measurement measure(
      ConfiguredServer server, Preflights prober, Duration timeout, PassProgress.Listener events)
      throws InterruptedException {
    String name = server.name();
    String identity = null;
    try {
      ServerDefinition def = server.first().definition();
      String refusal = server.refusal();
      String agreed = server.commonIdentity();
      if (refusal != null || agreed == null) {
        // Consent withheld, nothing to spawn (a url server may carry a command), or definitions
        // that disagree: never spawned.
        return new Measurement(
            name,
            PreflightResult.couldNotRun(
                refusal != null ? refusal : ConfiguredServer.CONFLICT, null, null),
            null,
            null,
            null);
      }
      identity = agreed;
      events.onStarted(name);
      ProbeOutcome outcome = prober.probe(def, timeout);
      PreflightResult r = outcome.result();
      return new Measurement(
          name, r, outcome, r.ran() ? row(outcome, agreed) : /* row= */ null, identity);
    } catch (InterruptedException e) {
      throw e;
    } catch (
        Throwable t) { // docs/design.md#failure-isolation: one server's failure never ends the pass
      if (!isolatable(t)) {
        throw t;
      }
      PassLog.log().debug("measuring {} failed", Escaper.quoted(name, Escaper.SHORT_LIMIT), t);
      return new Measurement(
          name,
          PreflightResult.couldNotRun(PreflightResult.PREFLIGHT_ERROR, null, null),
          null,
          /* row= */ null,
          identity);
    }
  }

  private CacheRow row(ProbeOutcome outcome, String identity) {
    PreflightResult r = outcome.result();
    Answer a = r.answerA();
    return new CacheRow(
        true,
        r.callerSensitive(),
        r.reasons(),
        clock.getAsDouble(),
        identity,
        r.reportedVersion(),
        r.era() == null ? Era.LEGACY : r.era(),
        a == null ? null : StoredHandshake.of(a),
        outcome.cost(),
        r.basis() == null ? EraBasis.INITIALIZE : r.basis(),
        /* modern= */ null,
        r.divergence(),
        r.selfTest());
  }

  /** Everything but a JVM failure other than stack or heap exhaustion is isolated to one server. */
  private static boolean isolatable(Throwable t) {
    return !(t instanceof VirtualMachineError)
        || t instanceof StackOverflowError
        || t instanceof OutOfMemoryError;
  }
}
