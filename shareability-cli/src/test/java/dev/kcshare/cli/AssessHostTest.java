package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.evaluation.FixtureFleet;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.records.CacheStore;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kcshare assess SERVER…|--all} from the host config and the record files: table, detail,
 * JSON, colour, escaping, {@code --fail-on}, one read of the records, and never a spawn.
 */
final class AssessHostTest {
  private static final double MEASURED_AT = 1_790_000_000.5;
  private static final String EVIL = "evil\u001b[2J\nname";

  /** The cost stored with every clean row: 59 MiB PSS (84 MiB RSS) in 2 processes. */
  private static final SessionCost COST = SessionCost.of(88_080_384, 61_865_984, 2, 412, 380);

  @TempDir Path dir;
  private FixtureFleet fleet;

  @BeforeEach
  void fleetWithRecords() throws Exception {
    fleet = new FixtureFleet(dir);
    fleet
        .fixture("files", "stable")
        .fixture("search", "sensitive-tools")
        .fixture("fresh", "stable");
    Map<String, Object> remote = new LinkedHashMap<>();
    remote.put("type", "http");
    remote.put("url", "https://docs.example.invalid/mcp");
    fleet.entry("docs", remote);
    fleet.write();
    seed(fleet.write(), Map.of("files", false, "search", true));
  }

  @AfterEach
  void assessNeverSpawns() throws Exception {
    fleet.assertSpawns(Map.of("files", 0, "search", 0, "fresh", 0));
  }

  private static Map<String, String> env(String... pairs) {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("KCSHARE_STDOUT_TTY");
    env.remove("KCSHARE_STDERR_TTY");
    env.remove("NO_COLOR");
    env.remove("TERM");
    env.remove("KCSHARE_RECORDS_DIR");
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  /** Rows for the named servers under the identities {@code config} gives them. */
  private void seed(Path config, Map<String, Boolean> sensitive) throws Exception {
    HostConfig host = FixtureFleet.load(config, env());
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      for (Map.Entry<String, Boolean> e : sensitive.entrySet()) {
        ConfiguredServer server = host.serverNamed(e.getKey());
        s.cache().put(e.getKey(), row(server.first().identity(), e.getValue()));
      }
      s.flush();
    }
  }

  private static CacheRow row(String identity, boolean sensitive) {
    StoredHandshake handshake =
        new StoredHandshake(
            Map.of("tools", Map.of()),
            "2024-11-05",
            Map.of("name", "x", "version", "1.0"),
            List.of(Map.of("readOnlyHint", true)),
            true);
    return new CacheRow(
        true,
        sensitive,
        sensitive ? List.of("handshake_not_reproducible") : List.of(),
        MEASURED_AT,
        identity,
        "1.0",
        Era.LEGACY,
        handshake,
        sensitive ? null : COST);
  }

  private CliRun assess(Map<String, String> env, String... args) {
    List<String> all = new ArrayList<>(List.of("assess"));
    all.addAll(List.of(args));
    if (!all.contains("--config")) {
      all.addAll(List.of("--config", "cfg.json"));
    }
    all.addAll(List.of("--records-dir", "records"));
    return CliRun.run(dir, "", env, all.toArray(String[]::new));
  }

  private CliRun assess(String... args) {
    return assess(env(), args);
  }

