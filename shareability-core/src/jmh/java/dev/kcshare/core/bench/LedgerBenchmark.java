package dev.kcshare.core.bench;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.IdentityHashes;
import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.LedgerSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The ledger's two costs: {@link HazardLedger#record} of a code that is already recorded (the
 * routing path; target at least 5,000,000 calls per second on one thread and 0 B/op), and building
 * the flush payload for 10,000 identities across 1,000 servers — snapshot, encode, and the
 * pretty-printed text (target at most 100 ms).
 *
 * <p>Run: {@code ./mvnw -B -ntp -o -Pbench -pl shareability-core verify -DskipTests
 * -Djmh.args="-f 1 -wi 2 -i 3 -w 2s -r 2s -t 1 -prof gc LedgerBenchmark"}
 */
@State(Scope.Thread)
public class LedgerBenchmark {
  private static final int SERVERS = 1_000;
  private static final int IDENTITIES_PER_SERVER = 10;

  private HazardLedger hot = HazardLedger.create();
  private HazardLedger large = HazardLedger.create();
  private LedgerSnapshot largeSnapshot = large.snapshot();
  private String name = "files-mcp";
  private String code = HazardCodes.UNROUTABLE_SERVER_REQUEST;
  private String identity = "";
  private double now = 1712000000.5;

  /** A ledger holding the repeated code, and a large ledger for the payload benchmarks. */
  @Setup(Level.Trial)
  public void setUp() {
    identity = launchIdentity(0);
    hot = HazardLedger.create();
    hot.record(name, code, identity, now);
    large = HazardLedger.create();
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
    largeSnapshot = large.snapshot();
  }

  private static String launchIdentity(int n) {
    String command = IdentityHashes.commandArgsHash("/usr/bin/node", List.of("server-" + n));
    String env = IdentityHashes.envHash(Map.of("MODE", "fast", "N", Integer.toString(n)), Set.of());
    return ExecutionIdentity.launchIdentity(command, env, command.substring(0, 24));
  }

  /** A repeat of a code already recorded for (name, identity): count and lastSeen only. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public boolean recordRepeatedCode() {
    return hot.record(name, code, identity, now);
  }

  /** Encode plus pretty text of a prepared 10,000-identity snapshot. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public String encodeAndWrite10kIdentities() {
    return JsonWriter.pretty(LedgerCodec.encode(largeSnapshot));
  }

  /** The whole flush payload: snapshot of the live ledger, encode, pretty text. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public String snapshotEncodeAndWrite10kIdentities() {
    return JsonWriter.pretty(LedgerCodec.encode(large.snapshot()));
  }
}
