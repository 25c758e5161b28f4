package dev.kcshare.host.records;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A ledger writer in its own JVM, driven line by line on stdin, for {@link LedgerWritersTest}:
 * {@code time T} sets its clock, {@code record NAME CODE IDENTITY}, {@code flush} and {@code clear
 * NAME} call the {@link LedgerStore}; each command answers one line ({@code ok}, or the boolean a
 * call returned). It exits on EOF or {@code exit}. Arguments: the ledger file.
 */
public final class LedgerWriterChild {
  private LedgerWriterChild() {}

  private static volatile double now;

  public static void main(String[] args) throws Exception {
    LedgerStore store = new LedgerStore(Path.of(args[0]), () -> now);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    out.println("ready");
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] w = line.split(" ");
      switch (w[0]) {
        case "time" -> {
          now = Double.parseDouble(w[1]);
          out.println("ok");
        }
        case "record" -> out.println(store.record(w[1], w[2], w.length > 3 ? w[3] : ""));
        case "flush" -> out.println(store.flush());
        case "clear" -> out.println(store.clear(w[1]));
        case "exit" -> {
          out.println("ok");
          return;
        }
        default -> out.println("unknown command " + line);
      }
    }
  }
}
