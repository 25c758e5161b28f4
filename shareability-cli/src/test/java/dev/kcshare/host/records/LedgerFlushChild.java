package dev.kcshare.host.records;

import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardRecord;
import dev.kcshare.core.records.LedgerLoad;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;

/**
 * A ledger writer in its own JVM, for {@link LedgerCrashTest}: loads the ledger, then in a tight
 * loop records one new distinct observation and flushes, printing {@code flushed <n>} after each
 * successful flush, until it is killed. Observation {@code n} is ({@link #name}, {@link #code},
 * {@link #identity}); numbering continues from what the file already holds.
 *
 * <p>Arguments: the ledger file and the number of flushes after which it exits on its own (3). It
 * also exits after 60 s, or when nobody reads its output any more, so a child orphaned by a dead
 * test JVM cannot run for ever.
 */
public final class LedgerFlushChild {
  private LedgerFlushChild() {}

  static String name(int n) {
    return "srv-" + (n % 5);
  }

  static String code(int n) {
    return HazardCodes.ALL.get(n % HazardCodes.ALL.size());
  }

  static String identity(int n) {
    return "cmd\u0000env\u0000fp-" + n;
  }

  /** The number of observations a loaded ledger holds (one identity each). */
  static int observations(LedgerLoad load) {
    int n = 0;
    for (SortedMap<String, HazardRecord> identities : load.servers().values()) {
      n += identities.size();
    }
    return n;
  }

  /** Whether observation {@code n} is in the loaded ledger. */
  static boolean holds(LedgerLoad load, int n) {
    Map<String, HazardRecord> identities = load.servers().get(name(n));
    HazardRecord r = identities == null ? null : identities.get(identity(n));
    return r != null && r.codes().contains(code(n)) && r.count() == 1;
  }

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    int maxFlushes = Integer.parseInt(args[1]);
    long deadline = System.nanoTime() + 60_000_000_000L;
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    LedgerStore store = new LedgerStore(file, () -> System.currentTimeMillis() / 1000.0);
    store.load();
    int next = 0;
    for (SortedMap<String, HazardRecord> identities :
        store.ledger().snapshot().servers().values()) {
      next += identities.size();
    }
    out.println("ready " + next);
    out.flush();
    for (int flushes = 0; flushes < maxFlushes && System.nanoTime() < deadline; flushes++) {
      int n = next++;
      if (!store.record(name(n), code(n), identity(n))) {
        throw new AssertionError("observation " + n + " was not new");
      }
      if (!store.flush()) {
        throw new AssertionError("flush " + n + " failed");
      }
      out.println("flushed " + n);
      out.flush();
      if (out.checkError()) {
        System.exit(4); // nobody is reading any more: the test is gone
      }
    }
    System.exit(3);
  }
}
