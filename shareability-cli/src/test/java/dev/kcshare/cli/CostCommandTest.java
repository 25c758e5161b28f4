package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.evaluation.FixtureFleet;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.LedgerStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kcshare cost} over stored rows: every server largest first with its verdict, the totals at
 * N sessions, what sharing gives back, what blocks the rest; never a spawn.
 */
final class CostCommandTest {
  private static final long MIB = 1024 * 1024;
  private static final String EVIL = "evil\u001b[2J\nname";

  @TempDir Path dir;
  private FixtureFleet fleet;

  @BeforeEach
  void fleetWithRecords() throws Exception {
    fleet = new FixtureFleet(dir);
    fleet
        .fixture("notes", "stable")
        .fixture("calendar", "stable", "--declare", "1")
        .fixture("tickets", "stable")
        .fixture("fresh", "stable")
        .fixture(EVIL, "stable");
    Map<String, Object> remote = new LinkedHashMap<>();
    remote.put("type", "http");
    remote.put("url", "https://docs.example.invalid/mcp");
    fleet.entry("docs", remote);
    Map<String, Object> off = new LinkedHashMap<>();
    off.put("command", "node");
    off.put("args", List.of("x.mjs"));
    off.put("disabled", true);
    fleet.entry("archive", off);
    Path config = fleet.write();
    HostConfig host = FixtureFleet.load(config, env());
    Map<String, SessionCost> costs = new LinkedHashMap<>();
    costs.put("notes", SessionCost.of(120 * MIB, 84 * MIB, 2, 500, 400));
    costs.put("calendar", SessionCost.of(50 * MIB, 40 * MIB, 1, 300, 200));
    costs.put("tickets", SessionCost.of(70 * MIB, -1, 3, 200, 100));
    costs.put(EVIL, SessionCost.of(1 * MIB, 1 * MIB, 1, 10, 10));
    costs.put("fresh", null); // measured without figures (another platform)
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      for (Map.Entry<String, SessionCost> e : costs.entrySet()) {
        String identity = host.serverNamed(e.getKey()).first().identity();
        s.cache().put(e.getKey(), row(identity, e.getKey().equals("calendar"), e.getValue()));
      }
      s.flush();
    }
    LedgerStore ledger =
        new LedgerStore(fleet.records().resolve("observed-hazards.json"), () -> 5.0);
    ledger.record("tickets", "unroutable_server_request", "");
    assertThat(ledger.flush()).isTrue();
  }

  @AfterEach
  void costNeverSpawns() throws Exception {
    fleet.assertSpawns(Map.of("notes", 0, "calendar", 0, "tickets", 0, "fresh", 0));
  }

  private static CacheRow row(String identity, boolean declares, @Nullable SessionCost cost) {
    Map<String, Object> capabilities = new HashMap<>();
    capabilities.put("tools", Map.of());
    if (declares) {
      capabilities.put("experimental", Map.of("kirocrew.caller-identity", Map.of()));
    }
    StoredHandshake handshake =
        new StoredHandshake(
            capabilities,
            "2024-11-05",
            Map.of("name", "x", "version", "1.0"),
            List.of(Map.of("readOnlyHint", true)),
            true);
    return new CacheRow(
        true, false, List.of(), 1_790_000_000.5, identity, "1.0", Era.LEGACY, handshake, cost);
  }

  private CliRun cost(String... args) {
    List<String> all = new ArrayList<>(List.of("cost", "--config", "cfg.json"));
    all.addAll(List.of(args));
    all.addAll(List.of("--records-dir", "records"));
    return CliRun.run(dir, "", env(), all.toArray(String[]::new));
  }

  /** The test JVM's environment (its PATH finds node, as for the identities above). */
  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.keySet().removeIf(k -> k.startsWith("KCSHARE_") || k.equals("NO_COLOR"));
    return env;
  }

  private static Map<?, ?> json(CliRun r) throws Exception {
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    return (Map<?, ?>) longs(JsonReader.withDepthLimit(100).parse(r.stdout()));
  }

  /** The parsed value with every integer as a Long, so it compares with long literals. */
  private static @Nullable Object longs(@Nullable Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(k, longs(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(longs(x)));
      return out;
    }
    if (v instanceof Integer || v instanceof java.math.BigInteger) {
      return ((Number) v).longValue();
    }
    return v;
  }

  private static Map<?, ?> map(Object o) {
    return (Map<?, ?>) o;
  }

  @Test
  void jsonListsEveryServerLargestFirstWithTotalsForFiveSessions() throws Exception {
    Map<?, ?> out = json(cost("--json"));
    assertThat(new ArrayList<Object>(out.keySet()))
        .containsExactly("servers", "totals", "sessions");
    assertThat(out.get("sessions")).isEqualTo(5L);
    List<Object> servers = new ArrayList<>((List<?>) out.get("servers"));
    assertThat(servers)
        .extracting(s -> (Object) map(s).get("name"))
        .containsExactly("notes", "tickets", "calendar", EVIL, "fresh", "docs");
    Map<?, ?> notes = map(servers.get(0));
    assertThat(new ArrayList<Object>(notes.keySet()))
        .containsExactly(
            "name",
            "strength",
            "recommendStub",
            "recommendShare",
            "local",
            "sessionCost",
            "memoryBytes",
            "memoryBasis",
            "wouldChange");
    assertThat(notes.get("strength")).isEqualTo("measured");
    assertThat(notes.get("memoryBytes")).isEqualTo(84 * MIB);
    assertThat(notes.get("memoryBasis")).isEqualTo("pss");
    assertThat(map(notes.get("sessionCost")).get("rssBytes")).isEqualTo(120 * MIB);
    assertThat(map(notes.get("sessionCost")).get("measuredAt")).isEqualTo(1_790_000_000.5);
    assertThat(map(notes.get("wouldChange")).get("code"))
        .isEqualTo("no_caller_identity_declaration");
    Map<?, ?> tickets = map(servers.get(1));
    assertThat(tickets.get("strength")).isEqualTo("refuted");
    assertThat(tickets.get("memoryBasis")).isEqualTo("rss");
    assertThat(map(tickets.get("wouldChange")))
        .isEqualTo(Map.of("code", "observed_hazard", "detail", "unroutable_server_request"));
    Map<?, ?> calendar = map(servers.get(2));
    assertThat(calendar.get("recommendShare")).isEqualTo(true);
    assertThat(calendar.get("wouldChange")).isNull();
    Map<?, ?> fresh = map(servers.get(4));
    assertThat(fresh.get("sessionCost")).isNull();
    assertThat(fresh.get("memoryBytes")).isNull();
    Map<?, ?> docs = map(servers.get(5));
    assertThat(docs.get("local")).isEqualTo(false);
    assertThat(map(docs.get("wouldChange")).get("code")).isEqualTo("not_stdio");

    Map<?, ?> t = map(out.get("totals"));
    assertThat(t.get("measured")).isEqualTo(4L);
    assertThat(t.get("missing")).isEqualTo(1L);
    assertThat(t.get("notLocal")).isEqualTo(1L);
    long perSession = (84 + 70 + 40 + 1) * MIB;
    assertThat(t.get("perSession")).isEqualTo(Map.of("memoryBytes", perSession, "processes", 7L));
    assertThat(t.get("today")).isEqualTo(Map.of("memoryBytes", 5 * perSession, "processes", 35L));
    assertThat(t.get("shared")).isEqualTo(1L);
    assertThat(t.get("givenBack")).isEqualTo(Map.of("memoryBytes", 4 * 40 * MIB, "processes", 4L));
    assertThat(t.get("withSharing"))
        .isEqualTo(Map.of("memoryBytes", 5 * perSession - 4 * 40 * MIB, "processes", 31L));
  }

  @Test
  void sessionsScaleTheTotals() throws Exception {
    Map<?, ?> t = map(json(cost("--json", "--sessions", "12")).get("totals"));
    assertThat(map(t.get("today")).get("processes")).isEqualTo(12 * 7L);
    assertThat(map(t.get("givenBack")).get("memoryBytes")).isEqualTo(11 * 40 * MIB);
    assertThat(map(t.get("givenBack")).get("processes")).isEqualTo(11L);
  }

  @Test
  void sessionsOutOfRangeIsAUsageError() {
    for (String n : List.of("0", "-3", "100001", "many")) {
      CliRun r = cost("--sessions", n);
      assertThat(r.exitCode()).as(n).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.stderr()).contains("--sessions");
      assertThat(r.stdout()).isEmpty();
    }
  }

  @Test
  void textShowsTheTableTheTotalsAndWhatWouldChangeTheLargest() {
    CliRun r = cost();
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    String out = r.stdout();
    assertThat(out)
        .startsWith("Per-session cost of 6 server(s) (1 disabled server(s) left out):\n")
        .contains("At 5 session(s), each stdio server running once per session:\n")
        .contains("  today: 5 x 195 MiB = 975 MiB in 35 processes\n")
        .contains(
            "  sharing the 1 server(s) recommended for it gives back 4 x 40 MiB = 160 MiB and 4"
                + " processes\n")
        .contains("  with that sharing: 815 MiB in 31 processes\n")
        .contains(
            "  not counted: 1 server(s) of unknown cost (`kcshare measure --all` measures them)\n")
        .contains("Largest servers that cannot be shared, and what would change that:\n")
        .contains("  notes (84 MiB, measured): a third-party server: only its authors declaring")
        .contains(
            "  tickets (70 MiB, refuted): the gateway saw the hazard unroutable_server_request")
        .doesNotContain("archive");
    List<String> table = out.lines().skip(2).limit(7).toList();
    assertThat(List.of(table.get(0).split(" {2,}")))
        .containsExactly("SERVER", "VERDICT", "SHARE", "MEMORY", "PROCS", "READY", "CPU");
    assertThat(List.of(table.get(1).strip().split(" {2,}")))
        .containsExactly("notes", "measured", "no", "84 MiB", "2", "500 ms", "400 ms");
    assertThat(List.of(table.get(5).strip().split(" {2,}")))
        .containsExactly("fresh", "measured", "no", "-", "-", "-", "-", "cost unknown");
    assertThat(List.of(table.get(6).strip().split(" {2,}")))
        .containsExactly("docs", "disqualified", "no", "-", "-", "-", "-", "no local process");
    // A server name is escaped: no terminal control reaches the output.
    assertThat(out).contains("evil\\x1b[2J\\nname").doesNotContain("\u001b");
  }

  @Test
  void withNothingMeasuredEveryServerIsUnknownAndNothingIsGivenBack() throws Exception {
    Map<?, ?> t =
        map(
            json(CliRun.run(
                    dir,
                    "",
                    Map.of(),
                    "cost",
                    "--json",
                    "--config",
                    "cfg.json",
                    "--records-dir",
                    "empty"))
                .get("totals"));
    assertThat(t.get("measured")).isEqualTo(0L);
    assertThat(t.get("missing")).isEqualTo(5L);
    assertThat(t.get("today")).isEqualTo(Map.of("memoryBytes", 0L, "processes", 0L));
    CliRun text =
        CliRun.run(dir, "", env(), "cost", "--config", "cfg.json", "--records-dir", "empty");
    assertThat(text.stdout())
        .contains(
            "  today: not known yet: no server's cost has been measured (`kcshare measure --all`"
                + " measures them)\n")
        .doesNotContain(" x 0 B")
        .doesNotContain("  sharing:")
        .doesNotContain("Largest servers");
  }

  @Test
  void serversWhoseDefinitionsConflictAreNotSentToMeasure() {
    OperatorFixture f = OperatorFixture.mixed(dir.resolve("mixed"));
    CliRun r = f.run("cost");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains(
            "  today: not known yet: no server's cost has been measured (`kcshare measure --all`"
                + " measures them; 1 of them have definitions that conflict, which must agree"
                + " before it can measure them (see kcshare config))\n");
  }
}
