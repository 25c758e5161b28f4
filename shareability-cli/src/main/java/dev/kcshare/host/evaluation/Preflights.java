package dev.kcshare.host.evaluation;

import dev.kcshare.api.PassOptions;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.host.prober.ProbeOutcome;
import dev.kcshare.host.prober.SpawnWatcher;
import dev.kcshare.host.prober.StdioProber;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** What a pass measures with: the stdio prober, or a stand-in in tests. */
interface Preflights {
  /** The response timeout of an ordinary pre-flight. */
  Duration timeout();

  /** One server's pre-flight with the given response timeout. */
  ProbeOutcome probe(ServerDefinition server, Duration timeout) throws InterruptedException;

  /** One identity-A exchange for the version re-check. */
  Optional<Answer> probeOnce(ServerDefinition server) throws InterruptedException;

  /**
   * These pre-flights, telling {@code watcher} about every process they spawn; a stand-in that
   * spawns nothing returns itself.
   */
  default Preflights withSpawnWatcher(SpawnWatcher watcher) {
    return this;
  }

  /**
   * These pre-flights, measuring the era {@code choice} selects; a stand-in that spawns nothing
   * returns itself.
   */
  default Preflights withEra(EraChoice choice) {
    return this;
  }

  /**
   * These pre-flights, running a designated isolation self-test or not; a stand-in that spawns
   * nothing returns itself.
   */
  default Preflights withSelfTest(boolean run) {
    return this;
  }

  /** These pre-flights as a pass of {@code options} measures: its era and its self-test. */
  default Preflights forPass(PassOptions options) {
    return withEra(options.era()).withSelfTest(options.selfTest());
  }

  static Preflights of(StdioProber prober) {
    Objects.requireNonNull(prober, "prober");
    return new Preflights() {
      @Override
      public Duration timeout() {
        return prober.options().timeout();
      }

      @Override
      public ProbeOutcome probe(ServerDefinition server, Duration timeout)
          throws InterruptedException {
        return prober.withTimeout(timeout).probe(server, false);
      }

      @Override
      public Optional<Answer> probeOnce(ServerDefinition server) throws InterruptedException {
        return prober.probeOnce(server);
      }

      @Override
      public Preflights withSpawnWatcher(SpawnWatcher watcher) {
        return of(prober.withSpawnWatcher(watcher));
      }

      @Override
      public Preflights withEra(EraChoice choice) {
        return prober.eraChoice() == choice ? this : of(prober.withEra(choice));
      }

      @Override
      public Preflights withSelfTest(boolean run) {
        return prober.selfTest() == run ? this : of(prober.withSelfTest(run));
      }
    };
  }
}
