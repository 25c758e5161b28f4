package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.SelfTest;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.records.HazardRecord;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.core.verdict.internal.EvidenceDocument;
import dev.kcshare.core.verdict.internal.EvidenceInput;
import dev.kcshare.core.verdict.internal.EvidenceJson;
import dev.kcshare.core.verdict.internal.VerdictJson;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileProblem;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.report.EpochSeconds;
import dev.kcshare.host.report.Metrics;
import dev.kcshare.host.report.ReasonText;
import dev.kcshare.host.report.RecordViews;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcshare assess}: verdicts from config and records, or from an evidence file. */
@Command(
    name = "assess",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Prints the verdict for configured servers, from the host config and the record files. It"
          + " never spawns anything: run 'kcshare measure' to gather pre-flight evidence.",
      "",
      "With --evidence FILE, prints the verdict for each server described in an evidence file"
          + " instead (one JSON object or an array; members: name, stdio,"
          + " sessionBoundByConstruction, probeOk, capabilities, protocolVersion,"
          + " toolAnnotations, hasTools, declaredEnvNames, observedHazards, preflightRan,"
          + " preflightCallerSensitive, identityKeys, all optional).",
      "--json prints verdict objects {name, strength, recommendStub, recommendShare, reasons}"
          + " (for configured servers in config order, followed by sources, identity,"
          + " identitiesAgree and measuredAt, then lastAttempt {at, detail, exitStatus,"
          + " stderrTail, failures} when its last pre-flight could not run, then sessionCost"
          + " {rssBytes, pssBytes, processes, readyMillis, cpuMillis, measuredAt} when the"
          + " pre-flight measured it).",
      ""
    })
final class AssessCommand implements Callable<Integer> {
  /** Exit code when a verdict's strength is listed in {@code --fail-on}. */
  static final int EXIT_FAIL_ON = 3;

  private final CliContext ctx;

  @Parameters(
      arity = "0..*",
      paramLabel = "SERVER",
      description = "Configured servers to assess.",
      completionCandidates = ServerNames.class)
  List<String> names = new ArrayList<>();

  @Option(names = "--all", description = "Assess every configured server.")
  boolean all;

  @Option(
      names = "--evidence",
      paramLabel = "FILE",
      description = "Assess an evidence JSON file instead of the host ('-' reads standard input).")
  @Nullable String evidence;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(
      names = "--fail-on",
      split = ",",
      paramLabel = "STRENGTH",
      description =
          "Exit with code 3 when any verdict has one of these strengths (for example"
              + " refuted,disqualified).")
  List<String> failOn = new ArrayList<>();

  @Option(
      names = "--metrics",
      paramLabel = "FILE",
      description =
          "Also write a Prometheus textfile with counts by strength, reason and hazard code,"
              + " session-cost sums by strength, what sharing would give back at a few session"
              + " counts, and the pre-flights that keep failing (never a server name or detail),"
              + " for node_exporter's textfile collector (docs/fleet.md).")
  @Nullable String metrics;

  @Mixin ConfigOptions config = new ConfigOptions();

  @Mixin RecordsOptions records = new RecordsOptions();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Each assessed server's measured session cost, by name (for the metrics). */
  private final Map<String, SessionCost> costs = new LinkedHashMap<>();

  /** What the host's files say beyond the verdicts (for the metrics). */
  private Metrics.Local local = Metrics.Local.NONE;

  AssessCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  /** The verdicts, and how to print them once the metrics file (if any) is written. */
  private record Assessed(List<Verdict> verdicts, Runnable print) {}

