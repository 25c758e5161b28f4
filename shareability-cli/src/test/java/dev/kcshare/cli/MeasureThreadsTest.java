package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.evaluation.FixtureFleet;
import dev.kcshare.testing.ThreadSampler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The threads {@code kcshare measure} starts: the command's facade uses kcshare's default factory,
 * so every thread but the JDK's is a daemon named {@code kcshare-...} for its job. Isolated, as
 * every test that spawns.
 */
@Isolated
final class MeasureThreadsTest {
  @TempDir Path dir;
  private FixtureFleet fleet;

  @BeforeAll
  static void requireNode() {
    FixtureFleet.assumeNode();
  }

  @AfterEach
  void nothingOutlivesTheTest() throws Exception {
    if (fleet != null) {
      fleet.assertAllGone();
    }
    FixtureFleet.assertNoDescendantRuns();
  }

  @Test
  void measureOfTwoServersStartsDaemonsNamedForTheirJobs() throws Exception {
    fleet = new FixtureFleet(dir).fixture("a", "stable").fixture("b", "stable");
    fleet.write();
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("KCSHARE_STDERR_TTY");
    env.remove("KCSHARE_STDOUT_TTY");
    env.remove("KCSHARE_RECORDS_DIR");
    List<CliRun> runs = new ArrayList<>();

    List<Thread> appeared =
        ThreadSampler.during(
            () ->
                runs.add(
                    CliRun.run(
                        dir,
                        "",
                        env,
                        "measure",
                        "a",
                        "b",
                        "--jobs",
                        "4",
                        "--config",
                        "cfg.json",
                        "--records-dir",
                        "records")));

    assertThat(runs.get(0).exitCode()).as(runs.get(0).stderr()).isZero();
    List<Thread> kcshare =
        appeared.stream().filter(t -> !ThreadSampler.JDK_THREADS.contains(t.getName())).toList();
    assertThat(kcshare)
        .allSatisfy(
            t -> {
              assertThat(t.getName()).startsWith("kcshare-");
              assertThat(t.isDaemon()).as("%s is a daemon", t.getName()).isTrue();
            });
    int spawns = fleet.spawns("a") + fleet.spawns("b");
    assertThat(spawns).as("two identities per server").isGreaterThanOrEqualTo(4);
    for (String pump : List.of("-stdout", "-stdin", "-stderr")) {
      assertThat(named(kcshare, "kcshare-probe-", pump)).as(pump).isEqualTo(spawns);
    }
    assertThat(named(kcshare, "kcshare-pass-", ""))
        .as("one worker per server (--jobs 4)")
        .isEqualTo(2);
    assertThat(named(kcshare, "kcshare-preflight-", "")).isBetween(2, spawns);
  }

  private static int named(List<Thread> threads, String prefix, String suffix) {
    return (int)
        threads.stream()
            .map(Thread::getName)
            .filter(n -> n.startsWith(prefix) && n.endsWith(suffix))
            .count();
  }
}
