package dev.kcshare.host.bench;

import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.records.LedgerStore;
import dev.kcshare.host.records.RecordFile;
import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.IdentityHashes;
import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.LedgerLoad;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Loading the hazard ledger a report reads: the file that {@code LedgerBenchmark} (core) builds
 * for 10,000 identities across 1,000 servers, written in the reference formatting, then read,
 * parsed and decoded (target at most 100 ms), with the parse and the decode also timed alone.
 *
 * <p>Run: {@code ./mvnw -B -ntp -o -Pbench -pl shareability-cli verify -DskipTests
 * -Djmh.args="-f 1 -wi 2 -i 3 -w 2s -r 2s -t 1 LedgerLoadBenchmark"}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LedgerLoadBenchmark {
  private static final int SERVERS = 1_000;
  private static final int IDENTITIES_PER_SERVER = 10;

  private @Nullable Path dir;
  private Path file = Path.of("observed-hazards.json");
  private byte[] bytes = new byte[0];
  private @Nullable Object tree;
  private final JsonReader reader = JsonReader.withDepthLimit(JsonReader.RECORD_DEPTH_LIMIT);

  /** Writes the 10,000-identity ledger file and keeps its bytes and parsed tree. */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    HazardLedger large = HazardLedger.create();
    for (int s = 0; s < SERVERS; s++) {
      String server = "server-" + s;
      for (int i = 0; i < IDENTITIES_PER_SERVER; i++) {
        String id = launchIdentity(s * IDENTITIES_PER_SERVER + i);
        large.record(server, HazardCodes.UNROUTABLE_SERVER_REQUEST, id, 1712000000.0 + i);
        if (i % 3 == 0) {
          large.record(server, HazardCodes.UNATTRIBUTABLE_NOTIFICATION, id, 1712000300.25 + i);
        }
      }
    }
    large.clear("server-0", 1712000400.0);
    Path d = Files.createTempDirectory("kcshare-ledger-bench");
    dir = d;
    file = d.resolve("observed-hazards.json");
    RecordFile.write(file, LedgerCodec.encode(large.snapshot()));
    bytes = Files.readAllBytes(file);
    tree = reader.parse(bytes);
    LedgerLoad check = LedgerStore.read(file);
    if (check.servers().size() < SERVERS - 1) {
      throw new IllegalStateException("decoded only " + check.servers().size() + " servers");
    }
  }

  /** Removes the file. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (dir != null) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  private static String launchIdentity(int n) {
    String command = IdentityHashes.commandArgsHash("/usr/bin/node", List.of("server-" + n));
    String env = IdentityHashes.envHash(Map.of("MODE", "fast", "N", Integer.toString(n)), Set.of());
    return ExecutionIdentity.launchIdentity(command, env, command.substring(0, 24));
  }

  /** What a report pays: read the file, parse it, decode it with the tolerance rules. */
  @Benchmark
  public LedgerLoad readParseAndDecode10kIdentities() {
    return LedgerStore.read(file);
  }

  /** The parse alone, from bytes in memory. */
  @Benchmark
  public @Nullable Object parse10kIdentities() throws Exception {
    return reader.parse(bytes);
  }

  /** The decode alone, from a parsed tree. */
  @Benchmark
  public LedgerLoad decode10kIdentities() {
    return LedgerCodec.decode(tree);
  }
}
