package dev.kcshare.cli;

import dev.kcshare.core.records.CacheCodec;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.Dropped;
import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.records.RecordFile;
import dev.kcshare.host.records.RecordsDirectory;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
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
    RecordsDirectory dir = records.resolve(ctx);
    // A missing or unusable file has nothing to decode: its state and problem say why it is empty,
    // and the codec's "top level is null" note would only misdescribe it.
    RecordFile.Read ledgerRead = RecordFile.read(dir.ledgerFile());
    LedgerLoad ledger =
        parsed(ledgerRead) ? LedgerCodec.decode(ledgerRead.root()) : LedgerLoad.empty();
    RecordFile.Read cacheRead = RecordFile.read(dir.cacheFile());
    CacheLoad cache =
        parsed(cacheRead)
            ? CacheCodec.decode(cacheRead.root())
            : new CacheLoad(new TreeMap<>(), new TreeSet<>(), List.of());

    Map<String, Object> out = new LinkedHashMap<>();
    out.put("directory", dir.path().toString());
    out.put("rule", dir.rule().description());
    Map<String, Object> l = file(dir.ledgerFile(), ledgerRead);
    l.put("servers", new ArrayList<>(ledger.servers().keySet()));
    l.put("identities", ledger.servers().values().stream().mapToInt(Map::size).sum());
    l.put("cleared", new ArrayList<>(ledger.cleared().keySet()));
    l.put("dropped", dropped(ledger.dropped()));
    out.put("ledger", l);
    Map<String, Object> c = file(dir.cacheFile(), cacheRead);
    c.put("rows", new ArrayList<>(cache.rows().keySet()));
    c.put("applied", new ArrayList<>(cache.applied()));
    c.put("dropped", dropped(cache.dropped()));
    out.put("cache", c);

    if (json) {
      Output.json(ctx, out);
    } else {
      printHuman(ctx.out(), dir, ledgerRead, ledger, cacheRead, cache);
    }
    return Main.EXIT_OK;
  }

  private static boolean parsed(RecordFile.Read read) {
    return read.exists() && read.problem() == null;
  }

  private static Map<String, Object> file(Path path, RecordFile.Read read) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("file", path.toString());
    m.put("exists", read.exists());
    m.put("problem", read.problem());
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
      RecordsDirectory dir,
      RecordFile.Read ledgerRead,
      LedgerLoad ledger,
      RecordFile.Read cacheRead,
      CacheLoad cache) {
    out.printf(
        "Records directory: %s%n  chosen by: %s%n",
        Escaper.esc(dir.path().toString(), Escaper.LONG_LIMIT), dir.rule().description());
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

  private static String state(RecordFile.Read read) {
    if (!read.exists()) {
      return "not present (nothing recorded yet)";
    }
    @Nullable String problem = read.problem();
    return problem == null
        ? "present"
        : "read as empty: " + Escaper.esc(problem, Escaper.LONG_LIMIT);
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
