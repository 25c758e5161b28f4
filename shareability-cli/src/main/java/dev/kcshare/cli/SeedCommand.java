package dev.kcshare.cli;

import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.internal.FailureAdvice;
import dev.kcshare.core.policy.internal.GatewaySeeding;
import dev.kcshare.core.records.LedgerView;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.GatewaySettings;
import dev.kcshare.host.config.GatewaySources;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.KiroCrewConfig;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.report.RecordViews;
import dev.kcshare.host.report.VerdictRecords;
import dev.kcshare.host.seeding.SeedResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcshare seed}: turns verdicts into {@code stub_overrides}, once per server. */
@Command(
    name = "seed",
    mixinStandardHelpOptions = true,
    description = {
      "Turns this host's verdicts into the Kiro Crew configuration, once per server: a server"
          + " whose verdict recommends a stub gets stub_overrides[name] = true, unless it is"
          + " already stubbed or has an explicit override (an operator's false is never"
          + " overwritten). Every seeded server is marked applied in the verdict cache and is"
          + " never seeded again, even after it leaves the configuration and comes back.",
      "Only mcp_gateway.stub_overrides is written; stub_servers and the sharing switch"
          + " (enabled) never are. Servers whose verdict would also share are listed for a"
          + " separate decision. Servers not measured yet (or that could not run), whose definitions conflict or"
          + " that are disabled are left for a later seed.",
      "Only servers the Kiro Crew gateway fronts are seeded: those defined in"
          + " ~/.kiro/settings/mcp.json or ~/.kiro/agents/*.json. Servers defined only in other"
          + " clients' files are listed as not served by the gateway and never written.",
      "--plan prints what would happen and writes nothing; --apply does it under the config"
          + " lock and the verdict-cache lock (see docs/seeding.md).",
      "--gateway mcphub or --gateway 1mcp seeds that gateway's file instead (by default where"
          + " the gateway itself finds it; --gateway-config names it): the isolation switch"
          + " (mcphub perSessionClient, 1MCP template.perClient) is set to true for every stdio"
          + " server whose verdict does not recommend sharing, once per server, with a minimal"
          + " edit and a .bak; a value already set is never changed.",
      ""
    })
final class SeedCommand implements Callable<Integer> {

  private final CliContext ctx;

  @Mixin ConfigOptions config = new ConfigOptions();

  @Mixin RecordsOptions records = new RecordsOptions();

  @ArgGroup(exclusive = true, multiplicity = "1")
  Mode mode = new Mode();

  /** Exactly one of --plan and --apply. */
  static final class Mode {
    @Option(names = "--plan", description = "Print the plan; write nothing.")
    boolean plan;

    @Option(names = "--apply", description = "Write stub_overrides and the applied markers.")
    boolean apply;
  }

  @Option(names = "--json", description = "Machine-readable output.")
  boolean json;

  @Option(
      names = "--gateway",
      paramLabel = "GATEWAY",
      completionCandidates = GatewayNames.class,
      description =
          "The gateway whose configuration is seeded: kirocrew (the default; stub_overrides),"
              + " mcphub (mcpServers.NAME.perSessionClient) or 1mcp"
              + " (mcpTemplates.NAME.template.perClient).")
  String gateway = "kirocrew";

