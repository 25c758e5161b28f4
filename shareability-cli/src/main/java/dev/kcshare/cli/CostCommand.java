package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.cost.CostReport;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.cost.ShareBlocker;
import dev.kcshare.core.text.ByteUnits;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.config.HostConfig;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kcshare cost}: what the configured servers cost at N concurrent sessions, and what sharing
 * would give back. The arithmetic is the core's {@link CostReport}; this command only loads the
 * verdicts and the measured figures and prints them.
 */
@Command(
    name = "cost",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Prints what each configured server costs per chat session (memory, processes, start-up"
          + " time and CPU, measured by the pre-flight) with its verdict, largest first; the"
          + " totals for N concurrent sessions today, when every stdio server runs once per"
          + " session; what sharing the servers whose verdict recommends it would give back"
          + " ((N - 1) times their cost); and the largest servers that cannot be shared, each"
          + " with what would change that. It never spawns anything: 'kcshare measure' gathers"
          + " the figures.",
      "",
      "Memory sums use PSS (each shared page divided among the processes that map it) where"
          + " the kernel reports it, else RSS (which counts a shared page in every process and"
          + " so overstates a sum). Servers never measured are listed as of unknown cost and"
          + " left out of every sum; the totals say how many. Disabled servers start in no"
          + " session and are left out.",
      "",
      "--json prints one object: servers (as listed, each with its verdict, sessionCost and"
          + " wouldChange), totals and sessions.",
      ""
    })
final class CostCommand implements Callable<Integer> {
  /** {@link CostReport#DEFAULT_SESSIONS}: the metrics price the same count. */
  static final int DEFAULT_SESSIONS = CostReport.DEFAULT_SESSIONS;

  /** How many of the largest servers that cannot be shared the text lists. */
  static final int LARGEST = 5;

  private final CliContext ctx;

  @Option(
      names = "--sessions",
      paramLabel = "N",
      description =
          "Concurrent chat sessions to price (1 to 100000; default "
              + DEFAULT_SESSIONS
              + ": the session count behind the fan-out figures operators report, such as 914"
              + " processes and 3.4 GB RSS for five sessions of ten servers each).")
  int sessions = DEFAULT_SESSIONS;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Mixin ConfigOptions config = new ConfigOptions();

