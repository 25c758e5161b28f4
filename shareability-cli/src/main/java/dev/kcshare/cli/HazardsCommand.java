package dev.kcshare.cli;

import dev.kcshare.core.records.HazardRecord;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.records.LedgerUnion;
import dev.kcshare.core.text.ClosestName;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.report.RecordFileRead;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcshare hazards}: the observed-hazard ledger. */
@Command(
    name = "hazards",
    mixinStandardHelpOptions = true,
    description = "Shows or clears what the gateway's hazard ledger observed.",
    subcommands = {HazardsCommand.ListHazards.class, HazardsCommand.Clear.class})
final class HazardsCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
  }

  /** {@code kcshare hazards list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = {
        "Lists every server with observed hazards: its codes, how often, when last seen, and under"
            + " which launch identities.",
        "--json prints an object keyed by server name, each {\"codes\", \"count\", \"lastSeen\","
            + " \"identities\"} with the meanings of the ledger file's members.",
        ""
      })
  static final class ListHazards implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin RecordsOptions records = new RecordsOptions();

    @Option(names = "--json", description = "Machine-readable output.")
    boolean json;

    ListHazards(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      RecordsDirectory dir = records.resolveForReading(ctx);
      RecordFileRead<LedgerLoad> ledger = CommandFacade.views(dir).readLedger();
      if (json) {
        Output.json(ctx, toJson(ledger.contents()));
      } else {
        printHuman(ctx.out(), ledger);
      }
      return Main.EXIT_OK;
    }

    static Map<String, Object> toJson(LedgerLoad load) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<String, SortedMap<String, HazardRecord>> server : load.servers().entrySet()) {
        Map<String, Object> identities = new LinkedHashMap<>();
        for (Map.Entry<String, HazardRecord> id : server.getValue().entrySet()) {
          HazardRecord r = id.getValue();
          identities.put(id.getKey(), record(r.codes(), r.count(), r.lastSeen()));
        }
        LedgerUnion union = LedgerUnion.of(server.getValue().values());
        Map<String, Object> entry = record(union.codes(), union.countValue(), union.lastSeen());
        entry.put("identities", identities);
        out.put(server.getKey(), entry);
      }
      return out;
    }

    private static Map<String, Object> record(
        Collection<String> codes, Number count, double lastSeen) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("codes", new ArrayList<>(codes));
      m.put("count", count);
      m.put("lastSeen", lastSeen);
      return m;
    }

    private static void printHuman(PrintWriter out, RecordFileRead<LedgerLoad> ledger) {
      LedgerLoad load = ledger.contents();
      if (load.servers().isEmpty()) {
        out.println(
            "No hazards observed ("
                + Escaper.esc(ledger.file().toString(), Escaper.LONG_LIMIT)
                + ").");
        return;
      }
      for (Map.Entry<String, SortedMap<String, HazardRecord>> server : load.servers().entrySet()) {
        LedgerUnion union = LedgerUnion.of(server.getValue().values());
        out.printf(
            "%s: %s (%d times, last seen %s)%n",
            Escaper.esc(server.getKey(), Escaper.SHORT_LIMIT),
            String.join(", ", union.codes()),
            union.count(),
            HumanTime.format(union.lastSeen()));
        for (Map.Entry<String, HazardRecord> id : server.getValue().entrySet()) {
          HazardRecord r = id.getValue();
          out.printf(
              "  identity %s: %s (%d times, last seen %s)%n",
              id.getKey().isEmpty()
                  ? "(unattributed)"
                  : Escaper.quoted(id.getKey(), Escaper.LONG_LIMIT),
              String.join(", ", r.codes()),
              r.count(),
              HumanTime.format(r.lastSeen()));
        }
      }
    }
  }

  /** {@code kcshare hazards clear}. */
  @Command(
      name = "clear",
      mixinStandardHelpOptions = true,
      description = {
        "Drops every observation of a server from the ledger: the operator's only way to remove"
            + " evidence (for instance after the gateway misattributed a frame).",
        "The clear is stamped in the file, so a running kcshare ledger writer drops its in-memory"
            + " copy too. A running Python Kiro Crew gateway does not honour the stamp: stop it"
            + " first, or clear from inside it.",
        ""
      })
  static final class Clear implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin RecordsOptions records = new RecordsOptions();

    @Mixin ConfigOptions config = new ConfigOptions();

    @Parameters(
        arity = "1",
        paramLabel = "SERVER",
        description = "The configured server name.",
        completionCandidates = ServerNames.class)
    String server;

    @Option(
        names = "--force",
        description =
            "Clear a name that is neither configured nor in the ledger (a server no longer"
                + " configured whose hazards a running gateway may still hold).")
    boolean force;

    Clear(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
      if (server.isEmpty()) {
        throw new BadInputException("SERVER must not be empty");
      }
      RecordsDirectory dir = records.resolve(ctx);
      try (Shareability kc = CommandFacade.of(ctx, dir)) {
        RecordFileRead<LedgerLoad> ledger = CommandFacade.views(dir).readLedger();
        // A ledger that could not be read cannot say the name is unknown: the clear itself then
        // reports what it finds (a newer version's file is left unchanged, and so on).
        List<String> recorded = new ArrayList<>(ledger.contents().servers().keySet());
        HostConfig host = config.load(ctx);
        host.requireValid();
        boolean configured = host.names().contains(server);
        if (ledger.isComplete() && !configured && !recorded.contains(server) && !force) {
          // A typo must not stamp a clear and leave the real server's hazards in place.
          List<String> candidates = new ArrayList<>(recorded);
          candidates.addAll(host.names());
          throw new BadInputException(unknown(server, candidates));
        }
        boolean had = kc.clearHazards(server); // ends what a killed pass left running there too
        if (had) {
          ctx.err().println("Cleared the observed hazards of " + Escaper.quoted(server, 120) + ".");
        } else {
          ctx.err()
              .println(
                  "No hazards were recorded for "
                      + Escaper.quoted(server, 120)
                      + "; the clear is stamped anyway.");
        }
      }
      return Main.EXIT_OK;
    }

    /**
     * The message for a name that is neither configured nor recorded: the closest other name from
     * the ledger and the configuration, never the name itself.
     */
    static String unknown(String name, List<String> candidates) {
      List<String> others = new ArrayList<>();
      for (String c : candidates) {
        if (!c.equals(name) && !others.contains(c)) {
          others.add(c);
        }
      }
      String hint = ClosestName.closest(name, others);
      return "unknown server "
          + Escaper.quoted(name, Escaper.SHORT_LIMIT)
          + (hint == null
              ? ""
              : ": did you mean " + Escaper.quoted(hint, Escaper.SHORT_LIMIT) + "?")
          + " (not configured and no hazards recorded; --force clears it anyway)";
    }
  }
}
