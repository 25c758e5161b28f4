package dev.kcshare.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.HostServers;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.RecordResult;
import dev.kcshare.api.RecordsException;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.cost.CostReport;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.policy.EvidenceAssembly;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.records.CacheCodec;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.IdentityHashes;
import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.Assessor;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.IdentityKeys;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.embed.BackgroundPass;
import dev.kcshare.embed.LedgerWriter;
import dev.kcshare.embed.Shareability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every Java snippet of {@code docs/embedding.md}, compiled and run here against the exported API
 * only (this package is outside kcshare's own, and imports nothing else of kcshare), plus a check
 * that the guide still shows exactly this code and names its imports.
 */
final class EmbeddingGuideSnippetsTest {
  private static final Logger log = LoggerFactory.getLogger(EmbeddingGuideSnippetsTest.class);
  private static final Path GUIDE = Path.of("..", "docs", "embedding.md");
  private static final Path SELF =
      Path.of("src", "test", "java", "dev", "kcshare", "docs", "EmbeddingGuideSnippetsTest.java");

  /** What the two modules export: the only kcshare packages the guide and this test may use. */
  private static final Set<String> EXPORTED =
      Set.of(
          "dev.kcshare.embed",
          "dev.kcshare.api",
          "dev.kcshare.core.verdict",
          "dev.kcshare.core.handshake",
          "dev.kcshare.core.records",
          "dev.kcshare.core.policy",
          "dev.kcshare.core.cost",
          "dev.kcshare.core.json");

  /**
   * The gateway's own configuration file, in memory; its writer throws {@link IOException} as a
   * real one does, so every block that writes it must handle that.
   */
  private static final class GatewayConfig {
    final Map<String, Object> section = new LinkedHashMap<>();
    int writes;

    Map<String, Object> mcpGatewaySection() {
      return section;
    }

    void write(Map<String, Object> newSection) throws IOException {
      writes++;
    }
  }

  /** The gateway's own JSON library: text to plain maps, lists, strings, numbers, booleans. */
  private static final class GatewayJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    Object parse(String text) {
      try (JsonParser p = FACTORY.createParser(text)) {
        p.nextToken();
        return value(p);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static Object value(JsonParser p) throws IOException {
      JsonToken t = p.currentToken();
      switch (t) {
        case START_OBJECT -> {
          Map<String, Object> map = new LinkedHashMap<>();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            map.put(name, value(p));
          }
          return map;
        }
        case START_ARRAY -> {
          List<Object> list = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            list.add(value(p));
          }
          return list;
        }
        case VALUE_STRING -> {
          return p.getText();
        }
        case VALUE_NUMBER_INT -> {
          return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
              ? p.getBigIntegerValue()
              : p.getLongValue();
        }
        case VALUE_NUMBER_FLOAT -> {
          return p.getDoubleValue();
        }
        case VALUE_TRUE -> {
          return true;
        }
        case VALUE_FALSE -> {
          return false;
        }
        default -> {
          return null;
        }
      }
    }
  }

  private final Object configLock = new Object();
  private final List<String> shown = new ArrayList<>();
  private final List<PassResult> rendered = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private final GatewayJson json = new GatewayJson();

  /** The gateway's own alerting, for an operator. */
  private static final class Alerts {
    final List<String> raised = new ArrayList<>();

    void raise(String message) {
      raised.add(message);
    }
  }

  private final Alerts alerts = new Alerts();
  private final AtomicInteger threadsMade = new AtomicInteger();

  /** The gateway's own thread factory: names the threads kcshare starts for it. */
  private final ThreadFactory gatewayThreads =
      task -> {
        Thread t = new Thread(task, "gateway-kcshare-" + threadsMade.incrementAndGet());
        t.setDaemon(true);
        return t;
      };

  private void render(PassResult result) {
    rendered.add(result);
  }

  private void show(String name, String strength, boolean stub, boolean share) {
    shown.add(name + " " + strength + " " + stub + " " + share);
  }

  /** Servers kcshare can name but never start, so no snippet spawns anything real. */
  private static List<ConfiguredServer> unstartable(Shareability kc, Path dir) {
    String missing = dir.resolve("no-such-server").toString();
    return kc.servers(
        List.of(
            ServerDefinition.stdio("files-mcp", missing, List.of()),
            ServerDefinition.stdio("search", missing, List.of("--index"))));
  }

  private Map<String, ?> ledgerFile(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Map.of();
    }
    return LedgerCodec.decode(json.parse(Files.readString(file))).servers();
  }

  // ------------------------------------------------------------------ 2. building the facade

  @Test
  void buildingTheFacade(@TempDir Path recordsDir) {
    Map<String, Object> section = Map.of("pool_identity_env", List.of("OAUTH_TENANT"));
    try (Shareability kc =
        Shareability.builder(recordsDir)
            .environment(System.getenv())
            .hostProfile(HostProfile.empty())
            .identityKeys(IdentityKeys.resolve(section.get("pool_identity_env")))
            .processCeiling(8)
            .probeTimeout(Duration.ofSeconds(15))
            .threadFactory(gatewayThreads)
            .onFlushFailure(problem -> alerts.raise("hazards not saved: " + problem.getMessage()))
            .build()) {
      try {
        kc.checkRecordsDirectory(); // at start, before opening the ledger
      } catch (RecordsException e) {
        alerts.raise("records directory unusable: " + e.getMessage()); // the operator's to fix
      }
      // ... the gateway runs ...

      List<ServerDefinition> definitions =
          List.of(
              ServerDefinition.stdio("files-mcp", "npx", List.of("-y", "files-mcp")),
              ServerDefinition.builder("search")
                  .command("uvx")
                  .args(List.of("search-mcp"))
                  .env(Map.of("SEARCH_INDEX", "/srv/index"))
                  .build());
      List<ConfiguredServer> servers = kc.servers(definitions); // blocking: hashes files

      assertThat(servers).extracting(ConfiguredServer::name).containsExactly("files-mcp", "search");
      assertThat(servers.get(0).commonIdentity()).isNotNull();
      assertThat(kc.recordsDirectory()).isEqualTo(recordsDir);
      kc.openLedger(Duration.ofHours(1));
      assertThat(threadsMade.get()).as("the flush thread came from the gateway's factory").isOne();
    } // close: stops passes and threads, flushes the ledger
    assertThat(alerts.raised).as("nothing recorded, nothing lost").isEmpty();
  }

  @Test
  void aLastFlushThatFailsReachesTheListener(@TempDir Path dir) throws IOException {
    Path recordsDir = Files.writeString(dir.resolve("records"), "a file, not a directory");
    Shareability kc =
        Shareability.builder(recordsDir)
            .onFlushFailure(problem -> alerts.raise("hazards not saved: " + problem.getMessage()))
            .build();
    kc.openLedger().record("files-mcp", HazardCodes.UNROUTABLE_SERVER_REQUEST, "");
    kc.close();
    assertThat(alerts.raised)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("hazards not saved: cannot lock " + recordsDir)
        .contains("not a directory");
  }

  // ------------------------------------------------------------------ 2. servers from the host

  @Test
  void serversFromTheHostsConfigs(@TempDir Path dir) {
    Path home = dir.resolve("home");
    writeFile(
        home.resolve(".cursor/mcp.json"),
        "{\"mcpServers\": {\"files-mcp\": {\"command\": \"" + dir.resolve("none") + "\"}}}");
    writeFile(home.resolve(".codeium/windsurf/mcp_config.json"), "{\"mcpServers\": [");
    try (Shareability kc =
        Shareability.builder(dir.resolve("records"))
            .environment(Map.of("HOME", home.toString()))
            .workingDirectory(dir)
            .build()) {
      // off the event loop: reads the client config files and hashes each command
      HostServers host = kc.hostServers(ConfigRequest.discovery());
      for (String skipped : host.skipped()) {
        log.warn("config file skipped: {}", skipped); // its servers are left out
      }
      List<ServerVerdict> rows = kc.verdicts(host, host.servers());

      assertThat(rows).extracting(ServerVerdict::name).containsExactly("files-mcp");
      assertThat(host.server("files-mcp").orElseThrow().first().file())
          .isEqualTo("~/.cursor/mcp.json");
      assertThat(host.skipped()).singleElement().asString().startsWith("~/.codeium/windsurf/");
    }
  }

  private static void writeFile(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------ 3. the hazard ledger

  @Test
  void recordingFlushingAndClearing(@TempDir Path recordsDir) throws Exception {
    Shareability kc = Shareability.builder(recordsDir).build();
    Path file = kc.ledgerFile();
    ServerDefinition definition = ServerDefinition.stdio("files-mcp", "sh", List.of("-c", ""));

    LedgerWriter ledger = openAtStart(kc);
    String launchIdentity = atSpawn(kc, definition);
    onTheRoutingPath(ledger, ServerDefinition.stdio("other", "sh", List.of()), "", null, 1);
    assertThat(ledger.all()).as("a backend that is not shared records nothing").isEmpty();
    onTheRoutingPath(ledger, definition, launchIdentity, null, 2);
    assertThat(ledger.all()).containsOnlyKeys("files-mcp");
    assertThat(refusedRecords).hasValue(0);
    atShutdown(ledger);

    assertThat(ledgerFile(file)).containsOnlyKeys("files-mcp");
    assertThatThrownBy(() -> ledger.codesFor("files-mcp", launchIdentity))
        .as("a closed writer")
        .isInstanceOf(IllegalStateException.class);

    LedgerWriter live = kc.openLedger();
    assertThat(live.codesFor("files-mcp", launchIdentity))
        .as("reloaded from the file")
        .containsExactly(HazardCodes.UNROUTABLE_SERVER_REQUEST);
    clearInProcess(live);
    assertThat(ledgerFile(file)).isEmpty();

    live.record("files-mcp", HazardCodes.UNATTRIBUTABLE_NOTIFICATION, launchIdentity);
    live.flush();
    try (Shareability admin = Shareability.builder(recordsDir).build()) {
      clearFromAnotherProcess(admin);
    }
    assertThat(warnings).isEmpty();
    live.flush(); // a live writer drops its copy when it applies the stamp
    assertThat(live.all()).isEmpty();
    kc.close();
  }

  private LedgerWriter openAtStart(Shareability kc) {
    // at start: reloads what earlier runs observed; flushed every minute and at close
    LedgerWriter ledger = kc.openLedger(Duration.ofMinutes(1));
    return ledger;
  }

  private String atSpawn(Shareability kc, ServerDefinition definition) {
    // at spawn, on a worker thread: blocking, once per backend
    String launchIdentity = kc.launchIdentity(definition);
    return launchIdentity;
  }

  private final AtomicInteger refusedRecords = new AtomicInteger();

  private void onTheRoutingPath(
      LedgerWriter ledger,
      ServerDefinition definition,
      String launchIdentity,
      @Nullable Object exclusiveOwner,
      int attachedStubs) {
    // on the routing path (event loop): cheap, never blocks, never logs
    boolean shared = exclusiveOwner == null && attachedStubs > 1;
    if (shared) {
      RecordResult result =
          ledger.record(definition.name(), HazardCodes.UNROUTABLE_SERVER_REQUEST, launchIdentity);
      if (result == RecordResult.REFUSED) {
        refusedRecords.incrementAndGet(); // an empty name, say; the next flush logs it once
      }
    }
  }

  private void atShutdown(LedgerWriter ledger) {
    // at shutdown: the last flush (kc.close() closes the writer too)
    ledger.close();
  }

  private void clearInProcess(LedgerWriter live) {
    live.clear("files-mcp"); // in-process: written at once
  }

  private void clearFromAnotherProcess(Shareability kc) {
    // from another process (an admin tool; `kcshare hazards clear files-mcp` does the same):
    try {
      kc.clearHazards("files-mcp");
    } catch (RecordsException e) {
      warnings.add(e.getMessage()); // one plain line: the path and the reason
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void aClearThatCannotBeWrittenIsOnePlainLine(@TempDir Path dir) throws IOException {
    Path recordsDir = Files.writeString(dir.resolve("records"), "a file, not a directory");
    try (Shareability admin = Shareability.builder(recordsDir).build()) {
      clearFromAnotherProcess(admin);
    }
    assertThat(warnings)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("cannot write " + recordsDir.resolve("observed-hazards.json"))
        .contains("not a directory")
        .doesNotContain("Exception")
        .doesNotContain("\n");
  }

  // ------------------------------------------------------------------ 4. the row builder

  @Test
  void theRowBuilder(@TempDir Path recordsDir) {
    try (Shareability kc = Shareability.builder(recordsDir).build()) {
      List<ConfiguredServer> servers = unstartable(kc, recordsDir);
      LedgerWriter ledger = kc.openLedger();
      ledger.record("search", HazardCodes.UNROUTABLE_SERVER_REQUEST, "");

      // off the event loop; the rows are then rendered without I/O
      List<ServerVerdict> rows = kc.verdicts(servers); // reads each record file once
      List<ServerVerdict> live = kc.verdicts(servers, ledger); // counts unflushed hazards too
      for (ServerVerdict row : live) {
        Verdict v = row.verdict();
        show(row.name(), v.strength().json(), v.recommendStub(), v.recommendShare());
      }

      assertThat(rows).extracting(r -> r.verdict().strength()).containsOnly(Strength.UNKNOWN);
      assertThat(shown)
          .containsExactly("files-mcp unknown false false", "search refuted false false");
    }
  }

  private final List<String> costs = new ArrayList<>();

  private void showCost(long todayBytes, long givenBackBytes, int unknown) {
    costs.add(todayBytes + " " + givenBackBytes + " " + unknown);
  }

  @Test
  void whatTheServersCost(@TempDir Path recordsDir) throws Exception {
    try (Shareability kc = Shareability.builder(recordsDir).build()) {
      List<ConfiguredServer> servers = unstartable(kc, recordsDir);
      CacheRow measuredRow =
          new CacheRow(
              true,
              false,
              List.of(),
              1.0,
              servers.get(0).commonIdentity(),
              "",
              Era.LEGACY,
              null,
              SessionCost.of(120L << 20, 84L << 20, 2, 500, 400));
      Files.writeString(
          kc.cacheFile(),
          JsonWriter.pretty(CacheCodec.encode(Map.of("files-mcp", measuredRow), List.of())));
      CostReport report = costOf(kc, servers);

      // files-mcp: measured (no_objection here, no handshake stored), 84 MiB a session; search:
      // never
      assertThat(costs).containsExactly((5 * 84L << 20) + " 0 1");
      assertThat(report.largestUnshareable(3))
          .extracting(CostReport.ServerCost::name)
          .containsExactly("files-mcp");
    }
  }

  private CostReport costOf(Shareability kc, List<ConfiguredServer> servers) {
    // off the event loop: one read of each record file, then pure arithmetic
    List<Verdict> verdicts = new ArrayList<>();
    Map<String, SessionCost> measured = new LinkedHashMap<>();
    for (ServerVerdict row : kc.verdicts(servers)) {
      verdicts.add(row.verdict());
      row.sessionCost().ifPresent(cost -> measured.put(row.name(), cost));
    }
    CostReport report = CostReport.of(verdicts, measured, 5); // five concurrent sessions
    CostReport.Totals totals = report.totals();
    showCost(totals.today().memoryBytes(), totals.givenBack().memoryBytes(), totals.missing());
    for (CostReport.ServerCost s : report.largestUnshareable(3)) {
      log.info("{}: {} bytes, blocked by {}", s.name(), s.memoryBytes(), s.blocker());
    }
    return report;
  }

  // ------------------------------------------------------------------ 5. measuring servers

  @Test
  void aBudgetedPassOnARequestPath(@TempDir Path recordsDir) {
    try (Shareability kc = Shareability.builder(recordsDir).build()) {
      List<ConfiguredServer> servers = unstartable(kc, recordsDir);

      // a request path (worker thread) that may spend two spawns
      try {
        PassResult pass = kc.budgetedPass(servers);
        if (pass.outcome() == PassResult.Outcome.YIELDED) {
          // another pass holds the lock: pass.stored() has the stored measurements, by name
        }
        render(pass);
      } catch (RecordsException e) {
        log.warn("shareability pass failed: {}", e.getMessage()); // never fail the request for it
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
  }

  @Test
  void aBackgroundUncappedPass(@TempDir Path recordsDir) {
    try (Shareability kc = Shareability.builder(recordsDir).build()) {
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
      } catch (RecordsException e) {
        log.warn("shareability pass failed: {}", e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }

      assertThat(progress).isNotNull();
      assertThat(pass.isDone()).isTrue();
      assertThat(pass.progress().running()).isFalse();
      assertThat(rendered.isEmpty()).isEqualTo(stopping);
    }
  }

  @Test
  void aNamedPassThatDoesNotWait(@TempDir Path recordsDir) {
    try (Shareability kc = Shareability.builder(recordsDir).build()) {
      List<ConfiguredServer> servers = unstartable(kc, recordsDir);

      // an operator's "measure these now", unless a pass is running (worker thread)
      try {
        PassResult pass = kc.pass(servers, PassOptions.named().waitForLock(false), p -> {});
        if (pass.outcome() == PassResult.Outcome.BUSY) {
          // another pass holds the lock: nothing was measured
        }
        for (PassResult.Measured m : pass.fresh()) {
          log.info("{}: {} failure(s) in a row", m.name(), m.failuresInARow());
        }
        render(pass);
      } catch (RecordsException e) {
        log.warn("shareability pass failed: {}", e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }

      // neither can start: each failure is remembered, once
      assertThat(rendered)
          .singleElement()
          .extracting(PassResult::outcome)
          .isEqualTo(PassResult.Outcome.RAN);
      assertThat(rendered.get(0).fresh())
          .extracting(m -> m.name() + " " + m.result().ran() + " " + m.failuresInARow())
          .containsExactlyInAnyOrder("files-mcp false 1", "search false 1");
    }
  }

  // ------------------------------------------------------------------ 6. seeding, eligibility

  @Test
  void seedingInsideTheGatewaysConfigLock(@TempDir Path recordsDir) throws Exception {
    try (Shareability kc = Shareability.builder(recordsDir).build()) {
      List<ConfiguredServer> servers = unstartable(kc, recordsDir);
      LedgerWriter ledger = kc.openLedger();
      GatewayConfig gatewayConfig = new GatewayConfig();
      gatewayConfig.section.put("stub_servers", new ArrayList<>(List.of("search")));
      Files.writeString(
          kc.cacheFile(), JsonWriter.pretty(CacheCodec.encode(Map.of(), List.of("search"))));
      List<String> wantsShare = seedAtStart(kc, servers, ledger, gatewayConfig);

      // both are unknown (never measured): nothing is stubbed, and files-mcp is not marked
      // seeded, so the first seed after it is measured seeds it
      assertThat(gatewayConfig.writes).isZero();
      assertThat(wantsShare).isEmpty();
      assertThat(warnings).isEmpty();
      assertThat(CacheCodec.decode(json.parse(Files.readString(kc.cacheFile()))).applied())
          .containsExactly("search");
    }
  }

  private List<String> seedAtStart(
      Shareability kc,
      List<ConfiguredServer> servers,
      LedgerWriter ledger,
      GatewayConfig gatewayConfig) {
    List<String> wantsShare = new ArrayList<>();
    synchronized (configLock) { // the gateway's own lock around its config file
      Map<String, Object> section = gatewayConfig.mcpGatewaySection(); // mutable, in memory
      try {
        Seeding.SeedPlan plan =
            kc.seed(section, kc.verdicts(servers, ledger), gatewayConfig::write); // cache lock
        wantsShare.addAll(plan.wantsShare()); // report it; never flip "enabled" from here
      } catch (RecordsException e) {
        warnings.add("not seeded this start: " + e.getMessage()); // nothing was marked
      } catch (IOException e) {
        warnings.add("config not written: " + e.getMessage()); // nothing was marked
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return wantsShare;
  }

  @Test
  void eligibilityInsideTheGatewaysConfigLock(@TempDir Path recordsDir) {
    try (Shareability kc = Shareability.builder(recordsDir).build()) {
      List<ConfiguredServer> servers = unstartable(kc, recordsDir);
      LedgerWriter ledger = kc.openLedger();
      GatewayConfig gatewayConfig = new GatewayConfig();
      List<String> requested = List.of("files-mcp", "nonesuch");
      boolean forwardDeclaredEnv = true; // the gateway's own effective setting
      Eligibility.Result answer;

      synchronized (configLock) {
        Map<String, Object> section = gatewayConfig.mcpGatewaySection();
        Eligibility.Settings settings =
            new Eligibility.Settings(
                Boolean.TRUE.equals(section.get("enabled")),
                forwardDeclaredEnv,
                IdentityKeys.resolve(section.get("pool_identity_env")),
                HostProfile.empty());
        Eligibility.Result result = kc.eligibility(requested, settings, servers, ledger);
        if (!result.stubbed().isEmpty() && Seeding.setOverrides(section, result.stubbed(), true)) {
          try {
            gatewayConfig.write(section);
          } catch (IOException e) {
            warnings.add("config not written: " + e.getMessage()); // tell the client it failed
          }
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
  }

  // ------------------------------------------------------------------ 7. the core alone

  @Test
  void aGatewayWithItsOwnIo(@TempDir Path recordsDir) throws Exception {
    Path ledgerPath = recordsDir.resolve("observed-hazards.json");
    Path cachePath = recordsDir.resolve("shareability-verdicts.json");
    Files.writeString(ledgerPath, "{\"schema\": 1, \"servers\": {}}");
    String ledgerText = Files.readString(ledgerPath, StandardCharsets.UTF_8);
    String cacheText = Files.exists(cachePath) ? Files.readString(cachePath) : "{}";
    Map.Entry<Verdict, String> out = withItsOwnIo(ledgerText, cacheText);
    assertThat(out.getKey().strength()).isEqualTo(Strength.REFUTED);
    assertThat(LedgerCodec.decode(json.parse(out.getValue())).servers())
        .containsOnlyKeys("files-mcp");
  }

  private Map.Entry<Verdict, String> withItsOwnIo(String ledgerText, String cacheText) {
    Clock clock = Clock.fixed(Instant.ofEpochSecond(1_800_000_000L), ZoneOffset.UTC);
    List<String> args = List.of("-y", "files-mcp");
    Map<String, String> env = Map.of("FILES_ROOT", "/srv/files");
    byte[] binary = "the files-mcp launcher".getBytes(StandardCharsets.UTF_8);

    // the gateway read both files itself; its own JSON library parsed them to plain values
    HazardLedger ledger = HazardLedger.of(LedgerCodec.decode(json.parse(ledgerText)));
    VerdictCache cache = VerdictCache.of(CacheCodec.decode(json.parse(cacheText)));

    // the execution identity of one definition, from the fingerprint of the file it runs
    String binaryVersion =
        ExecutionIdentity.binaryVersion(List.of(ExecutionIdentity.fingerprintOfContent(binary)));
    String identity =
        ExecutionIdentity.cacheIdentity(
            IdentityHashes.commandArgsHash("npx", args),
            IdentityHashes.envHash(env, Set.of()),
            binaryVersion);

    // a frame it could not route on a shared backend (launch identity "" when it keeps none)
    double now = clock.millis() / 1000.0;
    ledger.record("files-mcp", HazardCodes.UNROUTABLE_SERVER_REQUEST, "", now);

    // assess the server: config facts, the ledger's codes for the name, the cache row
    ServerFacts facts =
        new ServerFacts(
            "files-mcp", List.of(DefinitionFacts.stdio(identity, List.copyOf(env.keySet()))));
    EvidenceAssembly.Assembled assembled =
        EvidenceAssembly.assemble(
            facts, HostProfile.empty(), ledger.codesForName("files-mcp"), cache);
    Verdict verdict = Assessor.assess(assembled.evidence(), Set.of());

    // write the ledger back, in the file's own format (under the gateway's lock, atomically)
    String written = JsonWriter.pretty(LedgerCodec.encode(ledger.snapshot()));
    return Map.entry(verdict, written);
  }

  /** Lines with their indentation removed and blank lines dropped. */
  private static List<String> normalised(String text) {
    return text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  private static boolean isImport(String line) {
    return line.startsWith("import ");
  }

  /** The package of an {@code import a.b.C;} or {@code import static a.b.C.m;} line. */
  private static String importedPackage(String line) {
    String name = line.replaceFirst("^import (static )?", "").replace(";", "");
    List<String> parts = List.of(name.split("\\."));
    int type = 0;
    while (type < parts.size() && !Character.isUpperCase(parts.get(type).charAt(0))) {
      type++;
    }
    return String.join(".", parts.subList(0, type));
  }

  /** A method declaration, on one line as this test writes them. */
  private static final Pattern METHOD =
      Pattern.compile(
          "^(@\\w+ )*((private|public|protected|static|final) )*[\\w<>\\[\\]@?.,]+( [\\w<>]+)? \\w+\\(.*");

  /**
   * The declaration of the method a snippet starting at {@code line} of this test lies in: the
   * nearest method header above it, up to its opening brace.
   */
  private static @Nullable String enclosingMethod(List<String> source, int line) {
    for (int i = line - 1; i >= 0; i--) {
      if (METHOD.matcher(source.get(i)).matches() && !source.get(i).endsWith(";")) {
        StringBuilder header = new StringBuilder(source.get(i));
        for (int j = i + 1; j < source.size() && !header.toString().endsWith("{"); j++) {
          header.append(' ').append(source.get(j));
        }
        return header.toString();
      }
    }
    return null;
  }

  @Test
  void theCheckFindsTheMethodASnippetRunsIn() {
    List<String> lines =
        List.of(
            "@Test",
            "void aBudgetedPass(@TempDir Path recordsDir) throws Exception {",
            "Shareability kc = build(recordsDir);",
            "kc.budgetedPass(servers);",
            "}",
            "private void seedAtStart(",
            "Shareability kc,",
            "List<ConfiguredServer> servers) {",
            "synchronized (configLock) {",
            "kc.seed(section, rows, writer);");
    assertThat(enclosingMethod(lines, 3)).endsWith("throws Exception {");
    assertThat(enclosingMethod(lines, 9))
        .isEqualTo("private void seedAtStart( Shareability kc, List<ConfiguredServer> servers) {");
  }

  @Test
  void theGuideShowsExactlyThisCodeWithItsImports() throws IOException {
    String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
    List<String> source = normalised(Files.readString(SELF, StandardCharsets.UTF_8));
    List<String> ownImports = source.stream().filter(EmbeddingGuideSnippetsTest::isImport).toList();
    assertThat(ownImports.stream().map(EmbeddingGuideSnippetsTest::importedPackage))
        .as("this test uses kcshare through its exported packages only")
        .filteredOn(p -> p.startsWith("dev.kcshare."))
        .allMatch(EXPORTED::contains);
    Matcher blocks = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(guide);
    int count = 0;
    int withImports = 0;
    while (blocks.find()) {
      count++;
      List<String> lines = normalised(blocks.group(1));
      List<String> imports = lines.stream().filter(EmbeddingGuideSnippetsTest::isImport).toList();
      List<String> snippet = lines.stream().filter(l -> !isImport(l)).toList();
      assertThat(snippet).as("java block %d", count).isNotEmpty();
      assertThat(ownImports).as("the imports java block %d names", count).containsAll(imports);
      assertThat(imports.stream().map(EmbeddingGuideSnippetsTest::importedPackage))
          .as("java block %d imports kcshare's exported packages only", count)
          .filteredOn(p -> p.startsWith("dev.kcshare."))
          .allMatch(EXPORTED::contains);
      withImports += imports.isEmpty() ? 0 : 1;
      int at = java.util.Collections.indexOfSubList(source, snippet);
      assertThat(at)
          .as("java block %d of docs/embedding.md, as contiguous lines of this test", count)
          .isNotNegative();
      assertThat(enclosingMethod(source, at))
          .as("the method java block %d runs in here declares no exceptions", count)
          .isNotNull()
          .doesNotContain(" throws ");
    }
    assertThat(count).as("java blocks in the guide").isGreaterThanOrEqualTo(9);
    assertThat(withImports).as("java blocks that name their imports").isGreaterThanOrEqualTo(7);
  }
}