  @Override
  public Integer call() {
    Set<Strength> failing = parseFailOn();
    Assessed assessed;
    if (evidence != null) {
      if (all || !names.isEmpty()) {
        throw usage("--evidence cannot be combined with server names or --all");
      }
      assessed = fromEvidence(evidence);
    } else {
      if (all == !names.isEmpty()) {
        throw usage("give server names, --all, or --evidence FILE");
      }
      assessed = fromHost();
    }
    List<Verdict> verdicts = assessed.verdicts();
    // The metrics first: a file that cannot be written is exit 2 with nothing on stdout.
    if (metrics != null) {
      try {
        Metrics.write(ctx.resolve(metrics), Metrics.openMetrics(verdicts, costs, local));
      } catch (IOException e) {
        // A path the user gave: a usage error, in plain words.
        throw new BadInputException(
            Escaper.esc(
                FileProblem.of("write metrics to", ctx.resolve(metrics), e).getMessage(),
                Escaper.LONG_LIMIT),
            e);
      }
    }
    assessed.print().run();
    for (Verdict v : verdicts) {
      if (failing.contains(v.strength())) {
        return EXIT_FAIL_ON;
      }
    }
    return Main.EXIT_OK;
  }

  private Assessed fromEvidence(String source) {
    Object root = InputFiles.readJson(ctx, source);
    EvidenceDocument document;
    try {
      document = EvidenceJson.fromDocument(root);
    } catch (JsonInputException e) {
      throw new BadInputException(InputFiles.displayName(source) + ": " + e.getMessage(), e);
    }
    List<Verdict> verdicts = new ArrayList<>(document.inputs().size());
    List<Object> out = new ArrayList<>();
    for (EvidenceInput input : document.inputs()) {
      Verdict v = input.assess();
      verdicts.add(v);
      out.add(VerdictJson.toJson(v));
    }
    return new Assessed(verdicts, () -> Output.json(ctx, document.isArray() ? out : out.get(0)));
  }

  private Assessed fromHost() {
    try (Shareability kc = CommandFacade.of(ctx, records)) {
      return fromHost(kc);
    }
  }

  /**
   * The newest {@code lastSeen} of the ledger's records of the servers refuted now (0 when none):
   * read only for the metrics, where it lets an alert see a refutation that replaced another.
   */
  private static double newestRefutation(RecordViews views, List<Verdict> verdicts) {
    Set<String> refuted = new java.util.HashSet<>();
    for (Verdict v : verdicts) {
      if (v.strength() == Strength.REFUTED) {
        refuted.add(v.name());
      }
    }
    if (refuted.isEmpty()) {
      return 0;
    }
    double newest = 0;
    for (Map.Entry<String, SortedMap<String, HazardRecord>> e :
        views.readLedger().contents().servers().entrySet()) {
      if (refuted.contains(e.getKey())) {
        for (HazardRecord r : e.getValue().values()) {
          if (Double.isFinite(r.lastSeen())) {
            newest = Math.max(newest, r.lastSeen());
          }
        }
      }
    }
    return newest;
  }

