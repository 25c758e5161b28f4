package dev.kcshare.host.prober;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.PreflightResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs pre-flights of the given fixture modes concurrently and prints one line per mode: {@code
 * mode ran detail}. Started by {@link ProberMemoryTest} in a JVM with a small heap.
 */
final class MemoryProbeMain {
  private MemoryProbeMain() {}

  public static void main(String[] args) throws Exception {
    Path script = Path.of(args[0]);
    StdioProber prober =
        StdioProber.create(
            System.getenv(),
            Path.of("").toAbsolutePath(),
            ProbeOptions.defaults(),
            ProcessPermits.defaults());
    ExecutorService pool = Executors.newCachedThreadPool();
    List<Future<PreflightResult>> results = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      ServerDefinition server =
          ServerDefinition.stdio(args[i], "node", List.of(script.toString(), args[i]));
      results.add(pool.submit(() -> prober.preflight(server)));
    }
    for (int i = 1; i < args.length; i++) {
      PreflightResult r = results.get(i - 1).get();
      System.out.println(args[i] + " " + r.ran() + " " + r.detail());
    }
    pool.shutdown();
    Runtime rt = Runtime.getRuntime();
    System.out.println("max-heap-mib " + rt.maxMemory() / (1024 * 1024));
  }
}
