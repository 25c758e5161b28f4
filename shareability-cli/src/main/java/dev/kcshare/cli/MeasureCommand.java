package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.policy.internal.Selection;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileProblem;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.report.Metrics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
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
          + " timeout. Named servers are measured now, whatever the cache holds, and their"
          + " failure does not lengthen that wait. Disabled servers"
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
  /** {@code --timeout}, as {@code measure} and {@code preflight} both describe it. */
  static final String TIMEOUT_HELP =
      "Deadline of each awaited response in seconds, 5 to 120 (default: ${DEFAULT-VALUE}).";

  /** {@code --no-self-test}, as {@code measure} and {@code preflight} both describe it. */
  static final String NO_SELF_TEST_HELP =
      "Do not run the isolation self-test a declaring server offers (three calls of its own"
          + " test tool); the measurement then says it was skipped.";

  /** {@code --era}, as {@code measure} and {@code preflight} both describe it. */
  static final String ERA_HELP =
      "Which era to measure: auto (initialize first, as today's gateways open; a server that"
          + " rejects it is asked server/discover), modern (server/discover first, as a gateway"
          + " of the 2026-07-28 era opens) or legacy (initialize only). Default: auto.";

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

  @Option(names = "--timeout", paramLabel = "SECONDS", description = TIMEOUT_HELP)
  int timeoutSeconds = (int) ProbeOptions.DEFAULT_TIMEOUT.toSeconds();

  @Option(names = "--no-self-test", description = NO_SELF_TEST_HELP)
  boolean noSelfTest;

  @Option(
      names = "--era",
      paramLabel = "ERA",
      completionCandidates = MeasureCommand.EraNames.class,
      description = ERA_HELP)
  String era = "auto";

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

  @Option(
      names = "--metrics",
      paramLabel = "FILE",
      description =
          "After a completed pass, write a Prometheus textfile about it for node_exporter's"
              + " textfile collector: when it completed, how long it took, and how many servers"
              + " were due, measured, could not run or were skipped for backoff (counts only,"
              + " never a server name; docs/fleet.md). The directory must exist.")
  @Nullable String metrics;

  @Mixin ConfigOptions config = new ConfigOptions();

  @Mixin RecordsOptions records = new RecordsOptions();

  /** Null when the command runs without picocli ({@link #of}). */
  @CommandLine.Spec CommandLine.Model.@Nullable CommandSpec spec;

  /** The pre-flight begun for this command line before it was read ({@link #of}), or null. */
  private @Nullable MeasureHeadStart headStart;

  MeasureCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  /**
   * The command exactly as picocli sets it up for the head start's command line (MeasureLineTest
   * holds MeasureLine and picocli together), to run without building picocli's command model at
   * all. A plain line has no {@code -v}/{@code -q}: verbosity 0.
   */
  static MeasureCommand of(CliContext ctx, MeasureHeadStart early) {
    MeasureLine line = early.line();
    MeasureCommand m = new MeasureCommand(ctx);
    m.headStart = early;
    m.names = new ArrayList<>(List.of(line.name()));
    m.jobs = line.jobs();
    m.timeoutSeconds = line.timeoutSeconds();
    m.json = line.json();
    m.noWait = line.noWait();
    m.config = ConfigOptions.of(line.config());
    m.records.recordsDir = line.recordsDir();
    return m;
  }

  /** The pass options of a command line. */
  static PassOptions options(boolean all, boolean noWait, boolean retryFailed) {
    return (all ? PassOptions.uncapped() : PassOptions.named())
        .waitForLock(!noWait)
        .retryFailed(retryFailed);
  }

  /** The values of {@code --era}, for shell completion. */
  static final class EraNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return List.of("auto", "modern", "legacy").iterator();
    }
  }

  /**
   * The {@code --era} value read; {@code usage} makes the exit-2 error for anything but auto,
   * modern or legacy.
   */
  static EraChoice eraChoice(String value, Function<String, RuntimeException> usage) {
    try {
      return EraChoice.parse(value);
    } catch (IllegalArgumentException e) {
      throw usage.apply(
          "--era must be auto, modern or legacy, got "
              + Escaper.quoted(value, Escaper.SHORT_LIMIT));
    }
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (all == !names.isEmpty()) {
      throw usage("give server names or --all (exactly one of the two)");
    }
    if (jobs < 1) {
      throw usage("--jobs must be at least 1");
    }
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    if (timeout.compareTo(ProbeOptions.MIN_TIMEOUT) < 0
        || timeout.compareTo(ProbeOptions.MAX_TIMEOUT) > 0) {
      throw usage("--timeout must be between 5 and 120 seconds");
    }
    // A head start (Main) made for this very command line: its configuration, its runner and the
    // pre-flight it began; the checks below then pass exactly as they did for it.
    MeasureHeadStart early = headStart == null ? null : headStart.takeFor(asLine());
    HostConfig host =
        (early != null ? config.loaded(ctx, early.host()) : config.load(ctx)).requireValid();
    List<ConfiguredServer> servers = select(host);
    List<ConfiguredServer> conflicting = conflicting(servers);
    servers.removeAll(conflicting);
    RecordsDirectory dir = early != null ? early.dir() : records.resolve(ctx);
    if (metrics != null) {
      // Before the pass, so that a mistyped path does not cost a whole pass.
      checkMetrics(() -> Metrics.checkDirectory(ctx.resolve(metrics)));
    }

    PassOptions options =
        options(all, noWait, retryFailed).era(eraChoice(era, this::usage)).selfTest(!noSelfTest);
    // -v/-q may come before or after the subcommand: read them from the whole command line.
    int verbosity =
        spec == null ? 0 : KcshareCommand.verbosityOf(spec.root().commandLine().getParseResult());
    boolean quiet = verbosity < 0;
    Terminal terminal = Terminal.of(ctx);
    MeasureDisplay progress =
        new MeasureDisplay(
            ctx.err(),
            MeasureDisplay.modeFor(terminal, quiet, json, verbosity),
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
    double startedAt = ctx.host().epochSeconds();
    // A head start's facade is closed with the head start (Main), after the command.
    Shareability facade =
        early != null ? early.facade() : CommandFacade.forPasses(ctx, dir, timeoutSeconds, jobs);
    PassHook hook = early != null ? early.hook() : PassHook.install();
    try {
      try {
        result = facade.pass(servers, options, progress);
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
      if (early == null) {
        facade.close();
      }
      hook.ended();
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
    PassProgress p = result.progress();
    if (metrics != null) {
      double completedAt = ctx.host().epochSeconds();
      Metrics.Pass pass =
          new Metrics.Pass(
              completedAt,
              completedAt - startedAt,
              p.total(),
              p.measured(),
              p.done() - p.measured(),
              result.skipped().size());
      checkMetrics(() -> Metrics.write(ctx.resolve(metrics), Metrics.passMetrics(pass)));
    }
    List<PassResult.Measured> fresh = inConfigOrder(result.fresh(), servers);
    if (json) {
      List<Object> out = new ArrayList<>();
      for (PassResult.Measured r : fresh) {
        out.add(MeasureLines.json(r));
      }
      Output.json(ctx, out);
    }
    boolean chatty = !quiet && (ctx.stderrIsTerminal() || verbosity > 0);
    if (chatty && !json && !progress.printedResults()) {
      for (PassResult.Measured r : fresh) {
        for (String line : MeasureLines.of(r, verbosity > 0)) {
          ctx.err().println(line);
        }
      }
    }
    if (!quiet) {
      // Every pass ends with one line, on a terminal or not, so a cron log shows that it ran.
      ctx.err()
          .println(
              MeasureLines.summary(
                  p.measured(), p.total(), p.done(), progress.retried(), result.skipped()));
    }
    ctx.err().flush();
    return Main.EXIT_OK;
  }

  /** A metrics file operation. */
  @FunctionalInterface
  private interface MetricsFileStep {
    void run() throws IOException;
  }

  /** Runs it; a path that cannot be written is the user's: exit 2, in plain words. */
  private void checkMetrics(MetricsFileStep step) {
    try {
      step.run();
    } catch (IOException e) {
      Path file = ctx.resolve(Objects.requireNonNull(metrics));
      throw new BadInputException(
          Escaper.esc(FileProblem.of("write metrics to", file, e).getMessage(), Escaper.LONG_LIMIT),
          e);
    }
  }

  private RuntimeException usage(String message) {
    if (spec == null) { // a MeasureLine is never one of these
      return new IllegalStateException(message);
    }
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /**
   * This command line as a {@link MeasureLine} (one server, neither {@code --all} nor {@code
   * --retry-failed}, no {@code --metrics}, no {@code --era} but auto, no {@code --no-self-test}),
   * or null.
   */
  @Nullable MeasureLine asLine() {
    if (all
        || retryFailed
        || metrics != null
        || names.size() != 1
        || !"auto".equals(era)
        || noSelfTest) {
      return null;
    }
    return new MeasureLine(
        names.get(0), config.request(), records.recordsDir, timeoutSeconds, jobs, json, noWait);
  }

  private List<ConfiguredServer> select(HostConfig host) {
    return new ArrayList<>(all ? host.servers() : host.require(names));
  }

  /**
   * The servers whose definitions conflict: no measurement of one definition could count for the
   * name (docs/design.md#evidence-assembly), so {@code --all} skips them. A named server a pass
   * would not spawn (conflicting, disabled, not stdio, a 1MCP template with variables) is refused
   * (exit 2) with the reason, before anything runs (docs/config.md).
   */
  private List<ConfiguredServer> conflicting(List<ConfiguredServer> servers) {
    List<ConfiguredServer> out = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    for (ConfiguredServer s : servers) {
      if (!all && s.refusal() != null) {
        refused.add(s.isConflicting() ? ServerNotes.measureRefusal(s) : ServerNotes.notSpawned(s));
      }
      if (s.isConflicting()) {
        out.add(s);
      }
    }
    if (!refused.isEmpty()) {
      throw new BadInputException(String.join(System.lineSeparator(), refused));
    }
    return out;
  }

  private static List<PassResult.Measured> inConfigOrder(
      List<PassResult.Measured> fresh, List<ConfiguredServer> servers) {
    Map<String, Integer> order = new HashMap<>();
    for (int i = 0; i < servers.size(); i++) {
      order.putIfAbsent(servers.get(i).name(), i);
    }
    List<PassResult.Measured> sorted = new ArrayList<>(fresh);
    sorted.sort(Comparator.comparingInt(r -> order.getOrDefault(r.name(), Integer.MAX_VALUE)));
    return sorted;
  }
}