  private Assessed fromHost(Shareability kc) {
    // Verdicts use the gateway's identity keys: a broken Kiro Crew config stops assess.
    HostConfig host = config.load(ctx, kc).requireValid().requireGatewaySettings();
    // Client parts named on the command line are said to be what they are; --all lists them apart.
    List<ConfiguredServer> parts = new ArrayList<>();
    List<String> serverNames = new ArrayList<>();
    for (String name : new java.util.LinkedHashSet<>(names)) {
      ConfiguredServer part = host.serverNamed(name) == null ? host.clientPartNamed(name) : null;
      if (part != null) {
        parts.add(part);
      } else {
        serverNames.add(name);
      }
    }
    List<ConfiguredServer> servers = all ? host.servers() : host.require(serverNames);
    List<ConfiguredServer> shownParts = all ? host.clientParts() : parts;
    RecordsDirectory dir = records.resolveForReading(ctx);
    List<ServerVerdict> rows = kc.verdicts(host, servers);
    RecordViews views = CommandFacade.views(dir);
    Map<String, AttemptRecord> attempts = views.failedPreflights(rows);
    double now = ctx.host().epochSeconds();
    List<Verdict> verdicts = new ArrayList<>();
    List<Integer> failures = new ArrayList<>();
    for (ServerVerdict row : rows) {
      verdicts.add(row.verdict());
      row.sessionCost().ifPresent(c -> costs.put(row.server().name(), c));
      AttemptRecord last = AttemptText.of(attempts, row);
      if (last != null) {
        failures.add(last.failures());
      }
    }
    local =
        new Metrics.Local(
            failures,
            host.gateway().sharingOn(),
            new java.util.HashSet<>(host.gateway().effectiveStubSet()),
            metrics == null ? 0 : newestRefutation(views, verdicts));
    Runnable print;
    if (json) {
      print =
          () -> {
            List<Object> out = new ArrayList<>();
            for (ServerVerdict row : rows) {
              out.add(toJson(row, AttemptText.of(attempts, row)));
            }
            if (!all) {
              for (ConfiguredServer part : parts) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", part.name());
                m.put("partOfClient", true);
                m.put("clients", part.clients());
                out.add(m);
              }
            }
            Output.json(ctx, out);
          };
    } else if (rows.isEmpty() && !all) {
      print = () -> printParts(shownParts);
    } else if (rows.size() == 1 && !all) {
      print =
          () -> {
            printDetail(rows.get(0), AttemptText.of(attempts, rows.get(0)), now);
            printParts(shownParts);
          };
    } else {
      print =
          () -> {
            printTable(rows, attempts, now);
            printParts(shownParts);
          };
    }
    return new Assessed(verdicts, print);
  }

  /** One line per client part shown, after the verdicts (docs/config.md#part-of-the-client). */
  private void printParts(List<ConfiguredServer> parts) {
    for (ConfiguredServer part : parts) {
      ctx.out().println(HostConfig.clientPartText(part));
    }
  }

  static Map<String, Object> toJson(ServerVerdict row) {
    return toJson(row, null);
  }

  static Map<String, Object> toJson(ServerVerdict row, @Nullable AttemptRecord lastAttempt) {
    Map<String, Object> out = new LinkedHashMap<>(VerdictJson.toJson(row.verdict()));
    List<Object> sources = new ArrayList<>();
    for (ConfiguredDefinition d : row.server().configured()) {
      Map<String, Object> src = new LinkedHashMap<>();
      src.put("file", d.file());
      src.put("pointer", d.pointer());
      sources.add(src);
    }
    out.put("sources", sources);
    out.put("identity", row.server().first().identity());
    out.put("identitiesAgree", row.identitiesAgree());
    out.put("measuredAt", row.measuredAt().map(EpochSeconds::seconds).orElse(null));
    if (lastAttempt != null) {
      out.put("lastAttempt", AttemptText.json(lastAttempt));
    }
    Map<String, Object> sessionCost = SessionCostText.json(row);
    if (sessionCost != null) {
      out.put("sessionCost", sessionCost);
    }
    return out;
  }

  private void printTable(
      List<ServerVerdict> rows, Map<String, AttemptRecord> attempts, double now) {
    PrintWriter out = ctx.out();
    Style style = Style.of(ctx);
    int width = "SERVER".length();
    for (ServerVerdict r : rows) {
      width = Math.max(width, Escaper.esc(r.verdict().name(), Escaper.SHORT_LIMIT).length());
    }
    width = Math.min(width, 40);
    out.printf(
        "%-" + width + "s  %-12s  %-5s  %-5s  %s  %s%n",
        "SERVER",
        "VERDICT",
        "STUB",
        "SHARE",
        SessionCostText.headerCells(),
        "REASON");
    for (ServerVerdict r : rows) {
      Verdict v = r.verdict();
      String name = Escaper.esc(v.name(), Escaper.SHORT_LIMIT);
      out.printf(
          "%-" + width + "s  %s  %-5s  %-5s  %s  %s%n",
          name,
          style.strength(v.strength(), String.format("%-12s", v.strength().json())),
          v.recommendStub() ? "yes" : "no",
          v.recommendShare() ? "yes" : "no",
          SessionCostText.cells(r),
          headline(v, r.server(), AttemptText.of(attempts, r), now));
    }
    if (rows.isEmpty()) {
      out.println("(no servers configured; see kcshare config)");
    }
    out.flush();
  }

  /**
   * Beside a hazard of a server measured in the modern era (docs/verdicts.md#refuted): the
   * 2026-07-28 stdio transport leaves a conformant server no way to write the frames a hazard
   * records.
   */
  static final String MODERN_HAZARD =
      "measured in the 2026-07-28 era: a conformant modern stdio server cannot produce this"
          + " hazard (it must not write requests of its own to stdout); the record still refutes"
          + " the share";

  private static String headline(
      Verdict v, ConfiguredServer server, @Nullable AttemptRecord lastAttempt, double now) {
    if (v.reasons().isEmpty()) {
      return "";
    }
    Reason first = v.reasons().get(0);
    String note = ServerNotes.headline(server);
    if (note == null && lastAttempt != null && first.code() == ReasonCode.NOT_PROBED) {
      return AttemptText.cell(lastAttempt, now);
    }
    return reason(first) + (note == null ? "" : ": " + note);
  }

  private static String reason(Reason r) {
    return r.detail().isEmpty()
        ? r.code().code()
        : r.code().code() + " (" + Escaper.esc(r.detail(), Escaper.SHORT_LIMIT) + ")";
  }

  private void printDetail(ServerVerdict row, @Nullable AttemptRecord lastAttempt, double now) {
    PrintWriter out = ctx.out();
    Style style = Style.of(ctx);
    Verdict v = row.verdict();
    String name = Escaper.esc(v.name(), Escaper.SHORT_LIMIT);
    out.printf(
        "%s: %s (%s)%n",
        name, style.strength(v.strength(), v.strength().json()), ReasonText.tier(v.strength()));
    out.printf(
        "  stub: %s   share: %s%n",
        v.recommendStub() ? "recommended" : "not recommended",
        v.recommendShare() ? "recommended" : "not recommended");
    out.println("  reasons:");
    for (Reason r : v.reasons()) {
      out.printf("    %s: %s%n", reason(r), ReasonText.meaning(r.code()));
      String change = ServerNotes.change(row.server(), r.code(), ReasonText.change(r.code(), name));
      if (!change.isEmpty()) {
        out.printf("      what would change it: %s%n", change);
      }
      if (r.code() == ReasonCode.HANDSHAKE_NOT_REPRODUCIBLE && !r.detail().isEmpty()) {
        String kind = ReasonText.divergence(r.detail());
        if (!kind.isEmpty()) {
          out.printf("      %s%n", kind);
        }
      }
      if (r.code() == ReasonCode.OBSERVED_HAZARD && row.evidence().era() == Era.MODERN) {
        out.printf("      %s%n", MODERN_HAZARD);
      }
    }
    if (row.evidence().selfTest() == SelfTest.SKIPPED) {
      out.println("  isolation self-test: skipped when it was measured (--no-self-test)");
    }
    if (lastAttempt != null) {
      for (String line : AttemptText.detail(row.server().name(), lastAttempt, now)) {
        out.println(line);
      }
    }
    if (row.measuredAt().isPresent()) {
      out.printf(
          "  measured: %s%s%n",
          HumanTime.format(row.measuredAt().get()),
          row.evidence().era() == Era.MODERN ? " (2026-07-28 era)" : "");
      SessionCostText.printDetail(out, row);
    }
    for (String line : ServerNotes.detail(row.server())) {
      out.println(line);
    }
    out.flush();
  }

  private Set<Strength> parseFailOn() {
    Set<Strength> out = EnumSet.noneOf(Strength.class);
    for (String s : failOn) {
      try {
        out.add(Strength.fromJson(s.trim()));
      } catch (IllegalArgumentException e) {
        throw usage(
            "--fail-on: not a strength: "
                + Escaper.quoted(s, Escaper.SHORT_LIMIT)
                + " (refuted, disqualified, declared, measured, no_objection, unknown)");
      }
    }
    return out;
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /** ANSI colour for the strength column, only on a terminal, never with NO_COLOR or TERM=dumb. */
  record Style(boolean colour) {
    static Style of(CliContext ctx) {
      return new Style(Terminal.of(ctx).colourOnStdout());
    }

    String strength(Strength s, String text) {
      if (!colour) {
        return text;
      }
      String code =
          switch (s) {
            case REFUTED, DISQUALIFIED -> "31";
            case DECLARED -> "32";
            case MEASURED, NO_OBJECTION -> "36";
            case UNKNOWN -> "2";
          };
      return "\u001b[" + code + "m" + text + "\u001b[0m";
    }
  }
}
