package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kcshare.core.cost.SessionCost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pre-flight's session cost against {@code ps} on live fixture servers: a server holding a
 * known amount of memory is reported within 15% of what {@code ps -o rss} says for the same tree at
 * the same moment (the sample hook runs {@code ps} before teardown), and a wrapper that forks the
 * server counts 2 processes.
 */
final class FootprintAccuracyTest {
  private static final long MIB = 1024 * 1024;
  private static final int HOLD_MIB = 64;

  @TempDir Path dir;

  @BeforeAll
  static void requireNodeProcAndPs() {
    FixtureServers.assumeNode();
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/smaps_rollup")), "no /proc");
    Assumptions.assumeTrue(
        CommandResolver.resolve("ps", System.getenv("PATH"), Path.of("")).isPresent(), "no ps");
  }

  /** What {@code ps} says about the tree under {@code root}: process count and summed RSS. */
  record PsView(int processes, long rssBytes) {}

  static PsView ps(long root) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("ps", "-e", "-o", "pid=,ppid=,stat=,rss=")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    Map<Long, List<long[]>> byParent = new HashMap<>();
    Map<Long, long[]> byPid = new HashMap<>();
    for (String line : out.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length != 4 || f[2].startsWith("Z")) {
        continue;
      }
      long[] row = {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[3])};
      byPid.put(row[0], row);
      byParent.computeIfAbsent(row[1], k -> new ArrayList<>()).add(row);
    }
    List<long[]> tree = new ArrayList<>();
    List<long[]> queue = new ArrayList<>();
    queue.add(byPid.get(root));
    while (!queue.isEmpty()) {
      long[] row = queue.remove(0);
      if (row == null) {
        continue;
      }
      tree.add(row);
      queue.addAll(byParent.getOrDefault(row[0], List.of()));
    }
    return new PsView(tree.size(), tree.stream().mapToLong(r -> r[2] * 1024).sum());
  }

  private record Seen(SessionCost cost, PsView ps) {}

  private static StdioProber prober(Map<Identity, Seen> seen) {
    return StdioProber.create(
        FixtureServers.env(),
        Path.of("").toAbsolutePath(),
        ProbeOptions.defaults().withTimeout(Duration.ofSeconds(30)),
        ProcessPermits.defaults(),
        new StdioProber.Checkpoints() {
          @Override
          public void sampled(Identity identity, long rootPid, SessionCost cost) {
            try {
              seen.put(identity, new Seen(cost, ps(rootPid)));
            } catch (IOException | InterruptedException e) {
              throw new IllegalStateException(e);
            }
          }
        });
  }

  private ProbeOutcome measure(Map<Identity, Seen> seen, String... flags) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = prober(seen).probe(f.server("stable", flags), false);
    f.assertAllGone();
    assertThat(outcome.result().ran()).as("%s", outcome).isTrue();
    assertThat(seen).containsOnlyKeys(Identity.A, Identity.B);
    return outcome;
  }

  private static void assertAgreesWithPs(Seen s, int processes) {
    SessionCost c = s.cost();
    assertThat(c.processes()).hasValue(processes);
    assertThat(s.ps().processes()).as("ps sees the same tree").isEqualTo(processes);
    long rss = c.rssBytes().orElseThrow();
    assertThat((double) rss)
        .as("rss %d vs ps %d", rss, s.ps().rssBytes())
        .isCloseTo(s.ps().rssBytes(), within(0.15 * s.ps().rssBytes()));
    assertThat(rss).isGreaterThan(HOLD_MIB * MIB);
    assertThat(c.pssBytes().orElseThrow()).isBetween(HOLD_MIB * MIB, rss);
    assertThat(c.readyMillis().orElse(-1)).isPositive();
    assertThat(c.cpuMillis().orElse(-1)).isPositive();
  }

  @Test
  void aServerHoldingKnownMemoryIsReportedAsPsSeesIt() throws Exception {
    Map<Identity, Seen> seen = new ConcurrentHashMap<>();
    ProbeOutcome outcome = measure(seen, "--hold-mib", Integer.toString(HOLD_MIB));
    assertAgreesWithPs(seen.get(Identity.A), 1);
    assertAgreesWithPs(seen.get(Identity.B), 1);
    assertThat(outcome.cost())
        .isEqualTo(seen.get(Identity.A).cost().max(seen.get(Identity.B).cost()));
  }

  @Test
  void aWrapperThatForksTheServerCountsTwoProcesses() throws Exception {
    Map<Identity, Seen> seen = new ConcurrentHashMap<>();
    ProbeOutcome outcome = measure(seen, "--fork", "1", "--hold-mib", Integer.toString(HOLD_MIB));
    assertAgreesWithPs(seen.get(Identity.A), 2);
    assertAgreesWithPs(seen.get(Identity.B), 2);
    assertThat(outcome.cost().processes()).hasValue(2);
    assertThat(outcome.cost())
        .isEqualTo(seen.get(Identity.A).cost().max(seen.get(Identity.B).cost()));
  }

  @Test
  void aServerThatCouldNotRunHasNoCost() throws Exception {
    FixtureServers f = new FixtureServers(dir);
    ProbeOutcome outcome = prober(new ConcurrentHashMap<>()).probe(f.server("exit-early"), false);
    assertThat(outcome.result().ran()).isFalse();
    assertThat(outcome.cost()).isEqualTo(SessionCost.NONE);
  }
}
