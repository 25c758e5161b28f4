package dev.kcshare.host.records;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.ExecutionIdentity;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * A verdict-cache writer in its own JVM, for {@link CacheStoreConcurrencyTest}: prints {@code
 * ready}, waits for a line on stdin (so that two children start writing together), then runs {@code
 * sessions} locked read–modify–write sessions, each storing the row {@code <prefix>-<i>} and
 * marking it applied, and prints {@code done}.
 *
 * <p>Arguments: the cache file, the row name prefix, the number of sessions.
 */
public final class CacheWriterChild {
  private CacheWriterChild() {}

  static CacheRow row(String name) {
    return new CacheRow(
        true,
        false,
        List.of(),
        1712000000.5,
        ExecutionIdentity.cacheIdentity("c-" + name, "e", "fp"),
        "1.0",
        Era.LEGACY,
        null);
  }

  /** One session: lock, load, put, mark applied, flush, unlock. */
  static void session(Path file, String name) throws Exception {
    try (CacheStore.Session session = CacheStore.open(file, null)) {
      if (session == null) {
        throw new AssertionError("an unbounded wait returned no session");
      }
      session.cache().put(name, row(name));
      session.cache().markApplied(name);
      if (!session.flush()) {
        throw new AssertionError("nothing written for " + name);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    String prefix = args[1];
    int sessions = Integer.parseInt(args[2]);
    System.out.println("ready");
    System.out.flush();
    // EOF (a closed stdin) also starts the run.
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    for (int i = 0; i < sessions; i++) {
      session(file, prefix + "-" + i);
    }
    System.out.println("done");
    System.out.flush();
  }
}
