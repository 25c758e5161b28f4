package dev.kcshare.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassResult;
import dev.kcshare.testing.ThreadSampler;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The builder's thread factory makes every thread kcshare starts for a facade
 * (docs/embedding.md#threads): the facade's own, and every thread of its passes, down to each
 * spawned server's stream pumps. Only the JDK's threads are not from it. Isolated, as every test
 * that spawns.
 */
@Isolated
final class ThreadFactoryCoverageTest {
  private static final Instant T = Instant.parse("2027-01-15T10:00:00Z");

  private final List<Shareability> opened = new ArrayList<>();

  @AfterEach
  void closeFacades() {
    opened.forEach(Shareability::close);
  }

  @BeforeAll
  static void requireNode() {
    EmbedFixtures.assumeNode();
  }

  /** A gateway's factory: non-daemon threads named {@code gw-N}, each recorded. */
  private static final class GatewayThreads implements ThreadFactory {
    final List<Thread> made = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger n = new AtomicInteger();

    @Override
    public Thread newThread(Runnable task) {
      Thread t = new Thread(task, "gw-" + n.incrementAndGet());
      t.setDaemon(false); // not inherited from the thread that asks
      made.add(t);
      return t;
    }

    List<Thread> made() {
      synchronized (made) {
        return List.copyOf(made);
      }
    }

    /** The threads made for a job of kcshare's whose name contains {@code job}. */
    List<Thread> madeFor(String job) {
      return made().stream().filter(t -> t.getName().contains("/kcshare-" + job)).toList();
    }
  }

  private Shareability facade(Path dir, ThreadFactory threads) {
    Shareability kc =
        Shareability.builder(dir.resolve("records"))
            .workingDirectory(dir)
            .clock(InstantSource.fixed(T))
            .threadFactory(threads)
            .build();
    opened.add(kc);
    return kc;
  }

  /** The threads that appeared while {@code body} ran and that {@code gateway} did not make. */
  private static List<String> notFrom(GatewayThreads gateway, ThreadSampler.Body body)
      throws Exception {
    List<Thread> appeared = ThreadSampler.during(body);
    Set<Thread> made = Collections.newSetFromMap(new IdentityHashMap<>());
    made.addAll(gateway.made());
    return appeared.stream().filter(t -> !made.contains(t)).map(Thread::getName).toList();
  }

  @Test
  void everyThreadOfAPassOverTwoServersComesFromTheGatewaysFactory(@TempDir Path dir)
      throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    GatewayThreads gateway = new GatewayThreads();
    Shareability kc = facade(dir, gateway);
    List<ConfiguredServer> servers =
        kc.servers(List.of(f.server("a", "stable"), f.server("b", "stable")));
    List<PassResult> results = new ArrayList<>();

    List<String> foreign =
        notFrom(gateway, () -> results.add(kc.pass(servers, PassOptions.uncapped(), p -> {})));

    assertThat(results.get(0).fresh())
        .extracting(PassResult.Measured::name)
        .containsExactlyInAnyOrder("a", "b");
    assertThat(foreign)
        .as("threads that appeared during the pass and are not the gateway's")
        .allSatisfy(name -> assertThat(ThreadSampler.JDK_THREADS).contains(name));
    int spawns = f.started();
    assertThat(spawns).as("two identities per server").isGreaterThanOrEqualTo(4);
    // Each spawn: its stdout reader, its stdin writer, its stderr drain.
    assertThat(gateway.madeFor("probe-")).hasSize(3 * spawns);
    for (String pump : List.of("-stdout", "-stdin", "-stderr")) {
      assertThat(gateway.madeFor("probe-").stream().filter(t -> t.getName().endsWith(pump)))
          .as(pump)
          .hasSize(spawns);
    }
    assertThat(gateway.madeFor("pass-")).as("one worker per server").hasSize(2);
    assertThat(gateway.madeFor("preflight-").size())
        .as("the identities' pool")
        .isBetween(2, spawns);
    assertThat(gateway.made())
        .as("nothing else")
        .hasSize(3 * spawns + 2 + gateway.madeFor("preflight-").size());
    assertThat(gateway.made())
        .allSatisfy(
            t -> {
              assertThat(t.getName()).startsWith("gw-");
              assertThat(t.isDaemon()).as("%s is a daemon", t.getName()).isTrue();
            });

    kc.close();
    for (Thread t : gateway.made()) {
      t.join(Duration.ofMinutes(1).toMillis());
      assertThat(t.isAlive()).as("%s ended with the facade", t.getName()).isFalse();
    }
    f.assertAllGone();
  }

  @Test
  void theVersionRecheckTheHeadStartAndTheFacadesOwnThreadsComeFromItToo(@TempDir Path dir)
      throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    GatewayThreads gateway = new GatewayThreads();
    Shareability kc = facade(dir, gateway);
    // A moving package version makes the server runtime-resolved: a stored row is re-checked.
    List<ConfiguredServer> servers =
        kc.servers(List.of(f.server("moving", "stable", "fixture@latest")));
    kc.pass(servers, PassOptions.uncapped(), p -> {});

    List<String> foreign =
        notFrom(
            gateway,
            () -> {
              kc.startUncappedPass(servers).await();
              assertThat(kc.beginPass(servers.get(0), PassOptions.named())).isTrue();
              kc.pass(servers, PassOptions.named(), p -> {});
            });

    assertThat(foreign).allSatisfy(name -> assertThat(ThreadSampler.JDK_THREADS).contains(name));
    assertThat(gateway.madeFor("recheck-")).hasSize(1);
    assertThat(gateway.madeFor("head-start")).hasSize(1);
    assertThat(gateway.made().stream().filter(t -> !t.getName().contains("/")))
        .as("the uncapped pass's thread, the facade's own: named by the gateway alone")
        .hasSize(1)
        .allSatisfy(t -> assertThat(t.isDaemon()).as("as the gateway made it").isFalse());
    f.assertAllGone();
  }

  @Test
  void aFactoryThatGivesNoThreadFailsThePassAndSpawnsNothing(@TempDir Path dir) throws Exception {
    EmbedFixtures f = new EmbedFixtures(dir);
    Shareability kc = facade(dir, task -> null);
    List<ConfiguredServer> servers = kc.servers(List.of(f.server("a", "stable")));

    assertThatThrownBy(() -> kc.pass(servers, PassOptions.uncapped(), p -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("gave no thread for kcshare-pass-1");
    assertThat(f.started()).isZero();
  }
}
