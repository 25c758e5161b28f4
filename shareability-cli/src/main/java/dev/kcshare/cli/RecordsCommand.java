package dev.kcshare.cli;

import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.Dropped;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.records.host.AttemptsCodec;
import dev.kcshare.core.records.host.AttemptsLoad;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.prober.SpawnRegistry;
import dev.kcshare.host.records.RecordFile;
import dev.kcshare.host.records.RecordsDirectory;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  private static final String NEWER = "was written by a newer version";

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
    // A missing or unusable file has nothing to decode: its state and problem say why it is empty.
    RecordFile.Loaded<LedgerLoad> ledgerRead = RecordFile.readLedger(dir.ledgerFile());
    LedgerLoad ledger = ledgerRead.value();
    RecordFile.Loaded<CacheLoad> cacheRead = RecordFile.readCache(dir.cacheFile());
    CacheLoad cache = cacheRead.value();

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
    RecordFile.Read attemptsRead = RecordFile.read(dir.attemptsFile());
    AttemptsLoad attempts = AttemptsCodec.decode(attemptsRead.root());
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("file", dir.attemptsFile().toString());
    a.put("exists", attemptsRead.exists());
    a.put("problem", attemptsRead.problem());
    a.put("leftUnchanged", attempts.newer() ? NEWER : null);
    a.put("servers", new ArrayList<>(attempts.servers().keySet()));
    out.put("attempts", a);
    Path registry = SpawnRegistry.fileIn(dir.path());
    int processes = SpawnRegistry.recordedCount(dir.path());
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("file", registry.toString());
    p.put("exists", Files.exists(registry, LinkOption.NOFOLLOW_LINKS));
    p.put("processes", processes);
    out.put("processes", p);

    if (json) {
      Output.json(ctx, out);
    } else {
      printHuman(ctx.out(), dir, ledgerRead, ledger, cacheRead, cache);
      printOwn(ctx.out(), attemptsRead, attempts, processes);
    }
    return Main.EXIT_OK;
  }

  private static Map<String, Object> file(Path path, RecordFile.Loaded<?> read) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("file", path.toString());
    m.put("exists", read.exists());
    m.put("problem", read.problem());
    m.put("leftUnchanged", refusal(read));
    return m;
  }

  /** Why kcshare will not rewrite the file (written by a newer version…), or null. */
  private static @Nullable String refusal(RecordFile.Loaded<?> read) {
    Object value = read.value();
    if (value instanceof LedgerLoad l) {
      return l.refusal();
    }
    return value instanceof CacheLoad c ? c.refusal() : null;
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
      RecordFile.Loaded<LedgerLoad> ledgerRead,
      LedgerLoad ledger,
      RecordFile.Loaded<CacheLoad> cacheRead,
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

  /** kcshare's own files: remembered failures and the process registry. */
  private static void printOwn(
      PrintWriter out, RecordFile.Read attemptsRead, AttemptsLoad attempts, int processes) {
    String state;
    if (!attemptsRead.exists()) {
      state = "not present (no failed pre-flight remembered)";
    } else if (attemptsRead.problem() != null) {
      state = "read as empty: " + Escaper.esc(attemptsRead.problem(), Escaper.LONG_LIMIT);
    } else if (attempts.newer()) {
      state = "read as empty: it " + NEWER + "; kcshare leaves it unchanged";
    } else {
      state = "present";
    }
    out.printf("%nFailed pre-flights (%s): %s%n", RecordsDirectory.ATTEMPTS_FILE, state);
    if (!attempts.servers().isEmpty()) {
      out.printf(
          "  %d server(s) that could not be measured%s%n",
          attempts.servers().size(), names(attempts.servers().keySet()));
    }
    out.printf(
        "%nProcess registry (%s): %s%n",
        SpawnRegistry.FILE_NAME,
        processes == 0
            ? "no server process recorded"
            : processes
                + " server process(es) of a running pass, or left by a killed one (the next"
                + " pass ends those)");
  }

  private static String state(RecordFile.Loaded<?> read) {
    if (!read.exists()) {
      return "not present (nothing recorded yet)";
    }
    @Nullable String problem = read.problem();
    @Nullable String refusal = refusal(read);
    if (problem == null && refusal != null) {
      return "read as empty: it "
          + Escaper.esc(refusal, Escaper.LONG_LIMIT)
          + "; kcshare leaves it unchanged";
    }
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