  private static List<Map<String, Object>> verdicts(CliRun r) throws Exception {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object o : (List<?>) JsonReader.withDepthLimit(100).parse(r.stdout())) {
      Map<String, Object> m = new LinkedHashMap<>();
      ((Map<?, ?>) o).forEach((k, v) -> m.put((String) k, v));
      out.add(m);
    }
    return out;
  }

  // ------------------------------------------------------------------ output forms

  @Test
  void tableHasOneRowPerServerInConfigOrderWithTheHeadlineReason() {
    CliRun r = assess("--all");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).isEmpty();
    List<List<String>> rows = new ArrayList<>();
    for (String line : r.stdout().split("\n")) {
      rows.add(List.of(line.strip().split(" {2,}")));
    }
    assertThat(rows)
        .containsExactly(
            List.of("SERVER", "VERDICT", "STUB", "SHARE", "MEMORY", "PROCS", "REASON"),
            List.of("files", "measured", "yes", "no", "59 MiB", "2", "preflight_passed"),
            List.of("search", "no_objection", "yes", "no", "-", "-", "no_objection_found"),
            List.of("fresh", "unknown", "no", "no", "-", "-", "not_probed"),
            List.of("docs", "disqualified", "no", "no", "-", "-", "not_stdio"));
    assertThat(r.stdout()).doesNotContain("\u001b");
  }

  @Test
  void aHazardOnAModernRowStillRefutesAndTheDetailSaysAConformantServerCannotProduceIt()
      throws Exception {
    HostConfig host = FixtureFleet.load(dir.resolve("cfg.json"), env());
    String identity = host.serverNamed("fresh").first().identity();
    StoredHandshake handshake =
        new StoredHandshake(
            Map.of("tools", Map.of(), "logging", Map.of()),
            "2026-07-28",
            Map.of("name", "x", "version", "1.0"),
            List.of(),
            true,
            List.of("2026-07-28"),
            dev.kcshare.core.handshake.CacheHints.NONE);
    try (CacheStore.Session s = CacheStore.open(fleet.cacheFile(), null)) {
      s.cache()
          .put(
              "fresh",
              new CacheRow(
                  true, false, List.of(), MEASURED_AT, identity, "1.0", Era.MODERN, handshake));
      s.flush();
    }
    CliRun clean = assess("fresh");
    assertThat(clean.stdout())
        .startsWith("fresh: measured")
        .contains("    modern_only: ")
        .contains("  measured: " + HumanTime.format(MEASURED_AT) + " (2026-07-28 era)\n")
        .doesNotContain("degrades_when_shared");
    Files.writeString(
        fleet.records().resolve("observed-hazards.json"),
        "{\"schema\":1,\"servers\":{\"fresh\":{\"identities\":{\"a\\u0000b\\u0000c\":"
            + "{\"codes\":[\"unroutable_server_request\"],\"count\":1,\"lastSeen\":1.0}}}}}");
    CliRun refuted = assess("fresh");
    assertThat(refuted.stdout())
        .startsWith("fresh: refuted")
        .contains("    observed_hazard (unroutable_server_request): ")
        .contains("      " + AssessCommand.MODERN_HAZARD + "\n");
    CliRun legacy = assess("files");
    assertThat(legacy.stdout()).doesNotContain("2026-07-28");
  }

  @Test
  void singleServerDetailExplainsEveryReasonAndWhatWouldChangeIt() {
    CliRun r = assess("search");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .startsWith("search: no_objection (nothing disqualifying was found)\n")
        .contains("  stub: recommended   share: not recommended\n")
        .contains("    handshake_not_reproducible: two callers received different handshakes\n")
        .contains(
            "      what would change it: run `kcshare measure search` again; divergent servers"
                + " are re-measured\n")
        .contains("  measured: " + HumanTime.format(MEASURED_AT) + "\n")
        .contains("  defined in: cfg.json /mcpServers/search\n")
        .doesNotContain("session cost");

    CliRun fresh = assess("fresh");
    assertThat(fresh.stdout())
        .startsWith("fresh: unknown (nothing observed yet)\n")
        .contains("    not_probed: no handshake with this server has been observed\n")
        .contains("      what would change it: run `kcshare measure fresh`\n")
        .doesNotContain("measured:");
  }

  @Test
  void jsonIsAnArrayInConfigOrderWithTheVerdictMembersFirst() throws Exception {
    CliRun r = assess(env("KCSHARE_STDOUT_TTY", "1"), "--all", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).doesNotContain("\u001b");
    List<Map<String, Object>> verdicts = verdicts(r);
    assertThat(verdicts)
        .extracting(v -> v.get("name"))
        .containsExactly("files", "search", "fresh", "docs");
    for (Map<String, Object> v : verdicts) {
      List<String> members =
          new ArrayList<>(
              List.of(
                  "name",
                  "strength",
                  "recommendStub",
                  "recommendShare",
                  "reasons",
                  "sources",
                  "identity",
                  "identitiesAgree",
                  "measuredAt"));
      if (v.get("name").equals("files")) {
        members.add("sessionCost"); // after the existing members, only when measured
      }
      assertThat(new ArrayList<>(v.keySet())).containsExactlyElementsOf(members);
    }
    Map<String, Object> files = verdicts.get(0);
    assertThat(files.get("strength")).isEqualTo("measured");
    assertThat(files.get("measuredAt")).isEqualTo(MEASURED_AT);
    assertThat(files.get("identitiesAgree")).isEqualTo(true);
    assertThat(files.get("identity"))
        .isEqualTo(
            FixtureFleet.load(dir.resolve("cfg.json"), env())
                .serverNamed("files")
                .first()
                .identity());
    assertThat(files.get("sources"))
        .isEqualTo(List.of(Map.of("file", "cfg.json", "pointer", "/mcpServers/files")));
    assertThat(verdicts.get(2).get("measuredAt")).isNull();
    assertThat(verdicts.get(3).get("identity")).isNull();
    Map<?, ?> cost = (Map<?, ?>) files.get("sessionCost");
    assertThat(new ArrayList<Object>(cost.keySet()))
        .containsExactly(
            "rssBytes", "pssBytes", "processes", "readyMillis", "cpuMillis", "measuredAt");
    assertThat(((Number) cost.get("rssBytes")).longValue()).isEqualTo(88_080_384L);
    assertThat(((Number) cost.get("pssBytes")).longValue()).isEqualTo(61_865_984L);
    assertThat(((Number) cost.get("processes")).longValue()).isEqualTo(2L);
    assertThat(((Number) cost.get("readyMillis")).longValue()).isEqualTo(412L);
    assertThat(((Number) cost.get("cpuMillis")).longValue()).isEqualTo(380L);
    assertThat(cost.get("measuredAt")).isEqualTo(MEASURED_AT);
  }

  @Test
  void singleServerDetailShowsEveryCostFigureWithWhenItWasMeasured() {
    CliRun r = assess("files");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains(
            "  session cost (measured "
                + HumanTime.format(MEASURED_AT)
                + "):\n"
                + "    memory: 59 MiB proportional (PSS), 84 MiB resident (RSS)\n"
                + "    processes: 2\n"
                + "    ready after: 412 ms (spawn to the initialize answer)\n"
                + "    CPU time: 380 ms (user and system, spawn to the sample)\n");
  }

  @Test
  void colourOnlyOnATerminalAndNeverWithNoColor() {
    assertThat(assess(env("KCSHARE_STDOUT_TTY", "1"), "--all").stdout())
        .contains("\u001b[36mmeasured")
        .contains("\u001b[31mdisqualified");
    assertThat(assess(env("KCSHARE_STDOUT_TTY", "1"), "files").stdout())
        .startsWith("files: \u001b[36mmeasured\u001b[0m");
    assertThat(assess(env("KCSHARE_STDOUT_TTY", "1", "NO_COLOR", ""), "--all").stdout())
        .as("an empty NO_COLOR does not count")
        .contains("\u001b[");
    assertThat(assess(env("KCSHARE_STDOUT_TTY", "1", "NO_COLOR", "1"), "--all").stdout())
        .doesNotContain("\u001b");
    assertThat(assess(env("KCSHARE_STDOUT_TTY", "1", "NO_COLOR", "1"), "files").stdout())
        .doesNotContain("\u001b");
    assertThat(assess(env("KCSHARE_STDERR_TTY", "1"), "--all").stdout()).doesNotContain("\u001b");
    assertThat(assess(env("KCSHARE_STDOUT_TTY", "1", "TERM", "dumb"), "--all").stdout())
        .as("a dumb terminal gets no colour")
        .doesNotContain("\u001b");
    assertThat(assess(env("KCSHARE_STDOUT_TTY", "1", "TERM", "dumb"), "files").stdout())
        .doesNotContain("\u001b");
  }

  @Test
  void serverNamesFromTheConfigAreEscaped() throws Exception {
    fleet.fixture(EVIL, "stable");
    fleet.write();
    CliRun table = assess(env("KCSHARE_STDOUT_TTY", "1"), "--all");
    assertThat(table.exitCode()).as(table.stderr()).isZero();
    String escaped = "evil\\x1b[2J\\nname";
    assertThat(table.stdout().lines().toList()).hasSize(6);
    assertThat(table.stdout().lines().filter(l -> l.startsWith(escaped + " ")).toList())
        .singleElement()
        .satisfies(l -> assertThat(l).contains("not_probed"));
    assertThat(table.stdout().replaceAll("\u001b\\[(\\d+)?m", "")).doesNotContain("\u001b");

    CliRun detail = assess(env("KCSHARE_STDOUT_TTY", "1"), EVIL);
    String plain = detail.stdout().replaceAll("\u001b\\[(\\d+)?m", "");
    assertThat(plain).doesNotContain("\u001b").startsWith(escaped + ": unknown");
    assertThat(plain).contains("run `kcshare measure " + escaped + "`");
    assertThat(plain).contains("defined in: cfg.json /mcpServers/" + escaped);
    assertThat(plain.lines().filter(l -> l.startsWith("name")).toList())
        .as("no line forged by the newline")
        .isEmpty();

    CliRun unknown = assess("no\u001bsuch");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.stderr()).contains("no\\x1bsuch").doesNotContain("\u001b");

    // JSON carries the name itself (JSON-escaped), not a display form.
    CliRun json = assess("--all", "--json");
    assertThat(verdicts(json)).extracting(v -> v.get("name")).contains(EVIL);
    assertThat(json.stdout()).doesNotContain("\u001b").contains("\\u001b");
    fleet.assertSpawns(Map.of(EVIL, 0));
  }

  // ------------------------------------------------------------------ exit codes

  @Test
  void failOnExitsThreeOnlyWhenAStrengthMatches() {
    CliRun all = assess("--all", "--fail-on", "refuted,disqualified");
    assertThat(all.exitCode()).isEqualTo(AssessCommand.EXIT_FAIL_ON);
    assertThat(all.stdout()).contains("docs");
    assertThat(assess("files", "search", "fresh", "--fail-on", "refuted,disqualified").exitCode())
        .isZero();
    assertThat(assess("--all", "--fail-on", "unknown", "--json").exitCode()).isEqualTo(3);
    assertThat(assess("files", "--fail-on", "measured").exitCode()).isEqualTo(3);
    assertThat(assess("files", "--fail-on", "declared").exitCode()).isZero();
  }

  @Test
  void badFailOnValueIsAUsageErrorBeforeAnyOutput() {
    for (String bad : List.of("nope", "REFUTED", "refuted,nope", "")) {
      CliRun r = assess("--all", "--fail-on", bad);
      assertThat(r.exitCode()).as("--fail-on '%s': %s", bad, r.stderr()).isEqualTo(2);
      assertThat(r.stdout()).isEmpty();
    }
  }

  @Test
  void usageErrors() {
    assertThat(assess().exitCode()).isEqualTo(2);
    assertThat(assess("--all", "files").exitCode()).isEqualTo(2);
    assertThat(assess("--all", "--evidence", "e.json").exitCode()).isEqualTo(2);
    CliRun unknown = assess("nope");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.stdout()).isEmpty();
    assertThat(unknown.stderr()).contains("unknown server \"nope\"");
  }

  // ------------------------------------------------------------------ evidence assembly

  @Test
  void definitionsThatDisagreeOnIdentityGetNoPreflightEvidence() throws Exception {
    // The same name in a second file, with different args: another execution identity.
    FixtureFleet other = new FixtureFleet(dir);
    other.fixture("files", "stable", "--delay-ms", "5");
    other.write("other.json");
    fleet.write();

    CliRun alone = assess("files", "--json");
    assertThat(verdicts(alone).get(0).get("strength")).isEqualTo("measured");

    CliRun both = assess("files", "--config", "cfg.json", "--config", "other.json", "--json");
    assertThat(both.exitCode()).as(both.stderr()).isZero();
    Map<String, Object> v = verdicts(both).get(0);
    assertThat(v.get("identitiesAgree")).isEqualTo(false);
    assertThat(v.get("measuredAt")).isNull();
    assertThat(v.get("strength")).isEqualTo("unknown");
    assertThat(v.get("reasons")).isEqualTo(List.of(Map.of("code", "not_probed", "detail", "")));
    assertThat((List<?>) v.get("sources")).hasSize(2);

    // Assess says why, lists each definition with what differs, and how to resolve it; it does
    // not send the operator to `kcshare measure files`, which refuses a conflicting name.
    CliRun detail = assess("files", "--config", "cfg.json", "--config", "other.json");
    assertThat(detail.stdout())
        .contains(
            "      what would change it: make its definitions agree (see below), then run"
                + " `kcshare measure files`\n")
        .doesNotContain("what would change it: run `kcshare measure files`")
        .contains(
            "  definitions conflict: definitions resolve to different execution identities:\n")
        .containsPattern("\n    cfg\\.json /mcpServers/files: node \\S+ stable")
        .containsPattern("\n    other\\.json /mcpServers/files: node \\S+ stable .*--delay-ms 5")
        .contains("    they differ in: command or arguments\n")
        .contains(
            "  to resolve it: make the definitions identical (or remove all but one), or pass"
                + " --config FILE to read only the file whose definition you mean; then run"
                + " kcshare measure files\n");
    CliRun table = assess("--all", "--config", "cfg.json", "--config", "other.json");
    assertThat(table.stdout())
        .containsPattern("\nfiles +unknown +no +no +- +- +not_probed: conflicting definitions\n");
  }

  /**
   * Each record file is a named pipe with a writer waiting: kcshare must read neither (a record
   * file must be a regular file), finish at once, and say why it read them as empty. A pipe that
   * kcshare opened would have been served ({@code served}); one it read would have made it wait.
   */
  @Test
  void namedPipesInPlaceOfTheRecordFilesAreNeverOpened() throws Exception {
    Path cache = fleet.cacheFile();
    Path ledger = fleet.records().resolve("observed-hazards.json");
    byte[] document = Files.readAllBytes(cache);
    Files.delete(cache);
    assumeFifo(cache);
    assumeFifo(ledger);
    OneShotPipe cachePipe = new OneShotPipe(cache, document);
    OneShotPipe ledgerPipe = new OneShotPipe(ledger, document);
    ExecutorService runner = Executors.newSingleThreadExecutor();
    Future<CliRun> run = runner.submit(() -> assess("--all", "--json"));
    Future<CliRun> records =
        runner.submit(
            () ->
                CliRun.run(
                    dir,
                    "",
                    env(),
                    "records",
                    "--json",
                    "--records-dir",
                    fleet.records().toString()));
    CliRun r;
    CliRun shown;
    boolean cacheOpened;
    boolean ledgerOpened;
    try {
      r = run.get(60, TimeUnit.SECONDS);
      shown = records.get(60, TimeUnit.SECONDS);
      cacheOpened = cachePipe.served;
      ledgerOpened = ledgerPipe.served;
    } catch (TimeoutException e) {
      cachePipe.releaseReaders();
      ledgerPipe.releaseReaders();
      throw new AssertionError("assess did not finish: it opened a named pipe", e);
    } finally {
      runner.shutdown();
      cachePipe.stop();
      ledgerPipe.stop();
    }
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(cacheOpened).as("the cache pipe was opened").isFalse();
    assertThat(ledgerOpened).as("the ledger pipe was opened").isFalse();
    // kcshare records says why each reads as empty.
    Map<?, ?> state = (Map<?, ?>) JsonReader.withDepthLimit(100).parse(shown.stdout());
    for (String file : List.of("ledger", "cache")) {
      assertThat(((Map<?, ?>) state.get(file)).get("problem"))
          .as(file)
          .isEqualTo("not a regular file (a named pipe)");
    }
    Map<Object, Object> strengths = new LinkedHashMap<>();
    for (Map<String, Object> v : verdicts(r)) {
      strengths.put(v.get("name"), v.get("strength"));
    }
    // Nothing measured, nothing observed: never safer than the evidence.
    assertThat(strengths)
        .containsExactly(
            Map.entry("files", "unknown"),
            Map.entry("search", "unknown"),
            Map.entry("fresh", "unknown"),
            Map.entry("docs", "disqualified"));
  }

  private static void assumeFifo(Path path) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("mkfifo is not available");
      return;
    }
    Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo failed");
  }

  /** Writes one document to the first reader of a named pipe, then never opens it again. */
  private static final class OneShotPipe {
    private final Path fifo;
    private final Thread writer;
    private volatile @org.jspecify.annotations.Nullable IOException failure;
    volatile boolean served;

    OneShotPipe(Path fifo, byte[] document) {
      this.fifo = fifo;
      this.writer =
          new Thread(
              () -> {
                try (OutputStream out = new FileOutputStream(fifo.toFile())) {
                  served = true;
                  out.write(document);
                } catch (IOException e) {
                  failure = e;
                }
              },
              "fifo-" + fifo.getFileName());
      writer.setDaemon(true);
      writer.start();
    }

    /** Opens the pipe for writing and closes it: a blocked reader sees end of file. */
    void releaseReaders() {
      Thread releaser =
          new Thread(
              () -> {
                try (OutputStream out = new FileOutputStream(fifo.toFile())) {
                  // nothing to write
                } catch (IOException e) {
                  // no reader left
                }
              });
      releaser.setDaemon(true);
      releaser.start();
    }

    /** Ends the writer: if nobody read the pipe, a reader of our own takes the document. */
    void stop() throws Exception {
      if (writer.isAlive() && !served) {
        Thread reader =
            new Thread(
                () -> {
                  try {
                    Files.readAllBytes(fifo);
                  } catch (IOException e) {
                    // the writer is gone already
                  }
                });
        reader.setDaemon(true);
        reader.start();
      }
      writer.join(10_000);
      assertThat(writer.isAlive()).as("writer of %s", fifo).isFalse();
      assertThat(failure).as("writer of %s", fifo).isNull();
    }
  }
}
