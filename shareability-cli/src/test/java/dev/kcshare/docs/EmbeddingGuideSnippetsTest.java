package dev.kcshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.cost.CostReport;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.IdentityKeys;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.embed.BackgroundPass;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.config.ConfiguredServer;
import dev.kcshare.host.evaluation.PassProgress;
import dev.kcshare.host.evaluation.PassResult;
import dev.kcshare.host.prober.ServerDefinition;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.LedgerStore;
import dev.kcshare.host.report.ServerVerdict;
import dev.kcshare.host.report.VerdictReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every Java snippet of {@code docs/embedding.md}, compiled and run here against the public API
 * (this package is outside kcshare's own), plus a check that the guide still shows exactly this
 * code.
 */
final class EmbeddingGuideSnippetsTest {
  private static final Logger log = LoggerFactory.getLogger(EmbeddingGuideSnippetsTest.class);
  private static final Path GUIDE = Path.of("..", "docs", "embedding.md");
  private static final Path SELF =
      Path.of("src", "test", "java", "dev", "kcshare", "docs", "EmbeddingGuideSnippetsTest.java");

  /** The gateway's own configuration file, in memory. */
  private static final class GatewayConfig {
    final Map<String, Object> section = new LinkedHashMap<>();
    int writes;

    Map<String, Object> mcpGatewaySection() {
      return section;
    }

    void write(Map<String, Object> newSection) {
      writes++;
    }
  }

  private final Object configLock = new Object();
  private final List<String> shown = new ArrayList<>();
  private final List<PassResult> rendered = new ArrayList<>();

  private void render(PassResult result) {
    rendered.add(result);
  }

  private void show(String name, String strength, boolean stub, boolean share) {
    shown.add(name + " " + strength + " " + stub + " " + share);
  }

  static void flushQuietly(LedgerStore ledger) {
    try {
      ledger.flush(); // false: not written this time; the next flush retries
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Servers kcshare can name but never start, so no snippet spawns anything real. */
  private static List<ConfiguredServer> unstartable(Shareability kc, Path dir) {
    String missing = dir.resolve("no-such-server").toString();
    return kc.servers(
        List.of(
            ServerDefinition.stdio("files-mcp", missing, List.of()),
            ServerDefinition.stdio("search", missing, List.of("--index"))));
  }

  @Test
  void buildingTheFacade(@TempDir Path recordsDir) {
    Map<String, Object> section = Map.of("pool_identity_env", List.of("OAUTH_TENANT"));
    Shareability kc =
        Shareability.builder(recordsDir)
            .environment(System.getenv())
            .hostProfile(HostProfile.empty())
            .identityKeys(IdentityKeys.resolve(section.get("pool_identity_env")))
            .processCeiling(8)
            .probeTimeout(Duration.ofSeconds(15))
            .build();

    List<ServerDefinition> definitions =
        List.of(
            ServerDefinition.stdio("files-mcp", "npx", List.of("-y", "files-mcp")),
            ServerDefinition.stdio("search", "uvx", List.of("search-mcp")));
    List<ConfiguredServer> servers = kc.servers(definitions); // blocking: hashes files

    assertThat(servers).extracting(ConfiguredServer::name).containsExactly("files-mcp", "search");
    assertThat(servers.get(0).commonIdentity()).isNotNull();
    assertThat(kc.records().path()).isEqualTo(recordsDir);
  }

  @Test
  void recordingFlushingAndClearing(@TempDir Path recordsDir) throws Exception {
    Shareability kc = Shareability.builder(recordsDir).build();
    ServerDefinition definition = ServerDefinition.stdio("files-mcp", "sh", List.of("-c", ""));
    String exclusiveOwner = null;
    int attachedStubs = 2;

    LedgerStore ledger = kc.openLedger(); // reloads what earlier runs observed
    ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor();
    heartbeat.scheduleAtFixedRate(() -> flushQuietly(ledger), 60, 60, TimeUnit.SECONDS);

    // at spawn, on a worker thread: blocking, once per backend
    String launchIdentity = kc.launchIdentity(definition);

    // on the routing path (event loop): cheap, never blocks
    boolean shared = exclusiveOwner == null && attachedStubs > 1;
    if (shared) {
      ledger.record(definition.name(), HazardCodes.UNROUTABLE_SERVER_REQUEST, launchIdentity);
    }

    // at shutdown
    heartbeat.shutdownNow();
    flushQuietly(ledger);

    assertThat(LedgerStore.read(kc.records().ledgerFile()).servers()).containsOnlyKeys("files-mcp");
    assertThat(ledger.ledger().codesFor("files-mcp", launchIdentity))
        .containsExactly(HazardCodes.UNROUTABLE_SERVER_REQUEST);

    ledger.clear("files-mcp"); // in-process: the next flush writes the stamp
    flushQuietly(ledger);
    assertThat(LedgerStore.read(kc.records().ledgerFile()).servers()).isEmpty();

    ledger.record("files-mcp", HazardCodes.UNATTRIBUTABLE_NOTIFICATION, launchIdentity);
    flushQuietly(ledger);
    double nowSeconds = System.currentTimeMillis() / 1000.0;
    // from another process (an admin tool, or `kcshare hazards clear files-mcp`):
    LedgerStore.clearInFile(kc.records().ledgerFile(), "files-mcp", nowSeconds);
    flushQuietly(ledger); // a live writer drops its copy when it applies the stamp
    assertThat(ledger.ledger().all()).isEmpty();
  }

  @Test
  void theRowBuilder(@TempDir Path recordsDir) {
    Shareability kc = Shareability.builder(recordsDir).build();
    List<ConfiguredServer> servers = unstartable(kc, recordsDir);
    LedgerStore ledger = kc.openLedger();
    ledger.record("search", HazardCodes.UNROUTABLE_SERVER_REQUEST, "");

    // off the event loop; the rows are then rendered without I/O
    List<ServerVerdict> rows = kc.verdicts(servers); // reads each record file once
    List<ServerVerdict> live = kc.verdicts(servers, ledger); // counts unflushed hazards too
    for (ServerVerdict row : live) {
      Verdict v = row.verdict();
      show(row.server().name(), v.strength().json(), v.recommendStub(), v.recommendShare());
    }

    assertThat(rows).extracting(r -> r.verdict().strength()).containsOnly(Strength.UNKNOWN);
    assertThat(shown)
        .containsExactly("files-mcp unknown false false", "search refuted false false");
  }

  private final List<String> costs = new ArrayList<>();

  private void showCost(long todayBytes, long givenBackBytes, int unknown) {
    costs.add(todayBytes + " " + givenBackBytes + " " + unknown);
  }

  @Test
  void whatTheServersCost(@TempDir Path recordsDir) throws Exception {
    Shareability kc = Shareability.builder(recordsDir).build();
    List<ConfiguredServer> servers = unstartable(kc, recordsDir);
    try (CacheStore.Session s = CacheStore.open(kc.records().cacheFile())) {
      String identity = servers.get(0).first().identity();
      s.cache()
          .put(
              "files-mcp",
              new CacheRow(
                  true,
                  false,
                  List.of(),
                  1.0,
                  identity,
                  "",
                  Era.LEGACY,
                  null,
                  SessionCost.of(120L << 20, 84L << 20, 2, 500, 400)));
      s.flush();
    }

    // off the event loop: one read of each record file, then pure arithmetic
    List<Verdict> verdicts = new ArrayList<>();
    Map<String, SessionCost> measured = new LinkedHashMap<>();
    for (ServerVerdict row : kc.verdicts(servers)) {
      verdicts.add(row.verdict());
      row.sessionCost().ifPresent(cost -> measured.put(row.server().name(), cost));
    }
    CostReport report = CostReport.of(verdicts, measured, 5); // five concurrent sessions
    CostReport.Totals totals = report.totals();
    showCost(totals.today().memoryBytes(), totals.givenBack().memoryBytes(), totals.missing());
    for (CostReport.ServerCost s : report.largestUnshareable(3)) {
      log.info("{}: {} bytes, blocked by {}", s.name(), s.memoryBytes(), s.blocker());
    }

    // files-mcp: measured (no_objection here, no handshake stored), 84 MiB a session; search: never
    assertThat(costs).containsExactly((5 * 84L << 20) + " 0 1");
    assertThat(report.largestUnshareable(3))
        .extracting(CostReport.ServerCost::name)
        .containsExactly("files-mcp");
  }

  @Test
  void aBudgetedPassOnARequestPath(@TempDir Path recordsDir) {
    Shareability kc = Shareability.builder(recordsDir).build();
    List<ConfiguredServer> servers = unstartable(kc, recordsDir);

    // a request path (worker thread) that may spend two spawns
    try {
      PassResult pass = kc.budgetedPass(servers);
      if (pass.outcome() == PassResult.Outcome.YIELDED) {
        // another pass holds the lock: pass.stored() has the stored rows, by name
      }
      render(pass);
    } catch (IOException e) {
      log.warn("shareability pass failed", e); // never fail the request for it
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }

    assertThat(rendered)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo(PassResult.Outcome.RAN);
              assertThat(r.progress().done()).isEqualTo(2);
            });
  }

  @Test
  void aBackgroundUncappedPass(@TempDir Path recordsDir) throws Exception {
    Shareability kc = Shareability.builder(recordsDir).build();
    List<ConfiguredServer> servers = unstartable(kc, recordsDir);

    BackgroundPass pass =
        kc.startUncappedPass(servers, p -> log.info("{}/{} tried", p.done(), p.total()));
    // a status endpoint, on the event loop:
    PassProgress progress = pass.progress(); // {running, done, measured, total}
    // an operator's "stop" (false once the pass has ended):
    boolean stopping = pass.cancel();
    // a worker thread that wants the outcome:
    try {
      render(pass.await());
    } catch (CancellationException e) {
      // cancelled: the rows measured so far were saved, every process is gone
    } catch (ExecutionException e) {
      log.warn("shareability pass failed", e.getCause());
    }

    assertThat(progress).isNotNull();
    assertThat(pass.isDone()).isTrue();
    assertThat(pass.progress().running()).isFalse();
    assertThat(rendered.isEmpty()).isEqualTo(stopping);
  }

  @Test
  void seedingInsideTheGatewaysConfigLock(@TempDir Path recordsDir) throws Exception {
    Shareability kc = Shareability.builder(recordsDir).build();
    List<ConfiguredServer> servers = unstartable(kc, recordsDir);
    LedgerStore ledger = kc.openLedger();
    GatewayConfig gatewayConfig = new GatewayConfig();
    gatewayConfig.section.put("stub_servers", new ArrayList<>(List.of("search")));
    List<String> wantsShare = new ArrayList<>();
    try (CacheStore.Session s = CacheStore.open(kc.records().cacheFile())) {
      s.cache().markApplied("search"); // seeded by an earlier start
      s.flush();
    }

    synchronized (configLock) { // the gateway's own lock around its config file
      try (CacheStore.Session markers = CacheStore.open(kc.records().cacheFile())) {
        Map<String, Object> section = gatewayConfig.mcpGatewaySection(); // mutable, in memory
        Map<String, Seeding.Recommendation> verdicts = new LinkedHashMap<>();
        for (ServerVerdict row : kc.verdicts(servers, ledger)) {
          Verdict v = row.verdict();
          verdicts.put(v.name(), new Seeding.Recommendation(v.recommendStub(), v.recommendShare()));
        }
        VerdictCache cache = markers.cache();
        Seeding.SeedPlan plan =
            Seeding.plan(cache.applied(), verdicts, Seeding.effectiveStubSet(section));
        if (Seeding.apply(plan, section, cache::markApplied)) {
          gatewayConfig.write(section); // the gateway writes its own file
        }
        markers.flush(); // the applied markers: each server is seeded once
        wantsShare.addAll(plan.wantsShare()); // report it; never flip "enabled" from here
      }
    }

    // both are unknown (never measured), so nothing is stubbed, and files-mcp is marked seeded
    assertThat(gatewayConfig.writes).isZero();
    assertThat(wantsShare).isEmpty();
    assertThat(CacheStore.read(kc.records().cacheFile()).applied())
        .containsExactly("files-mcp", "search");
  }

  @Test
  void eligibilityInsideTheGatewaysConfigLock(@TempDir Path recordsDir) {
    Shareability kc = Shareability.builder(recordsDir).build();
    List<ConfiguredServer> servers = unstartable(kc, recordsDir);
    LedgerStore ledger = kc.openLedger();
    GatewayConfig gatewayConfig = new GatewayConfig();
    List<String> requested = List.of("files-mcp", "nonesuch");
    boolean forwardDeclaredEnv = true; // the gateway's own effective setting
    Eligibility.Result answer;

    synchronized (configLock) {
      Map<String, Object> section = gatewayConfig.mcpGatewaySection();
      Map<String, ServerFacts> facts = new LinkedHashMap<>();
      for (ConfiguredServer s : servers) {
        facts.put(s.name(), VerdictReport.facts(s));
      }
      Eligibility.Settings settings =
          new Eligibility.Settings(
              Boolean.TRUE.equals(section.get("enabled")),
              forwardDeclaredEnv,
              IdentityKeys.resolve(section.get("pool_identity_env")),
              HostProfile.empty());
      VerdictCache cache = VerdictCache.of(CacheStore.read(kc.records().cacheFile()));
      Eligibility.Result result =
          Eligibility.resolve(requested, settings, facts, ledger.ledger()::codesForName, cache);
      if (!result.stubbed().isEmpty() && Seeding.setOverrides(section, result.stubbed(), true)) {
        gatewayConfig.write(section);
      }
      answer = result; // stubbed / skipped go back to the client
    }

    assertThat(answer.stubbed()).isEmpty();
    assertThat(answer.skipped())
        .extracting(Eligibility.Skip::reason)
        .containsExactly(
            Eligibility.SkipReason.EVIDENCE_INSUFFICIENT, Eligibility.SkipReason.UNKNOWN);
    assertThat(gatewayConfig.writes).isZero();
  }

  /** Lines with their indentation removed and blank lines dropped. */
  private static List<String> normalised(String text) {
    return text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  @Test
  void theGuideShowsExactlyThisCode() throws IOException {
    String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
    List<String> source = normalised(Files.readString(SELF, StandardCharsets.UTF_8));
    Matcher blocks = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(guide);
    int count = 0;
    while (blocks.find()) {
      count++;
      List<String> snippet = normalised(blocks.group(1));
      assertThat(snippet).as("java block %d", count).isNotEmpty();
      assertThat(source)
          .as("java block %d of docs/embedding.md must appear verbatim in this test", count)
          .containsSubsequence(snippet);
      assertThat(java.util.Collections.indexOfSubList(source, snippet))
          .as("java block %d of docs/embedding.md, as contiguous lines of this test", count)
          .isNotNegative();
    }
    assertThat(count).as("java blocks in the guide").isGreaterThanOrEqualTo(8);
  }
}
