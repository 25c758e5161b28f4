package dev.kcshare.cli;

import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.Dropped;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.report.RecordFileRead;
import dev.kcshare.host.report.RecordsSnapshot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcshare records}: where the records are, what they hold, and what was dropped. */
@Command(
    name = "records",
    mixinStandardHelpOptions = true,
    description = {
      "Shows where the record files are and why (which rule chose the directory), what each file"
          + " holds, and every row or entry that was dropped on read, with the reason.",
      ""
    })
final class RecordsCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Mixin RecordsOptions records = new RecordsOptions();

  @Option(names = "--json", description = "Machine-readable output.")
  boolean json;

  RecordsCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    RecordsDirectory dir = records.resolveForReading(ctx);
    RecordsSnapshot snapshot = CommandFacade.views(dir).readRecords();
    // A missing or unusable file has nothing to decode: its state and problem say why it is empty.
    RecordFileRead<LedgerLoad> ledgerRead = snapshot.ledger();
    LedgerLoad ledger = ledgerRead.contents();
    RecordFileRead<CacheLoad> cacheRead = snapshot.cache();
    CacheLoad cache = cacheRead.contents();

    Map<String, Object> out = new LinkedHashMap<>();
    out.put("directory", snapshot.directory().toString());
    out.put("rule", dir.rule().description());
    Map<String, Object> l = file(ledgerRead);
    l.put("servers", new ArrayList<>(ledger.servers().keySet()));
    l.put("identities", ledger.servers().values().stream().mapToInt(Map::size).sum());
    l.put("cleared", new ArrayList<>(ledger.cleared().keySet()));
    l.put("dropped", dropped(ledger.dropped()));
    out.put("ledger", l);
    Map<String, Object> c = file(cacheRead);
    c.put("rows", new ArrayList<>(cache.rows().keySet()));
    c.put("applied", new ArrayList<>(cache.applied()));
    c.put("dropped", dropped(cache.dropped()));
    out.put("cache", c);
    RecordFileRead<List<String>> attempts = snapshot.attempts();
    Map<String, Object> a = file(attempts);
    a.put("servers", new ArrayList<>(attempts.contents()));
    out.put("attempts", a);
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("file", snapshot.processFile().toString());
    p.put("exists", snapshot.processFileExists());
    p.put("processes", snapshot.processes());
    out.put("processes", p);

    if (json) {
      Output.json(ctx, out);
    } else {
      printHuman(ctx.out(), snapshot.directory(), dir.rule(), ledgerRead, cacheRead);
      printOwn(ctx.out(), attempts, snapshot.processFile(), snapshot.processes());
    }
    return Main.EXIT_OK;
  }

  private static Map<String, Object> file(RecordFileRead<?> read) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("file", read.file().toString());
    m.put("exists", read.exists());
    m.put("problem", read.problem().orElse(null));
    m.put("leftUnchanged", read.leftUnchanged().orElse(null));
    return m;
  }

  private static List<Object> dropped(List<Dropped> dropped) {
    List<Object> out = new ArrayList<>();
    for (Dropped d : dropped) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("where", d.where());
      m.put("why", d.why());
      out.add(m);
    }
    return out;
  }

  private static void printHuman(
      PrintWriter out,
      Path directory,
      RecordsDirectory.Rule rule,
      RecordFileRead<LedgerLoad> ledgerRead,
      RecordFileRead<CacheLoad> cacheRead) {
    LedgerLoad ledger = ledgerRead.contents();
    CacheLoad cache = cacheRead.contents();
    out.printf(
        "Records directory: %s%n  chosen by: %s%n",
        Escaper.esc(directory.toString(), Escaper.LONG_LIMIT), rule.description());
    out.printf("%nHazard ledger (%s): %s%n", RecordsDirectory.LEDGER_FILE, state(ledgerRead));
    if (ledgerRead.exists()) {
      int identities = ledger.servers().values().stream().mapToInt(Map::size).sum();
      out.printf(
          "  %d server(s) with observed hazards, %d launch identit%s%s%n",
          ledger.servers().size(),
          identities,
          identities == 1 ? "y" : "ies",
          names(ledger.servers().keySet()));
      if (!ledger.cleared().isEmpty()) {
        out.printf(
            "  clear markers for: %s%n", String.join(", ", escaped(ledger.cleared().keySet())));
      }
      printDropped(out, ledger.dropped());
    }
    out.printf("%nVerdict cache (%s): %s%n", RecordsDirectory.CACHE_FILE, state(cacheRead));
    if (cacheRead.exists()) {
      out.printf("  %d row(s)%s%n", cache.rows().size(), names(cache.rows().keySet()));
      out.printf("  %d applied marker(s)%s%n", cache.applied().size(), names(cache.applied()));
      printDropped(out, cache.dropped());
    }
  }

  /** kcshare's own files: remembered failures and the process registry. */
  private static void printOwn(
      PrintWriter out, RecordFileRead<List<String>> attempts, Path processFile, int processes) {
    String state;
    if (!attempts.exists()) {
      state = "not present (no failed pre-flight remembered)";
    } else if (attempts.problem().isPresent()) {
      state = "read as empty: " + Escaper.esc(attempts.problem().get(), Escaper.LONG_LIMIT);
    } else if (attempts.leftUnchanged().isPresent()) {
      state =
          "read as empty: it " + attempts.leftUnchanged().get() + "; kcshare leaves it unchanged";
    } else {
      state = "present";
    }
    out.printf("%nFailed pre-flights (%s): %s%n", RecordsDirectory.ATTEMPTS_FILE, state);
    if (!attempts.contents().isEmpty()) {
      out.printf(
          "  %d server(s) that could not be measured%s%n",
          attempts.contents().size(), names(attempts.contents()));
    }
    out.printf(
        "%nProcess registry (%s): %s%n",
        processFile.getFileName(),
        processes == 0
            ? "no server process recorded"
            : processes
                + " server process(es) of a running pass, or left by a killed one (the next"
                + " pass ends those)");
  }

  private static String state(RecordFileRead<?> read) {
    if (!read.exists()) {
      return "not present (nothing recorded yet)";
    }
    if (read.problem().isEmpty() && read.leftUnchanged().isPresent()) {
      return "read as empty: it "
          + Escaper.esc(read.leftUnchanged().get(), Escaper.LONG_LIMIT)
          + "; kcshare leaves it unchanged";
    }
    return read.problem().isEmpty()
        ? "present"
        : "read as empty: " + Escaper.esc(read.problem().get(), Escaper.LONG_LIMIT);
  }

  private static String names(java.util.Collection<String> names) {
    return names.isEmpty() ? "" : ": " + String.join(", ", escaped(names));
  }

  private static List<String> escaped(java.util.Collection<String> names) {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      out.add(Escaper.esc(n, Escaper.SHORT_LIMIT));
    }
    return out;
  }

  private static void printDropped(PrintWriter out, List<Dropped> dropped) {
    for (Dropped d : dropped) {
      out.printf("  dropped on read: %s: %s%n", printable(d.where()), printable(d.why()));
    }
  }

  /**
   * Load notes already carry names, identities and values escaped (docs/design.md#escaping);
   * escaping them again would double every backslash and quote. Only a note that still holds a
   * non-printable character is escaped here, as a safety net.
   */
  static String printable(String note) {
    boolean plain = note.codePoints().noneMatch(Escaper::isNonPrintable);
    return plain ? note : Escaper.esc(note, Escaper.LONG_LIMIT);
  }
}