  @Mixin RecordsOptions records = new RecordsOptions();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  CostCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    if (sessions < 1 || sessions > CostReport.MAX_SESSIONS) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--sessions must be between 1 and " + CostReport.MAX_SESSIONS + ": " + sessions);
    }
    try (Shareability kc = CommandFacade.of(ctx, records)) {
      return report(kc);
    }
  }

  private Integer report(Shareability kc) {
    HostConfig host = config.load(ctx, kc).requireValid();
    List<ConfiguredServer> servers = new ArrayList<>();
    int disabled = 0;
    for (ConfiguredServer s : host.servers()) {
      if (ServerNotes.disabled(s)) {
        disabled++;
      } else {
        servers.add(s);
      }
    }
    records.resolveForReading(ctx);
    List<ServerVerdict> rows = kc.verdicts(host, servers);
    Map<String, ServerVerdict> byName = new LinkedHashMap<>();
    Map<String, SessionCost> costs = new LinkedHashMap<>();
    List<dev.kcshare.core.verdict.Verdict> verdicts = new ArrayList<>();
    for (ServerVerdict row : rows) {
      byName.put(row.server().name(), row);
      verdicts.add(row.verdict());
      row.sessionCost().ifPresent(c -> costs.put(row.server().name(), c));
    }
    CostReport report = CostReport.of(verdicts, costs, sessions);
    if (json) {
      Output.json(ctx, toJson(report, byName));
    } else {
      Set<String> conflicting = new HashSet<>();
      for (ConfiguredServer s : servers) {
        if (s.isConflicting()) {
          conflicting.add(s.name());
        }
      }
      print(report, disabled, conflicting);
    }
    return Main.EXIT_OK;
  }

  // ------------------------------------------------------------------ JSON

  static Map<String, Object> toJson(CostReport report, Map<String, ServerVerdict> rows) {
    List<Object> servers = new ArrayList<>();
    for (CostReport.ServerCost s : report.servers()) {
      Map<String, @Nullable Object> out = new LinkedHashMap<>();
      out.put("name", s.name());
      out.put("strength", s.verdict().strength().json());
      out.put("recommendStub", s.verdict().recommendStub());
      out.put("recommendShare", s.verdict().recommendShare());
      out.put("local", s.local());
      ServerVerdict row = rows.get(s.name());
      out.put("sessionCost", row == null || !s.local() ? null : SessionCostText.json(row));
      out.put("memoryBytes", SessionCostText.boxed(s.memoryBytes()));
      out.put(
          "memoryBasis",
          s.measured() ? (s.cost().orElseThrow().memoryIsProportional() ? "pss" : "rss") : null);
      Map<String, Object> change = null;
      if (s.blocker().isPresent()) {
        change = new LinkedHashMap<>();
        change.put("code", s.blocker().get().json());
        change.put("detail", s.blockerDetail());
      }
      out.put("wouldChange", change);
      servers.add(out);
    }
    CostReport.Totals t = report.totals();
    Map<String, Object> totals = new LinkedHashMap<>();
    totals.put("measured", t.measured());
    totals.put("missing", t.missing());
    totals.put("notLocal", t.notLocal());
    totals.put("perSession", figures(t.perSession()));
    totals.put("today", figures(t.today()));
    totals.put("shared", t.shared());
    totals.put("sharedPerSession", figures(t.sharedPerSession()));
    totals.put("sharedMissing", t.sharedMissing());
    totals.put("givenBack", figures(t.givenBack()));
    totals.put("withSharing", figures(t.withSharing()));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("servers", servers);
    out.put("totals", totals);
    out.put("sessions", report.sessions());
    return out;
  }

  private static Map<String, Object> figures(CostReport.Figures f) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("memoryBytes", f.memoryBytes());
    out.put("processes", f.processes());
    return out;
  }

  // ------------------------------------------------------------------ text

  private void print(CostReport report, int disabled, Set<String> conflicting) {
    PrintWriter out = ctx.out();
    List<CostReport.ServerCost> servers = report.servers();
    out.printf(
        "Per-session cost of %d server(s)%s:%n%n",
        servers.size(), disabled == 0 ? "" : " (" + disabled + " disabled server(s) left out)");
    int width = "SERVER".length();
    for (CostReport.ServerCost s : servers) {
      width = Math.max(width, name(s).length());
    }
    width = Math.min(width, 40);
    String format = "%-" + width + "s  %-12s  %-5s  %8s  %5s  %7s  %7s%s%n";
    out.printf(format, "SERVER", "VERDICT", "SHARE", "MEMORY", "PROCS", "READY", "CPU", "");
    for (CostReport.ServerCost s : servers) {
      SessionCost c = s.cost().orElse(SessionCost.NONE);
      String note = !s.local() ? "  no local process" : s.measured() ? "" : "  cost unknown";
      out.printf(
          format,
          name(s),
          s.verdict().strength().json(),
          s.verdict().recommendShare() ? "yes" : "no",
          SessionCostText.memory(s.memoryBytes()),
          SessionCostText.count(c.processes()),
          SessionCostText.millis(c.readyMillis()),
          SessionCostText.millis(c.cpuMillis()),
          note);
    }
    if (servers.isEmpty()) {
      out.println("(no servers configured; see kcshare config)");
    }

    CostReport.Totals t = report.totals();
    int n = report.sessions();
    out.printf("%nAt %d session(s), each stdio server running once per session:%n", n);
    int conflictingMissing = 0;
    for (CostReport.ServerCost s : servers) {
      if (s.local() && !s.measured() && conflicting.contains(s.name())) {
        conflictingMissing++;
      }
    }
    String measureThem = measureThem(conflictingMissing);
    if (t.measured() == 0) {
      // No figure to multiply: "5 x 0 B = 0 B" would read as a measured zero.
      out.printf(
          "  today: not known yet: no server's cost has been measured%s%n",
          t.missing() == 0 ? "" : " (" + measureThem + ")");
    } else {
      printTotals(out, t, n, measureThem);
    }

    List<CostReport.ServerCost> largest = report.largestUnshareable(LARGEST);
    if (!largest.isEmpty()) {
      out.printf("%nLargest servers that cannot be shared, and what would change that:%n");
      for (CostReport.ServerCost s : largest) {
        out.printf(
            "  %s (%s, %s): %s%n",
            name(s),
            SessionCostText.memory(s.memoryBytes()),
            s.verdict().strength().json(),
            change(s, conflicting.contains(s.name())));
      }
    }
    out.printf(
        "%nMemory is PSS where the kernel reports it, else RSS; figures are per session, the"
            + " larger of the pre-flight's two start-ups (docs/verdicts.md).%n");
    out.flush();
  }

  /** Today's totals, what sharing gives back, and what is left out (something was measured). */
  private static void printTotals(PrintWriter out, CostReport.Totals t, int n, String measureThem) {
    out.printf(
        "  today: %d x %s = %s in %d processes%n",
        n,
        bytes(t.perSession().memoryBytes()),
        bytes(t.today().memoryBytes()),
        t.today().processes());
    if (t.shared() == 0) {
      out.println("  sharing: no measured server's verdict recommends it, so nothing comes back");
    } else {
      out.printf(
          "  sharing the %d server(s) recommended for it gives back %d x %s = %s and %d"
              + " processes%n",
          t.shared(),
          n - 1,
          bytes(t.sharedPerSession().memoryBytes()),
          bytes(t.givenBack().memoryBytes()),
          t.givenBack().processes());
      out.printf(
          "  with that sharing: %s in %d processes%n",
          bytes(t.withSharing().memoryBytes()), t.withSharing().processes());
    }
    if (t.missing() > 0) {
      out.printf(
          "  not counted: %d server(s) of unknown cost%s (%s)%n",
          t.missing(),
          t.sharedMissing() == 0
              ? ""
              : ", " + t.sharedMissing() + " of them recommended for sharing",
          measureThem);
    }
  }

  /**
   * How the servers of unknown cost get measured; {@code kcshare measure} refuses a server whose
   * definitions conflict, so those are named as needing to agree first.
   */
  private static String measureThem(int conflicting) {
    return "`kcshare measure --all` measures them"
        + (conflicting == 0
            ? ""
            : "; "
                + conflicting
                + " of them have definitions that conflict, which must agree before it can measure"
                + " them (see kcshare config)");
  }

  private static String name(CostReport.ServerCost s) {
    return Escaper.esc(s.name(), Escaper.SHORT_LIMIT);
  }

  private static String bytes(long b) {
    return ByteUnits.binary(b);
  }

  /**
   * What would make the server shareable, in a sentence; for a server whose definitions conflict
   * (which {@code kcshare measure} refuses), making them agree comes first.
   */
  static String change(CostReport.ServerCost s, boolean conflicting) {
    String name = name(s);
    String detail = Escaper.esc(s.blockerDetail(), Escaper.LONG_LIMIT);
    Optional<ShareBlocker> blocker = s.blocker();
    if (blocker.isEmpty()) {
      return "recommended for sharing";
    }
    return switch (blocker.get()) {
      case OBSERVED_HAZARD ->
          "the gateway saw the hazard "
              + detail
              + " while it was shared; only `kcshare hazards clear "
              + name
              + "`, once the cause is fixed (or if the gateway blamed the wrong server), lifts it";
      case NOT_STDIO -> "no local process to share";
      case SESSION_BOUND_BY_CONSTRUCTION ->
          "the host profile says it binds itself to one session; a server release that reads the"
              + " caller of every request would change that";
      case NOT_PROBED ->
          conflicting
              ? "never measured, and its definitions conflict: make them agree (see `kcshare"
                  + " assess "
                  + name
                  + "`), then run `kcshare measure "
                  + name
                  + "`"
              : "never measured: run `kcshare measure " + name + "` first";
      case PREFLIGHT_NOT_RUN ->
          "it declares the caller-identity extension, not yet tested: run `kcshare measure "
              + name
              + "`";
      case ROTATING_SECRET_ENV ->
          "it declares the caller-identity extension, but "
              + detail
              + " would be withheld from a shared backend: name it in"
              + " mcp_gateway.pool_identity_env if it identifies the caller";
      case NO_CALLER_IDENTITY_DECLARATION ->
          "a third-party server: only its authors declaring the caller-identity extension"
              + " (kirocrew.caller-identity), confirmed by a pre-flight, would make it shareable";
    };
  }
}
