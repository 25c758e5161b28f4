package dev.kcshare.host.evaluation;

import dev.kcshare.api.PassResult;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.handshake.internal.Answers;
import dev.kcshare.host.prober.LaunchSummary;
import dev.kcshare.host.prober.PhaseTimes;
import dev.kcshare.host.prober.ProbeAttempt;
import dev.kcshare.host.prober.ProbeOutcome;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A prober that spawns nothing: each server answers with the outcomes queued for it (the last one
 * repeats), and every call is recorded with its timeout, so a test can drive a pass's bookkeeping
 * (failed attempts, backoff, the end-of-pass retry) with an injected clock and no processes.
 */
final class FakePreflights implements Preflights {
  /** One recorded call. */
  record Call(String server, Duration timeout) {}

  private final Duration timeout;

  /** The next outcome of a server. */
  @FunctionalInterface
  interface Next {
    ProbeOutcome get();
  }

  private final Map<String, Deque<Next>> outcomes = new HashMap<>();
  final List<Call> calls = Collections.synchronizedList(new ArrayList<>());

  FakePreflights(Duration timeout) {
    this.timeout = timeout;
  }

  /** Queues outcomes for a server; the last one answers every later call. */
  FakePreflights answer(String server, Next... next) {
    Deque<Next> queue = new ArrayDeque<>(List.of(next));
    synchronized (outcomes) {
      outcomes.put(server, queue);
    }
    return this;
  }

  List<String> servers() {
    synchronized (calls) {
      return calls.stream().map(Call::server).toList();
    }
  }

  @Override
  public Duration timeout() {
    return timeout;
  }

  @Override
  public ProbeOutcome probe(ServerDefinition server, Duration t) throws InterruptedException {
    calls.add(new Call(server.name(), t));
    Next next;
    synchronized (outcomes) {
      Deque<Next> queue = outcomes.get(server.name());
      if (queue == null || queue.isEmpty()) {
        throw new AssertionError("no outcome queued for " + server.name());
      }
      next = queue.size() > 1 ? queue.poll() : queue.peek();
    }
    return next.get();
  }

  @Override
  public Optional<Answer> probeOnce(ServerDefinition server) {
    return Optional.empty();
  }

  // ------------------------------------------------------------------ outcomes

  static Answer answer() {
    Map<String, Object> init = new HashMap<>();
    init.put("protocolVersion", "2024-11-05");
    init.put("capabilities", Map.of("tools", Map.of()));
    init.put("serverInfo", Map.of("name", "fake", "version", "1.0.0"));
    return Answers.legacy(init, List.of(Map.of("name", "echo")));
  }

  static final LaunchSummary LAUNCH =
      new LaunchSummary(List.of("/usr/bin/fake", "--flag"), List.of("TOKEN"), "/srv");

  static ProbeOutcome measured() {
    Answer a = answer();
    return new ProbeOutcome(
        PreflightResult.decide(a, a),
        List.of(attempt("A", PassResult.Spawn.Status.ANSWERED, null, "", "exit 0")),
        Map.of(),
        LAUNCH);
  }

  static ProbeOutcome missingVariable() {
    String detail = "no response (process exited with status 1)";
    String tail = "fixture: FIXTURE_TOKEN is not set\\n";
    return new ProbeOutcome(
        PreflightResult.couldNotRun(detail, null, null),
        List.of(
            attempt("A", PassResult.Spawn.Status.FAILED, detail, tail, "exit 1"),
            attempt("B", PassResult.Spawn.Status.FAILED, detail, tail, "exit 1")),
        Map.of(),
        LAUNCH);
  }

  static ProbeOutcome timedOut() {
    return new ProbeOutcome(
        PreflightResult.couldNotRun(ProbeOutcome.TIMEOUT, null, null),
        List.of(
            attempt("A", PassResult.Spawn.Status.FAILED, "timeout", "still downloading", "exit 0")),
        Map.of(),
        LAUNCH);
  }

  private static ProbeAttempt attempt(
      String identity, PassResult.Spawn.Status status, String failure, String tail, String exit) {
    return new ProbeAttempt(
        identity,
        Era.LEGACY,
        false,
        status,
        failure,
        tail,
        exit,
        new PhaseTimes(2, status == PassResult.Spawn.Status.ANSWERED ? 40L : null, null, 5L));
  }
}
