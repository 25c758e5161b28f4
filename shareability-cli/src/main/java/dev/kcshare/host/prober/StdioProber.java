package dev.kcshare.host.prober;

import dev.kcshare.api.PassResult;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.text.ExitStatus;
import dev.kcshare.core.text.Secrets;
import dev.kcshare.host.HostContext;
import dev.kcshare.host.KcshareThreads;
import dev.kcshare.host.config.Definitions;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stdio pre-flight (docs/design.md#the-pre-flight): spawns a server under identities A and B
 * concurrently, collects both handshake answers, retries a one-sided failure once alone, switches
 * to the modern exchange when the server is modern-only, and hands the answers to the core's
 * decision. Every failure while measuring one server becomes a "could not run" result, never an
 * exception; only cancellation (interruption) propagates, after every process it spawned is torn
 * down.
 *
 * <p>Thread-safe: one instance serves a whole evaluation pass, one {@link #preflight} call per
 * server from as many threads as the pass likes; the shared {@link ProcessPermits} bounds the live
 * processes across all of them.
 */
public final class StdioProber {
  /**
   * Looked up when there is something to log, not in a static field: a pre-flight that logs nothing
   * never starts the logging backend (docs/performance.md).
   */
  private static Logger log() {
    return LoggerFactory.getLogger(StdioProber.class);
  }

  private static final AtomicInteger POOL_SEQUENCE = new AtomicInteger();

  /**
   * How long a "no response" failure waits for the process to exit before its teardown starts, so
   * that the detail can tell "exited" from "still running": stdout ends a moment before the exit is
   * reported.
   */
  static final long EXIT_SETTLE_MILLIS = 250;

  /**
   * kcshare's own fixed failure details: never masked, since retries and advice are decided by
   * them. Every other detail can carry a server's words and is masked with the server's {@link
   * Secrets}.
   */
  private static final Set<String> FIXED_DETAILS =
      Set.of(
          ProbeFailure.NO_RESPONSE,
          ProbeFailure.TIMEOUT,
          ProbeFailure.OVERSIZE,
          ProbeFailure.TOO_DEEP,
          ProbeFailure.NAME_TOO_LONG,
          ProbeFailure.NUMBER_TOO_LONG,
          ProbeFailure.PROBE_ERROR,
          PreflightResult.PREFLIGHT_ERROR,
          DefinitionFacts.DISABLED,
          DefinitionFacts.NO_COMMAND);

  private final Map<String, String> baseEnv;
  private final Path baseCwd;
  private final ProbeOptions options;
  private final ProcessPermits permits;
  private final Checkpoints checkpoints;
  private final Footprint footprint;
  private final KcshareThreads threads;
  private final ExecutorService executor;
  private final SpawnWatcher spawnWatcher;
  private final EraChoice eraChoice;
  private final boolean selfTest;

  /** What one identity's exchange opens with (docs/design.md#which-era-is-measured). */
  enum Mode {
    /** {@code initialize}; its error is a failure ({@code --era legacy}). */
    LEGACY(Era.LEGACY),
    /** {@code initialize}; its error is followed by one {@code server/discover} ({@code auto}). */
    AUTO(Era.LEGACY),
    /** {@code server/discover}, falling back to {@code initialize} ({@code --era modern}). */
    MODERN_FIRST(Era.MODERN),
    /** {@code server/discover} only: the modern phase after {@code initialize} was rejected. */
    MODERN(Era.MODERN);

    final Era opening;

    Mode(Era opening) {
      this.opening = opening;
    }
  }

  /**
   * Fixed points of a pre-flight, for tests: throwing from one simulates an unexpected failure in
   * the orchestration ({@code preflight_error}) or inside one identity ({@code probe_error}).
   */
  interface Checkpoints {
    Checkpoints NONE = new Checkpoints() {};

    /** After the refusals, before any process is spawned. */
    default void beforeMeasuring(ServerDefinition server) {}

    /** Inside one identity's attempt, after its process was spawned. */
    default void beforeExchange(Identity identity, Era era, boolean retry) {}

    /**
     * After an identity answered and its process tree was sampled, before its teardown: the tree is
     * still alive.
     */
    default void sampled(Identity identity, long rootPid, SessionCost cost) {}
  }

  private StdioProber(
      Map<String, String> baseEnv,
      Path baseCwd,
      ProbeOptions options,
      ProcessPermits permits,
      Checkpoints checkpoints,
      Footprint footprint,
      KcshareThreads threads) {
    this(
        baseEnv,
        baseCwd,
        options,
        permits,
        checkpoints,
        footprint,
        threads,
        newExecutor(threads),
        SpawnWatcher.NONE,
        EraChoice.AUTO,
        true);
  }

  private StdioProber(
      Map<String, String> baseEnv,
      Path baseCwd,
      ProbeOptions options,
      ProcessPermits permits,
      Checkpoints checkpoints,
      Footprint footprint,
      KcshareThreads threads,
      ExecutorService executor,
      SpawnWatcher spawnWatcher,
      EraChoice eraChoice,
      boolean selfTest) {
    this.baseEnv = Map.copyOf(baseEnv);
    this.baseCwd = baseCwd.toAbsolutePath();
    this.options = Objects.requireNonNull(options, "options");
    this.permits = Objects.requireNonNull(permits, "permits");
    this.checkpoints = checkpoints;
    this.footprint = footprint;
    this.threads = Objects.requireNonNull(threads, "threads");
    this.executor = executor;
    this.spawnWatcher = Objects.requireNonNull(spawnWatcher, "spawnWatcher");
    this.eraChoice = Objects.requireNonNull(eraChoice, "eraChoice");
    this.selfTest = selfTest;
  }

  /** The identities' pool: threads named {@code kcshare-preflight-P-N}. */
  private static ExecutorService newExecutor(KcshareThreads threads) {
    return Executors.newCachedThreadPool(
        threads.pool("kcshare-preflight-" + POOL_SEQUENCE.incrementAndGet()));
  }

  /**
   * The same prober with another response timeout (same environment, directory and process
   * permits), for the end-of-pass retry of a server that timed out in a busy pass.
   *
   * @throws IllegalArgumentException outside 5 to 120 seconds
   */
  public StdioProber withTimeout(Duration timeout) {
    if (timeout.equals(options.timeout())) {
      return this;
    }
    return copy(options.withTimeout(timeout), spawnWatcher, eraChoice, selfTest);
  }

  /**
   * This prober, spawning for the pass {@code watcher} stands for (its token; a pass records its
   * processes in its records directory); shares the process permits and threads of this one.
   * Without one, each {@link #probe} and {@link #probeOnce} is a pass of its own (its token, and a
   * sweep of what still carries it when the pre-flight ends).
   */
  public StdioProber withSpawnWatcher(SpawnWatcher watcher) {
    return copy(options, watcher, eraChoice, selfTest);
  }

  /**
   * This prober, measuring the era {@code choice} selects (docs/design.md#which-era-is-measured);
   * shares the process permits, threads and spawn watcher of this one. A new prober measures with
   * {@link EraChoice#AUTO}.
   */
  public StdioProber withEra(EraChoice choice) {
    if (choice == eraChoice) {
      return this;
    }
    return copy(options, spawnWatcher, choice, selfTest);
  }

  /**
   * This prober, running the isolation self-test a declaring server designates ({@code true}, the
   * default) or recording it as skipped ({@code --no-self-test};
   * docs/verdicts.md#the-isolation-self-test); shares everything else with this one.
   */
  public StdioProber withSelfTest(boolean run) {
    if (run == selfTest) {
      return this;
    }
    return copy(options, spawnWatcher, eraChoice, run);
  }

  /** This prober with other per-pass settings, sharing its permits, threads and pool. */
  private StdioProber copy(
      ProbeOptions options, SpawnWatcher watcher, EraChoice choice, boolean selfTest) {
    return new StdioProber(
        baseEnv,
        baseCwd,
        options,
        permits,
        checkpoints,
        footprint,
        threads,
        executor,
        watcher,
        choice,
        selfTest);
  }

  /** What every thread of this prober, and of the servers it spawns, comes from. */
  public KcshareThreads threads() {
    return threads;
  }

  /** Whether this prober runs a designated isolation self-test. */
  public boolean selfTest() {
    return selfTest;
  }

  /** The era choice this prober measures with. */
  public EraChoice eraChoice() {
    return eraChoice;
  }

  /**
   * A prober whose servers inherit {@code baseEnv} (kcshare's environment, under the declared env)
   * and start in {@code baseCwd} unless they declare a working directory, on kcshare's default
   * threads.
   */
  public static StdioProber create(
      Map<String, String> baseEnv, Path baseCwd, ProbeOptions options, ProcessPermits permits) {
    return create(baseEnv, baseCwd, options, permits, KcshareThreads.defaults());
  }

  /**
   * {@link #create(Map, Path, ProbeOptions, ProcessPermits)}, every thread of the prober and of the
   * servers it spawns made by {@code threads}.
   */
  public static StdioProber create(
      Map<String, String> baseEnv,
      Path baseCwd,
      ProbeOptions options,
      ProcessPermits permits,
      KcshareThreads threads) {
    return new StdioProber(
        baseEnv, baseCwd, options, permits, Checkpoints.NONE, Footprint.system(), threads);
  }

  static StdioProber create(
      Map<String, String> baseEnv,
      Path baseCwd,
      ProbeOptions options,
      ProcessPermits permits,
      Checkpoints checkpoints) {
    return new StdioProber(
        baseEnv,
        baseCwd,
        options,
        permits,
        checkpoints,
        Footprint.system(),
        KcshareThreads.defaults());
  }

  /** A prober taking kcshare's environment and working directory from the host context. */
  public static StdioProber create(HostContext ctx, ProbeOptions options, ProcessPermits permits) {
    return create(ctx.env(), ctx.cwd(), options, permits);
  }

  /**
   * Stops the daemon threads that pump the servers' streams; for an owner that is done with this
   * prober and every copy {@link #withTimeout} or {@link #withSpawnWatcher} made of it (they share
   * the threads). A pre-flight still running fails as could-not-run. Idempotent.
   */
  public void close() {
    executor.shutdownNow();
  }

  /** The timing this prober applies. */
  public ProbeOptions options() {
    return options;
  }

  /**
   * Runs the pre-flight of one server and returns its result (docs/design.md#pre-flight-result).
   * Never throws for anything the server does.
   *
   * @throws InterruptedException when cancelled; every process spawned is torn down first
   */
  public PreflightResult preflight(ServerDefinition server) throws InterruptedException {
    return probe(server, false).result();
  }

  /**
   * {@link #preflight} with its diagnostics: the attempts with their stderr tails and, when {@code
   * keepCaptures}, each identity's capture for {@link CaptureFiles}.
   *
   * @throws InterruptedException when cancelled; every process spawned is torn down first
   */
  public ProbeOutcome probe(ServerDefinition server, boolean keepCaptures)
      throws InterruptedException {
    Objects.requireNonNull(server, "server");
    if (spawnWatcher == SpawnWatcher.NONE) {
      try (StandalonePass pass = new StandalonePass()) {
        return withSpawnWatcher(pass).probe(server, keepCaptures);
      }
    }
    List<ProbeAttempt> attempts = Collections.synchronizedList(new ArrayList<>());
    Map<String, Map<String, @Nullable Object>> captures = new LinkedHashMap<>();
    AtomicReference<@Nullable Launched> launched = new AtomicReference<>();
    AtomicReference<SessionCost> cost = new AtomicReference<>(SessionCost.NONE);
    PreflightResult result;
    try {
      result = measure(server, keepCaptures, attempts, captures, launched, cost);
    } catch (InterruptedException e) {
      throw e;
    } catch (Throwable t) { // docs/design.md#failure-isolation: isolated to this server
      if (!isolatable(t)) {
        throw t;
      }
      log().debug("pre-flight failed unexpectedly", t);
      result = PreflightResult.couldNotRun(PreflightResult.PREFLIGHT_ERROR, null, null);
      captures.clear();
    }
    Launched l = launched.get();
    synchronized (attempts) {
      return new ProbeOutcome(
          result,
          attempts,
          captures,
          l == null ? null : l.summary(),
          result.ran() ? cost.get() : SessionCost.NONE);
    }
  }

  /**
   * One identity-A exchange (legacy, switching to modern when the server is modern-only), for the
   * version re-check of docs/design.md#version-re-check. Empty when the server is refused or fails:
   * an absent answer is "no information".
   *
   * @throws InterruptedException when cancelled; the process is torn down first
   */
  public Optional<Answer> probeOnce(ServerDefinition server) throws InterruptedException {
    Objects.requireNonNull(server, "server");
    if (spawnWatcher == SpawnWatcher.NONE) {
      try (StandalonePass pass = new StandalonePass()) {
        return withSpawnWatcher(pass).probeOnce(server);
      }
    }
    try {
      Object launch = launch(server);
      if (!(launch instanceof Launch l)) {
        return Optional.empty();
      }
      Secrets secrets = Definitions.secrets(server).with(spawnWatcher.passToken());
      Attempt first = new Attempt(l, secrets, Identity.A, openingMode(), false);
      first.sampleCost = false; // a re-check is not a measurement: its cost is not kept
      first.runSelfTest = false;
      Exchange.Result r = first.run();
      if (r instanceof Exchange.ModernDetected) {
        Attempt modern = new Attempt(l, secrets, Identity.A, Mode.MODERN, false);
        modern.sampleCost = false;
        modern.runSelfTest = false;
        r = modern.run();
      }
      return r instanceof Exchange.Answered answered
          ? Optional.of(answered.answer())
          : Optional.empty();
    } catch (InterruptedException e) {
      throw e;
    } catch (Throwable t) {
      if (!isolatable(t)) {
        throw t;
      }
      log().debug("version re-check failed unexpectedly", t);
      return Optional.empty();
    }
  }

  private PreflightResult measure(
      ServerDefinition server,
      boolean keepCaptures,
      List<ProbeAttempt> attempts,
      Map<String, Map<String, @Nullable Object>> captures,
      AtomicReference<@Nullable Launched> launched,
      AtomicReference<SessionCost> cost)
      throws InterruptedException {
    Secrets secrets = Definitions.secrets(server).with(spawnWatcher.passToken());
    Object launch = launch(server);
    if (!(launch instanceof Launch l)) {
      return PreflightResult.couldNotRun(shown(secrets, (String) launch), null, null);
    }
    launched.set(new Launched(l, secrets, new ArrayList<>(server.env().keySet())));
    checkpoints.beforeMeasuring(server);
    Phase phase = new Phase(l, secrets, keepCaptures, attempts, captures);
    PreflightResult first = phase.run(openingMode());
    if (first != null) {
      cost.set(phase.cost);
      return first;
    }
    captures.clear();
    PreflightResult modern =
        Objects.requireNonNull(phase.run(Mode.MODERN), "the modern phase always decides");
    cost.set(phase.cost);
    return modern;
  }

  /**
   * How a server was started, masked for showing only once the pre-flight is over: masking the
   * command line compiles the mask patterns, which is not to stand between a pass and its first
   * spawn.
   */
  private record Launched(Launch launch, Secrets secrets, List<String> declaredEnvNames) {
    LaunchSummary summary() {
      return new LaunchSummary(
          secrets.maskArgs(launch.commandLine()), declaredEnvNames, launch.directory().toString());
    }
  }

  /** The mode the first phase opens with under this prober's era choice. */
  private Mode openingMode() {
    return switch (eraChoice) {
      case AUTO -> Mode.AUTO;
      case MODERN -> Mode.MODERN_FIRST;
      case LEGACY -> Mode.LEGACY;
    };
  }

  /**
   * The refusals of docs/design.md#spawning (returned as the failure detail) or how to spawn.
   *
   * @return a {@link Launch}, or the refusal detail as a String
   */
  private Object launch(ServerDefinition server) {
    String refusal = server.refusal();
    String command = server.command();
    if (refusal != null || command == null) {
      return refusal != null ? refusal : DefinitionFacts.NO_COMMAND;
    }
    Map<String, String> env = new HashMap<>(baseEnv);
    List<String> inherited = server.inheritedEnv();
    if (inherited != null) {
      env.keySet().retainAll(new HashSet<>(inherited));
    }
    env.keySet().removeAll(server.unsetEnv());
    env.putAll(server.env());
    Path directory;
    try {
      directory = server.cwd() == null ? baseCwd : baseCwd.resolve(server.cwd());
    } catch (InvalidPathException e) {
      directory = baseCwd; // the spawn will fail below with the OS's own words
    }
    Optional<Path> executable = CommandResolver.resolve(command, env.get("PATH"), directory);
    if (executable.isEmpty()) {
      return "command not found: " + command;
    }
    List<String> commandLine = new ArrayList<>(1 + server.args().size());
    commandLine.add(executable.get().toString());
    commandLine.addAll(server.args());
    return new Launch(commandLine, env, directory);
  }

  /** One phase (legacy or modern) of docs/design.md#two-identities. */
  private final class Phase {
    private final Launch launch;
    private final Secrets secrets;
    private final boolean keepCaptures;
    private final List<ProbeAttempt> attempts;
    private final Map<String, Map<String, @Nullable Object>> captures;

    /** The larger figures of the two answers the phase decided on ({@link Footprint}). */
    SessionCost cost = SessionCost.NONE;

    Phase(
        Launch launch,
        Secrets secrets,
        boolean keepCaptures,
        List<ProbeAttempt> attempts,
        Map<String, Map<String, @Nullable Object>> captures) {
      this.launch = launch;
      this.secrets = secrets;
      this.keepCaptures = keepCaptures;
      this.attempts = attempts;
      this.captures = captures;
    }

    /**
     * The result, or null when a phase in {@link Mode#AUTO} identified a modern server (only that
     * mode can).
     */
    @Nullable PreflightResult run(Mode mode) throws InterruptedException {
      Attempt a = new Attempt(launch, secrets, Identity.A, mode, keepCaptures);
      Attempt b = new Attempt(launch, secrets, Identity.B, mode, keepCaptures);
      BlockingQueue<Attempt> completions = new LinkedBlockingQueue<>();
      a.startOn(completions);
      b.startOn(completions);
      try {
        for (int i = 0; i < 2; i++) {
          Attempt first = completions.take();
          if (first.result instanceof Exchange.ModernDetected) {
            Attempt other = first == a ? b : a;
            other.abandon();
            other.awaitDone();
            return null;
          }
        }
      } catch (InterruptedException e) {
        a.abandon();
        b.abandon();
        a.awaitDone();
        b.awaitDone();
        throw e;
      } finally {
        record(a);
        record(b);
      }
      if (a.result instanceof Exchange.Answered answerA
          && b.result instanceof Exchange.Answered answerB) {
        cost = a.cost.max(b.cost);
        return decide(answerA, answerB);
      }
      if (!(a.result instanceof Exchange.Answered) && !(b.result instanceof Exchange.Answered)) {
        return PreflightResult.couldNotRun(a.failure(), null, null);
      }
      Era era = mode.opening;
      // Exactly one failed; the other is torn down already. Retry the failed identity alone.
      Attempt answered = a.result instanceof Exchange.Answered ? a : b;
      Attempt failed = answered == a ? b : a;
      Attempt retry = new Attempt(launch, secrets, failed.identity, mode, keepCaptures);
      retry.retry = true;
      try {
        retry.result = retry.run();
      } finally {
        record(retry);
      }
      if (retry.result instanceof Exchange.ModernDetected) {
        return null;
      }
      Exchange.Answered earlier = (Exchange.Answered) answered.result;
      if (retry.result instanceof Exchange.Answered again) {
        cost = answered.cost.max(retry.cost);
        return answered == a ? decide(earlier, again) : decide(again, earlier);
      }
      Answer answerA = answered == a ? earlier.answer() : null;
      keep(answered.identity, earlier);
      return PreflightResult.couldNotRun(
          retry.failure(), answerA != null ? answerA.era() : era, answerA);
    }

    private PreflightResult decide(Exchange.Answered a, Exchange.Answered b) {
      keep(Identity.A, a);
      keep(Identity.B, b);
      return PreflightResult.decide(a.answer(), b.answer(), a.bFromA())
          .withBasis(a.basis())
          .withSelfTest(a.selfTest());
    }

    private void keep(Identity identity, Exchange.Answered answered) {
      if (answered.capture() != null) {
        captures.put(identity.key(), answered.capture());
      }
    }

    private void record(Attempt attempt) {
      attempts.add(attempt.toProbeAttempt());
    }
  }

  /** One identity, one era, one fresh process. */
  private final class Attempt {
    final Launch launch;
    final Secrets secrets;
    final Identity identity;
    final Mode mode;

    /** The era of the opening request, then of the answer (a fallback changes it). */
    volatile Era era;

    final boolean keepRaw;
    boolean retry;
    boolean sampleCost = true;
    boolean runSelfTest = true;
    volatile Exchange.@Nullable Result result;
    volatile @Nullable String failure;
    volatile boolean abandoned;
    volatile String stderrTail = "";
    volatile @Nullable String exitStatus;
    volatile @Nullable PhaseTimes phases;
    volatile SessionCost cost = SessionCost.NONE;
    private @Nullable Thread runner;
    private final CountDownLatch done = new CountDownLatch(1);

    Attempt(Launch launch, Secrets secrets, Identity identity, Mode mode, boolean keepRaw) {
      this.launch = launch;
      this.secrets = secrets;
      this.identity = identity;
      this.mode = mode;
      this.era = mode.opening;
      this.keepRaw = keepRaw;
    }

    void startOn(BlockingQueue<Attempt> completions) {
      executor.execute(
          () -> {
            try {
              result = run();
            } catch (InterruptedException e) {
              abandoned = true; // only an abandon interrupts a pool thread
            } finally {
              done.countDown();
              completions.add(this);
            }
          });
    }

    /**
     * Runs the exchange in the calling thread. A classified failure sets {@link #failure} and
     * returns null; an abandon returns null with {@link #abandoned} set.
     *
     * @throws InterruptedException when the calling thread is interrupted (not abandoned)
     */
    Exchange.@Nullable Result run() throws InterruptedException {
      synchronized (this) {
        runner = Thread.currentThread();
      }
      try {
        if (abandoned) {
          return null;
        }
        permits.acquire();
        try {
          return exchange();
        } finally {
          permits.release();
        }
      } catch (InterruptedException e) {
        if (abandoned) {
          return null;
        }
        throw e;
      } finally {
        synchronized (this) {
          runner = null;
          if (abandoned) {
            Thread.interrupted(); // the abandon's interrupt must not leak into the next task
          }
        }
      }
    }

    private Exchange.@Nullable Result exchange() throws InterruptedException {
      ServerProcess server = null;
      Exchange exchange = null;
      boolean noResponse = false;
      long started = System.nanoTime();
      long spawned = started;
      try {
        try {
          server = ServerProcess.start(launch, options, spawnWatcher, threads);
          spawned = System.nanoTime();
        } catch (IOException e) {
          failure = "spawn failed: " + spawnReason(e);
          return null;
        } catch (IllegalArgumentException e) {
          failure = "spawn failed: " + e.getMessage();
          return null;
        }
        if (abandoned) {
          return null;
        }
        checkpoints.beforeExchange(identity, era, retry);
        exchange = new Exchange(server.channel(), identity, keepRaw, selfTest && runSelfTest);
        Exchange.Result r =
            switch (mode) {
              case LEGACY -> exchange.legacy(false);
              case AUTO -> exchange.legacy(true);
              case MODERN_FIRST -> exchange.modernFirst();
              case MODERN -> exchange.modern();
            };
        if (r instanceof Exchange.Answered answered) {
          era = answered.answer().era();
        }
        if (sampleCost && r instanceof Exchange.Answered) {
          sample(server, started, exchange.answeredAt);
        }
        return r;
      } catch (ProbeFailure f) {
        failure = f.detail();
        noResponse = f.isNoResponse();
        return null;
      } catch (InterruptedException e) {
        throw e;
      } catch (Throwable t) { // docs/design.md#failure-isolation: isolated to this identity
        if (!isolatable(t)) {
          throw t;
        }
        log().debug("identity {} failed unexpectedly", identity, t);
        failure = ProbeFailure.PROBE_ERROR;
        return null;
      } finally {
        if (server != null) {
          long exchangeEnded = System.nanoTime();
          // Stdout usually ends because the process exited; give the exit a moment to be seen.
          boolean exitedFirst = noResponse && server.exitsWithin(EXIT_SETTLE_MILLIS);
          server.tearDown();
          long gone = System.nanoTime();
          stderrTail = server.stderrTail();
          Integer status = server.exitStatus();
          exitStatus = status == null ? null : ExitStatus.describe(status);
          phases = phases(exchange, started, spawned, exchangeEnded, gone);
          String refused = server.wrapperFailure();
          String f = failure;
          if (refused != null && ProbeFailure.NO_RESPONSE.equals(f)) {
            failure = "spawn failed: " + refused; // setsid could not start the command
            exitStatus = null; // the status is setsid's, not the server's
          } else if (noResponse && f != null) {
            failure = f + " (" + howItEnded(exitedFirst, status) + ")";
          }
        }
      }
    }

    /** The tree's footprint, while it still runs; a failure here only loses the figures. */
    private void sample(ServerProcess server, long spawnedAt, long answeredAt) {
      long pid = server.tree().process().pid();
      cost = footprint.sample(pid, spawnedAt, answeredAt);
      checkpoints.sampled(identity, pid, cost);
    }

    void abandon() {
      synchronized (this) {
        abandoned = true;
        if (runner != null) {
          runner.interrupt();
        }
      }
    }

    /** Waits for the attempt to end, teardown included, deferring any interrupt until then. */
    void awaitDone() {
      boolean interrupted = false;
      while (true) {
        try {
          done.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    /** The failure detail, masked ({@link #shown}). */
    String failure() {
      String f = failure;
      return f != null ? shown(secrets, f) : ProbeFailure.PROBE_ERROR;
    }

    ProbeAttempt toProbeAttempt() {
      PassResult.Spawn.Status status;
      if (result instanceof Exchange.Answered) {
        status = PassResult.Spawn.Status.ANSWERED;
      } else if (result instanceof Exchange.ModernDetected) {
        status = PassResult.Spawn.Status.MODERN_DETECTED;
      } else if (failure != null) {
        status = PassResult.Spawn.Status.FAILED;
      } else {
        status = PassResult.Spawn.Status.ABANDONED;
      }
      return new ProbeAttempt(
          identity.name(),
          era,
          retry,
          status,
          status == PassResult.Spawn.Status.FAILED ? failure() : null,
          // masked before it is cut, so no cut can leave part of a secret visible
          Escaper.escTail(secrets.mask(stderrTail), Escaper.LONG_LIMIT),
          exitStatus,
          phases);
    }
  }

  /**
   * A failure detail as it may be shown and stored: {@link #FIXED_DETAILS} as they are, anything
   * else with the server's secrets masked (docs/config.md#what-kcshare-masks).
   */
  private static String shown(Secrets secrets, String detail) {
    return FIXED_DETAILS.contains(detail) ? detail : secrets.mask(detail);
  }

  private static PhaseTimes phases(
      @Nullable Exchange exchange, long started, long spawned, long exchangeEnded, long gone) {
    long answered = exchange == null ? 0 : exchange.answeredAt;
    long listed = exchange == null ? 0 : exchange.listedAt;
    return new PhaseTimes(
        millis(started, spawned),
        answered == 0 ? null : millis(spawned, answered),
        listed == 0 ? null : millis(answered, listed),
        millis(exchangeEnded, gone));
  }

  private static long millis(long from, long to) {
    return TimeUnit.NANOSECONDS.toMillis(Math.max(0, to - from));
  }

  /**
   * What a "no response" detail adds: how the process had exited by itself, or that it was still
   * running when kcshare gave up on it.
   */
  static String howItEnded(boolean exitedFirst, @Nullable Integer status) {
    return exitedFirst && status != null
        ? "process " + ExitStatus.phrase(status)
        : "process still running";
  }

  /**
   * The OS's words for a refused spawn, without Java's "Cannot run program" preamble or its
   * "error=N, " prefix (so a refusal reads the same whether Java or {@code setsid} met it).
   */
  private static String spawnReason(IOException e) {
    Throwable cause = e.getCause();
    String reason =
        cause != null && cause.getMessage() != null ? cause.getMessage() : e.getMessage();
    if (reason == null) {
      return "the operating system refused to start it";
    }
    return reason.replaceFirst("^error=\\d+, ", "");
  }

  /** Everything but a JVM failure other than stack or heap exhaustion is isolated to one server. */
  private static boolean isolatable(Throwable t) {
    return !(t instanceof VirtualMachineError)
        || t instanceof StackOverflowError
        || t instanceof OutOfMemoryError;
  }
}
