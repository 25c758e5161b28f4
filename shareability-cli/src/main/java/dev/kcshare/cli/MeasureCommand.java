package dev.kcshare.cli;

import dev.kcshare.cli.config.ConfigOptions;
import dev.kcshare.cli.config.ConfiguredServer;
import dev.kcshare.cli.config.HostConfig;
import dev.kcshare.cli.evaluate.EvaluationRunner;
import dev.kcshare.cli.evaluate.PassProgress;
import dev.kcshare.cli.evaluate.PassResult;
import dev.kcshare.cli.evaluate.ServerResult;
import dev.kcshare.cli.preflight.ProbeOptions;
import dev.kcshare.cli.preflight.ProcessPermits;
import dev.kcshare.cli.preflight.StdioProber;
import dev.kcshare.cli.records.RecordsDirectory;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.text.Escaper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcshare measure}: runs pre-flights and stores their verdicts. */
@Command(
    name = "measure",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Spawns configured stdio servers twice, as two different callers, compares their handshakes"
          + " and stores the result in the verdict cache.",
      "",
      "--all measures every server that is due: never measured (or measured under another"
          + " identity or version) first, then those that diverged last time. Named servers are"
          + " measured now, whatever the cache holds. Disabled servers and servers without a"
          + " command are never spawned.",
      "Cron-friendly: quiet on success unless -v; the exit code is non-zero only for kcshare's"
          + " own failures, never because a server could not run.",
      ""
    })