  /** The values of {@code --gateway}, for shell completion. */
  static final class GatewayNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return List.of("kirocrew", "mcphub", "1mcp").iterator();
    }
  }

  @Option(
      names = "--gateway-config",
      paramLabel = "FILE",
      description =
          "The gateway's configuration file; by default the file the gateway itself reads.")
  @Nullable String gatewayConfig;

  SeedCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  /** What one seed computed (and, with --apply, did). */
  private record Outcome(
      Path configFile,
      boolean sharingOn,
      Seeding.SeedPlan plan,
      Candidates candidates,
      boolean applied,
      List<String> added,
      List<String> keptExplicit,
      boolean configWritten,
      boolean markersWritten,
      ConfigEditor.Before before) {}

  /**
   * Every configured server sorted for seeding: the recommendations of the servers seeding may act
   * on, and the names it leaves alone, each list in code-point order.
   *
   * @param served the verdicts of the gateway-served servers (seeding leaves the {@code unknown}
   *     ones for a later seed)
   * @param notMeasured served, never measured here; seeded by the first seed after a measurement
   * @param conflicting served, but the definitions disagree, so no measurement counts
   * @param disabled served, but disabled, so never spawned and never measured
   * @param notServed defined only in files the Kiro Crew gateway does not front; never seeded
   * @param couldNotRun the names of {@code notMeasured} whose last pre-flight of the current
   *     definition could not run, with that attempt (secrets masked), in code-point order
   */
  private record Candidates(
      List<Verdict> served,
      List<String> notMeasured,
      List<String> conflicting,
      List<String> disabled,
      List<String> notServed,
      Map<String, AttemptRecord> couldNotRun) {}

  @Override
  public Integer call() throws IOException, InterruptedException {
    GatewaySeeding.Gateway other = otherGateway(gateway);
    HostConfig host = config.load(ctx).requireValid();
    RecordsDirectory dir = mode.apply ? records.resolve(ctx) : records.resolveForReading(ctx);
    Path explicit = gatewayConfig == null ? null : ctx.resolve(gatewayConfig);
    if (other != null) {
      return new OtherGatewaySeed(ctx, other).run(host, dir, explicit, mode.apply, json);
    }
    Path file = explicit != null ? explicit : host.gatewayConfigFile(ctx.host());
    Outcome outcome = mode.apply ? apply(file, dir) : plan(host, file, dir);
    if (json) {
      Output.json(ctx, toJson(outcome));
    } else {
      printHuman(ctx.out(), outcome);
      ctx.out().flush();
    }
    return Main.EXIT_OK;
  }

  /**
   * The gateway named by {@code --gateway}: null for Kiro Crew.
   *
   * @throws BadInputException for any other name
   */
  static GatewaySeeding.@Nullable Gateway otherGateway(String name) {
    return switch (name) {
      case "kirocrew" -> null;
      case "mcphub" -> GatewaySeeding.Gateway.MCPHUB;
      case "1mcp" -> GatewaySeeding.Gateway.ONE_MCP;
      default ->
          throw new BadInputException(
              "--gateway must be kirocrew, mcphub or 1mcp, not \""
                  + Escaper.esc(name, Escaper.SHORT_LIMIT)
                  + "\"");
    };
  }

  private Outcome plan(HostConfig host, Path file, RecordsDirectory dir) {
    GatewaySettings settings = KiroCrewConfig.gatewaySettings(ctx.reads(), file);
    Candidates[] candidates = new Candidates[1];
    Seeding.SeedPlan plan;
    RecordViews views = CommandFacade.views(dir);
    plan =
        CommandFacade.seeds(dir)
            .planSeed(
                settings.section(),
                (ledger, cache) ->
                    (candidates[0] = candidates(views, ledger, cache, host, settings)).served());
    return new Outcome(
        file,
        settings.sharingOn(),
        plan,
        candidates[0],
        false,
        List.of(),
        List.of(),
        false,
        false,
        ConfigEditor.Before.of(file));
  }

  private Outcome apply(Path file, RecordsDirectory dir) throws IOException, InterruptedException {
    // Lock order everywhere: the config lock, then the cache lock.
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      HostConfig host = config.load(ctx).requireValid(); // the definitions, read under the lock
      ConfigEditor.Before fileBefore = editor.before();
      GatewaySettings settings = editor.settings();
      Map<String, @Nullable Object> section = editor.section();
      Candidates[] candidates = new Candidates[1];
      boolean[] written = new boolean[1];
      SeedResult seeded;
      RecordViews views = CommandFacade.views(dir);
      seeded =
          CommandFacade.seeds(dir)
              .applySeed(
                  section,
                  (ledger, cache) ->
                      (candidates[0] = candidates(views, ledger, cache, host, settings)).served(),
                  changed ->
                      written[0] = editor.writeStubOverrides(Seeding.validOverrides(changed)));
      return new Outcome(
          editor.file(),
          settings.sharingOn(),
          seeded.plan(),
          candidates[0],
          true,
          seeded.added(),
          seeded.keptExplicit(),
          written[0],
          seeded.markersWritten(),
          fileBefore);
    }
  }

  /** The candidates over the records a seed read: the verdicts of the host's servers from them. */
  private Candidates candidates(
      RecordViews views,
      LedgerView ledger,
      VerdictCache cache,
      HostConfig host,
      GatewaySettings settings) {
    List<ServerVerdict> rows =
        RecordViews.verdicts(
            host.servers(),
            new VerdictRecords(ledger, cache),
            host.hostProfile(),
            settings.identityKeys());
    return candidates(
        rows,
        host,
        settings,
        cache.applied(),
        GatewaySources.of(ctx.env()),
        views.failedPreflights(rows));
  }

  /**
   * Sorts every configured server for seeding. Only servers the Kiro Crew gateway fronts are ever
   * seeded; the others are listed as not served and never marked applied (they would be seeded once
   * they move into a Kiro file). A served server whose verdict is {@code unknown} (never measured
   * here, its definitions conflict, or it is disabled) is left out too: seeding it now would mark
   * it applied with no evidence and it would never be seeded once measured. A name already applied
   * is listed nowhere but in not served: it will not be seeded again anyway.
   */
  private static Candidates candidates(
      List<ServerVerdict> rows,
      HostConfig host,
      GatewaySettings settings,
      Set<String> applied,
      GatewaySources sources,
      Map<String, AttemptRecord> attempts) {
    List<Verdict> served = new ArrayList<>();
    List<String> notMeasured = new ArrayList<>();
    List<String> conflicting = new ArrayList<>();
    List<String> disabled = new ArrayList<>();
    List<String> notServed = new ArrayList<>();
    Map<String, AttemptRecord> couldNotRun = new TreeMap<>(CodePoints.ORDER);
    for (ServerVerdict v : rows) {
      String name = v.verdict().name();
      if (!sources.serves(v.server())) {
        notServed.add(name);
        continue;
      }
      served.add(v.verdict());
      if (!Seeding.isSeedable(v.verdict())) {
        if (applied.contains(name)) {
          continue;
        }
        if (v.server().isConflicting()) {
          conflicting.add(name);
        } else if (ServerNotes.disabled(v.server())) {
          disabled.add(name);
        } else {
          notMeasured.add(name);
          AttemptRecord last = AttemptText.of(attempts, v);
          if (last != null) {
            couldNotRun.put(name, last);
          }
        }
      }
    }
    for (List<String> list : List.of(notMeasured, conflicting, disabled, notServed)) {
      list.sort(CodePoints.ORDER);
    }
    return new Candidates(
        served, notMeasured, conflicting, disabled, notServed, new LinkedHashMap<>(couldNotRun));
  }

  private static Map<String, Object> toJson(Outcome o) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("config", o.configFile().toString());
    out.put("sharingOn", o.sharingOn());
    Map<String, Object> plan = new LinkedHashMap<>();
    plan.put("addStub", o.plan().addStub());
    plan.put("markApplied", o.plan().markApplied());
    plan.put("wantsShare", o.plan().wantsShare());
    out.put("plan", plan);
    out.put("notMeasured", o.candidates().notMeasured());
    Map<String, Object> couldNotRun = new LinkedHashMap<>();
    o.candidates()
        .couldNotRun()
        .forEach((name, a) -> couldNotRun.put(name, couldNotRunJson(name, a)));
    out.put("couldNotRun", couldNotRun);
    out.put("applied", o.applied());
    if (o.applied()) {
      out.put("added", o.added());
      out.put("keptExplicit", o.keptExplicit());
      out.put("configWritten", o.configWritten());
      out.put("markersWritten", o.markersWritten());
    }
    out.put("conflicting", o.candidates().conflicting());
    out.put("disabled", o.candidates().disabled());
    out.put("notServed", o.candidates().notServed());
    out.put("configExists", o.before().fileExisted());
    if (o.applied()) {
      out.put("configCreated", o.configWritten() && !o.before().fileExisted());
    }
    return out;
  }

  /** {@code {"at", "failures", "advice"}}: when it last failed, how often in a row, what to do. */
  private static Map<String, Object> couldNotRunJson(String name, AttemptRecord a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("at", a.at());
    m.put("failures", a.failures());
    m.put("advice", FailureAdvice.of(a.detail(), a.exitStatus(), a.stderrTail()).text(name));
    return m;
  }

  /** {@code could not run, 7 failures in a row; advice: ...} for one server. */
  private static String couldNotRunLine(String name, AttemptRecord a) {
    return "    "
        + Escaper.esc(name, Escaper.SHORT_LIMIT)
        + ": could not run"
        + (a.failures() > 1 ? ", " + a.failures() + " failures in a row" : "")
        + "; advice: "
        + FailureAdvice.of(a.detail(), a.exitStatus(), a.stderrTail()).text(name);
  }

  private void printHuman(PrintWriter out, Outcome o) {
    Seeding.SeedPlan plan = o.plan();
    String file = GatewayWrites.path(o.configFile());
    if (o.applied()) {
      out.printf("Seeded %s%n", file);
    } else if (o.before().fileExisted()) {
      out.printf("Seeding plan for %s (nothing written):%n", file);
    } else {
      out.printf(
          "Seeding plan for %s (nothing written; it does not exist, --apply creates it when there"
              + " is something to stub):%n",
          file);
    }
    out.printf("  stub (stub_overrides = true): %s%n", GatewayWrites.list(plan.addStub()));
    out.printf("  mark applied:                 %s%n", GatewayWrites.list(plan.markApplied()));
    out.printf("  would also share:             %s%n", GatewayWrites.list(plan.wantsShare()));
    Candidates c = o.candidates();
    List<String> neverTried = new ArrayList<>(c.notMeasured());
    neverTried.removeAll(c.couldNotRun().keySet());
    if (!neverTried.isEmpty()) {
      out.printf(
          "  not measured yet (left for a later seed; run kcshare measure): %s%n",
          GatewayWrites.list(neverTried));
    }
    if (!c.couldNotRun().isEmpty()) {
      out.printf(
          "  could not run (left until it runs; kcshare assess NAME shows the last attempt):%n");
      c.couldNotRun().forEach((name, a) -> out.println(couldNotRunLine(name, a)));
    }
    if (!c.conflicting().isEmpty()) {
      out.printf(
          "  conflicting definitions (left until they agree; see kcshare assess NAME): %s%n",
          GatewayWrites.list(c.conflicting()));
    }
    if (!c.disabled().isEmpty()) {
      out.printf(
          "  disabled (never spawned, so never measured; enable it to seed it): %s%n",
          GatewayWrites.list(c.disabled()));
    }
    if (!c.notServed().isEmpty()) {
      out.printf(
          "  not served by the gateway (defined only outside %s; never seeded): %s%n",
          GatewaySources.describe(), GatewayWrites.list(c.notServed()));
    }
    if (o.applied()) {
      if (!o.keptExplicit().isEmpty()) {
        out.printf(
            "  kept the existing explicit override of: %s%n", GatewayWrites.list(o.keptExplicit()));
      }
      out.printf(
          "  %s%n",
          o.configWritten()
              ? GatewayWrites.wrote(o.configFile(), o.before())
              : o.before().fileExisted()
                  ? "configuration unchanged"
                  : "configuration not created (nothing to stub)");
      if (o.configWritten() && !o.before().fileExisted()) {
        out.printf("  %s%n", GatewayWrites.profileAfterCreation(ctx));
      }
      out.printf(
          "  %s%n",
          o.markersWritten()
              ? "recorded " + plan.markApplied().size() + " applied marker(s)"
              : "no new applied markers");
    } else if (!plan.isEmpty()) {
      out.printf("Run kcshare seed --apply to write this.%n");
    } else {
      out.printf("Nothing to seed.%n");
    }
    if (!plan.wantsShare().isEmpty()) {
      Set<String> share = new TreeSet<>(CodePoints.ORDER);
      share.addAll(plan.wantsShare());
      if (o.sharingOn()) {
        out.printf(
            "Sharing is on (mcp_gateway.enabled), so %s will share a backend once stubbed.%n",
            GatewayWrites.list(share));
      } else {
        out.printf(
            "Sharing is off. To let %s share a backend, turn it on yourself: set"
                + " mcp_gateway.enabled to true in %s. kcshare never does, because it changes"
                + " every stubbed server, not just these.%n",
            GatewayWrites.list(share), file);
      }
    }
  }
}
