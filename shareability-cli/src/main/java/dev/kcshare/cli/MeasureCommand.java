package dev.kcshare.cli;

import dev.kcshare.core.policy.Selection;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.ConfiguredServer;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.evaluation.EvaluationRunner;
import dev.kcshare.host.evaluation.PassProgress;
import dev.kcshare.host.evaluation.PassResult;
import dev.kcshare.host.evaluation.ServerResult;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.prober.ProcessPermits;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.records.RecordsDirectory;
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
          + " identity or version) first, then those that diverged last time. A server whose"
          + " pre-flight failed twice in a row under the same identity is skipped for 1 h, then"
          + " 2 h, 4 h ... up to 24 h; --retry-failed tries such servers now. A server that timed"
          + " out while others were measured is tried once more at the end, alone, with twice the"
          + " timeout. Named servers are measured now, whatever the cache holds. Disabled servers"
          + " and servers without a command are never spawned. A server whose definitions"
          + " conflict (see kcshare config) is not measured: named, it is an error (exit 2);"
          + " --all skips it.",
      "On a terminal it shows each result as it comes, the servers in flight and whom it waits"
          + " for; otherwise it is quiet unless -v (which adds each server's command line, env"
          + " names, working directory, exit status and phase times). -q prints errors only. The"
          + " exit code is non-zero only for kcshare's own failures, never because a server could"
          + " not run.",
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
      description =
          "Most live server processes at once; each server measured needs two (default: one per"
              + " CPU, from 2 to 8; ${DEFAULT-VALUE} here).")
  int jobs = Selection.defaultProcessCeiling(Runtime.getRuntime().availableProcessors());

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
      names = "--retry-failed",
      description = "With --all: also try servers skipped because their pre-flight kept failing.")
  boolean retryFailed;

  @Option(
      names = "--json",
      description =
          "Print a JSON array, one object per server attempted: {name, ran, callerSensitive,"
              + " reasons, detail, era, reportedVersion, stored}, plus stderrTail and exitStatus"
              + " for a server that could not run.")
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
    List<ConfiguredServer> conflicting = conflicting(servers);
    servers.removeAll(conflicting);
    RecordsDirectory dir = records.resolve(ctx);

    StdioProber prober =
        StdioProber.create(
            ctx.host(), ProbeOptions.defaults().withTimeout(timeout), ProcessPermits.of(jobs));
    EvaluationRunner runner =
        new EvaluationRunner(prober, Math.max(1, jobs / 2), ctx.host()::epochSeconds);
    EvaluationRunner.Options options =
        (all
                ? EvaluationRunner.Options.uncapped(!noWait)
                : EvaluationRunner.Options.forced(!noWait))
            .withRetryFailed(retryFailed);
    // -v/-q may come before or after the subcommand: read them from the whole command line.
    int verbosity = KcshareCommand.verbosityOf(spec.root().commandLine().getParseResult());
    boolean quiet = verbosity < 0;
    Terminal terminal = Terminal.of(ctx);
    MeasureDisplay progress =
        new MeasureDisplay(
            ctx.err(),
            MeasureDisplay.modeFor(terminal, quiet, json),
            verbosity > 0,
            System::nanoTime,
            terminal.columns(),
            MeasureDisplay.Ticker.every(Duration.ofSeconds(1)));
    if (!quiet && (ctx.stderrIsTerminal() || verbosity > 0)) {
      for (ConfiguredServer s : conflicting) {
        ctx.err().println(ServerNotes.measureSkip(s));
      }
    }

    PassResult result;
    Thread worker = Thread.currentThread();
    CountDownLatch passEnded = new CountDownLatch(1);
    Thread hook = new Thread(() -> interruptAndAwait(worker, passEnded), "kcshare-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      try {
        result = runner.run(servers, dir.cacheFile(), options, progress);
      } finally {
        progress.close();
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
      if (!quiet) {
        ctx.err()
            .println("kcshare: another measure pass is running on these records; nothing done.");
      }
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
    if (chatty && !json && !progress.printedResults()) {
      for (ServerResult r : fresh) {
        for (String line : MeasureLines.of(r, verbosity > 0)) {
          ctx.err().println(line);
        }
      }
    }
    PassProgress p = result.progress();
    if (chatty) {
      for (String line :
          MeasureLines.summary(p.measured(), p.total(), p.done(), result.skipped())) {
        ctx.err().println(line);
      }
    }
    ctx.err().flush();
    return Main.EXIT_OK;
  }

  private List<ConfiguredServer> select(HostConfig host) {
    return new ArrayList<>(all ? host.servers() : host.require(names));
  }

  /**
   * The servers whose definitions conflict: no measurement of one definition could count for the
   * name (docs/design.md#evidence-assembly), so a named one is refused (exit 2) and {@code --all}
   * skips them.
   */
  private List<ConfiguredServer> conflicting(List<ConfiguredServer> servers) {
    List<ConfiguredServer> out = new ArrayList<>();
    for (ConfiguredServer s : servers) {
      if (s.conflict() != null) {
        if (!all) {
          throw new BadInputException(ServerNotes.measureRefusal(s));
        }
        out.add(s);
      }
    }
    return out;
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
}