final class MeasureCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Parameters(
      arity = "0..*",
      paramLabel = "SERVER",
      description = "Servers to measure now.",
      completionCandidates = ServerNames.class)
  List<String> names = new ArrayList<>();

  @Option(names = "--all", description = "Measure every server that is due.")
  boolean all;

  @Option(
      names = {"-j", "--jobs"},
      paramLabel = "N",
      description = "Most live server processes at once (default: ${DEFAULT-VALUE}).")
  int jobs = ProcessPermits.DEFAULT_CEILING;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      description = "Per-response timeout, 5-120 (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds = (int) ProbeOptions.DEFAULT_TIMEOUT.toSeconds();

  @Option(
      names = "--no-wait",
      description = "If another measure pass is running on these records, exit 0 at once.")
  boolean noWait;

  @Option(
      names = "--json",
      description =
          "Print a JSON array, one object per server attempted: {name, ran, callerSensitive,"
              + " reasons, detail, era, reportedVersion, stored}.")
  boolean json;

  @Mixin ConfigOptions config = new ConfigOptions();

  @Mixin RecordsOptions records = new RecordsOptions();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  MeasureCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (all == !names.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "give server names or --all (exactly one of the two)");
    }
    if (jobs < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--jobs must be at least 1");
    }
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    if (timeout.compareTo(ProbeOptions.MIN_TIMEOUT) < 0
        || timeout.compareTo(ProbeOptions.MAX_TIMEOUT) > 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--timeout must be between 5 and 120 seconds");
    }
    HostConfig host = config.load(ctx).requireValid();
    List<ConfiguredServer> servers = select(host);
    RecordsDirectory dir = records.resolve(ctx);

    StdioProber prober =
        StdioProber.create(
            ctx, ProbeOptions.defaults().withTimeout(timeout), ProcessPermits.of(jobs));
    EvaluationRunner runner =
        new EvaluationRunner(
            prober, Math.max(1, jobs / 2), () -> System.currentTimeMillis() / 1000.0);
    EvaluationRunner.Options options =
        all ? EvaluationRunner.Options.uncapped(!noWait) : EvaluationRunner.Options.forced(!noWait);
    // -v/-q may come before or after the subcommand: read them from the whole command line.
    int verbosity = KcshareCommand.verbosityOf(spec.root().commandLine().getParseResult());
    boolean quiet = verbosity < 0;
    ProgressLine progress = new ProgressLine(ctx, ctx.stderrIsTerminal() && !json && !quiet);

    PassResult result;
    Thread worker = Thread.currentThread();
    CountDownLatch passEnded = new CountDownLatch(1);
    Thread hook = new Thread(() -> interruptAndAwait(worker, passEnded), "kcshare-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      try {
        result = runner.run(servers, dir.cacheFile(), options, progress);
      } finally {
        progress.finish();
      }
    } catch (InterruptedException e) {
      // SIGTERM or Ctrl-C (through the hook) or an embedder's interrupt: the runner has torn down
      // every server and saved the verdicts measured before.
      ctx.err()
          .println("kcshare: interrupted; verdicts measured before the interruption were kept");
      ctx.err().flush();
      return Main.EXIT_FAILURE;
    } finally {
      passEnded.countDown();
      removeHook(hook);
    }

    if (result.outcome() == PassResult.Outcome.BUSY) {
      ctx.err().println("kcshare: another measure pass is running on these records; nothing done.");
      if (json) {
        Output.json(ctx, List.of());
      }
      return Main.EXIT_OK;
    }
    List<ServerResult> fresh = inConfigOrder(result.fresh(), servers);
    if (json) {
      List<Object> out = new ArrayList<>();
      for (ServerResult r : fresh) {
        out.add(r.toJson());
      }
      Output.json(ctx, out);
    }
    boolean chatty = !quiet && (ctx.stderrIsTerminal() || verbosity > 0);
    if (chatty && !json) {
      for (ServerResult r : fresh) {
        ctx.err().println(describe(r));
      }
    }
    PassProgress p = result.progress();
    if (p.measured() > 0 && chatty) {
      ctx.err()
          .printf(
              "Measured %d of %d server(s)%s.%n",
              p.measured(),
              p.total(),
              p.done() > p.measured()
                  ? "; " + (p.done() - p.measured()) + " could not run (not stored)"
                  : "");
    }
    return Main.EXIT_OK;
  }

  private List<ConfiguredServer> select(HostConfig host) {
    return all ? host.servers() : host.require(names);
  }

  private static List<ServerResult> inConfigOrder(
      List<ServerResult> fresh, List<ConfiguredServer> servers) {
    Map<String, Integer> order = new HashMap<>();
    for (int i = 0; i < servers.size(); i++) {
      order.putIfAbsent(servers.get(i).name(), i);
    }
    List<ServerResult> sorted = new ArrayList<>(fresh);
    sorted.sort(Comparator.comparingInt(r -> order.getOrDefault(r.name(), Integer.MAX_VALUE)));
    return sorted;
  }

  static String describe(ServerResult r) {
    PreflightResult p = r.result();
    String name = Escaper.esc(r.name(), Escaper.SHORT_LIMIT);
    if (!p.ran()) {
      String line = name + ": could not run: " + Escaper.esc(p.detail(), Escaper.LONG_LIMIT);
      return r.stderrTail().isEmpty() ? line : line + "\n  stderr: " + r.stderrTail();
    }
    return name
        + (p.callerSensitive()
            ? ": handshake differs between callers ("
                + Escaper.esc(p.detail(), Escaper.LONG_LIMIT)
                + ")"
            : ": handshake reproducible")
        + (r.stored() ? ", stored" : "");
  }

  /**
   * The shutdown hook: interrupts the pass and waits until it has flushed. It waits for the pass,
   * not for the thread to end — the thread then blocks in {@code System.exit} until every hook has
   * returned.
   */
  private static void interruptAndAwait(Thread worker, CountDownLatch passEnded) {
    worker.interrupt();
    try {
      passEnded.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down: the hook is running
    }
  }

  /** The progress line on a terminal: done / measured / total, rewritten in place. */
  private static final class ProgressLine implements PassProgress.Listener {
    private final CliContext ctx;
    private final boolean enabled;
    private boolean drawn;

    ProgressLine(CliContext ctx, boolean enabled) {
      this.ctx = ctx;
      this.enabled = enabled;
    }

    @Override
    public synchronized void onProgress(PassProgress p) {
      if (!enabled || !p.running()) {
        return;
      }
      ctx.err()
          .printf(
              "\r\u001b[Kmeasuring: %d/%d done, %d measured", p.done(), p.total(), p.measured());
      ctx.err().flush();
      drawn = true;
    }

    synchronized void finish() {
      if (drawn) {
        ctx.err().print("\r\u001b[K");
        ctx.err().flush();
      }
    }
  }
}
