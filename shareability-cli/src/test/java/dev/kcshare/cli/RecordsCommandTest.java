package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.json.JsonReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kcshare records}, and how every records command finds the records directory. */
final class RecordsCommandTest {
  @TempDir Path dir;

  private Map<String, String> env(String... pairs) {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", dir.resolve("home").toString());
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  private static Map<?, ?> json(String text) throws Exception {
    return (Map<?, ?>) JsonReader.withDepthLimit(1000).parse(text);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object value) {
    return (Map<String, Object>) value;
  }

  private static Object parse(String text) throws Exception {
    return JsonReader.withDepthLimit(1000).parse(text);
  }

  private static Path write(Path file, String content) throws Exception {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  @Test
  void aMissingDirectoryIsReportedAsNothingRecordedAndIsNotCreated() throws Exception {
    Path records = dir.resolve("nowhere");
    CliRun r = CliRun.run(dir, "", env(), "records", "--json", "--records-dir", "nowhere");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(json(r.stdout()))
        .isEqualTo(
            parse(
                "{\"directory\": "
                    + quote(records.toString())
                    + ", \"rule\": \"--records-dir\", \"ledger\": {\"file\": "
                    + quote(records.resolve("observed-hazards.json").toString())
                    + ", \"exists\": false, \"problem\": null, \"leftUnchanged\": null,"
                    + " \"servers\": [], \"identities\": 0,"
                    + " \"cleared\": [], \"dropped\": []}, \"cache\": {\"file\": "
                    + quote(records.resolve("shareability-verdicts.json").toString())
                    + ", \"exists\": false, \"problem\": null, \"leftUnchanged\": null,"
                    + " \"rows\": [], \"applied\": [],"
                    + " \"dropped\": []}, \"attempts\": {\"file\": "
                    + quote(records.resolve("kcshare-attempts.json").toString())
                    + ", \"exists\": false, \"problem\": null, \"leftUnchanged\": null,"
                    + " \"servers\": []}, \"processes\": {\"file\": "
                    + quote(records.resolve("kcshare-processes.json").toString())
                    + ", \"exists\": false, \"processes\": 0}}"));
    CliRun human = CliRun.run(dir, "", env(), "records", "--records-dir", "nowhere");
    assertThat(human.stdout())
        .contains("Records directory: " + records)
        .contains("chosen by: --records-dir")
        .contains("Hazard ledger (observed-hazards.json): not present (nothing recorded yet)")
        .contains("Verdict cache (shareability-verdicts.json): not present (nothing recorded yet)");
    assertThat(records).doesNotExist();
  }

  @Test
  void kcsharesOwnFilesAreListedWithWhatTheyHold() throws Exception {
    Path records = dir.resolve("records");
    write(
        records.resolve("kcshare-attempts.json"),
        "{\"schema\": 1, \"servers\": {\"brave\": {\"at\": 1767261600.5,"
            + " \"identity\": \"id\", \"detail\": \"no response\", \"exitStatus\": \"exit 1\","
            + " \"stderrTail\": \"\", \"failures\": 3}}}");
    write(
        records.resolve("kcshare-processes.json"),
        "{\"processes\": [{\"pid\": 4242, \"startTime\": 1, \"group\": true,"
            + " \"ownerPid\": 4000, \"ownerStartTime\": 2, \"owner\": \"t\"}]}");
    CliRun r = CliRun.run(dir, "", env(), "records", "--json", "--records-dir", "records");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<?, ?> out = json(r.stdout());
    assertThat(object(out.get("attempts")))
        .containsEntry("exists", true)
        .containsEntry("servers", List.of("brave"))
        .containsEntry("leftUnchanged", null);
    assertThat(object(out.get("processes")))
        .containsEntry("exists", true)
        .containsEntry("processes", 1);
    CliRun human = CliRun.run(dir, "", env(), "records", "--records-dir", "records");
    assertThat(human.stdout())
        .contains("Failed pre-flights (kcshare-attempts.json): present")
        .contains("1 server(s) that could not be measured: brave")
        .contains("Process registry (kcshare-processes.json): 1 server process(es)");

    write(records.resolve("kcshare-attempts.json"), "{\"schema\": 2, \"servers\": {}}");
    CliRun newer = CliRun.run(dir, "", env(), "records", "--records-dir", "records");
    assertThat(newer.stdout())
        .contains(
            "Failed pre-flights (kcshare-attempts.json): read as empty: it was written by a newer"
                + " version; kcshare leaves it unchanged");
  }

  @Test
  void droppedEntriesAreListedWithWhereAndWhy() throws Exception {
    Path records = dir.resolve("records");
    write(
        records.resolve("observed-hazards.json"),
        "{\"schema\": 1, \"cleared\": {\"gone\": 10.0, \"\": 1.0},"
            + " \"servers\": {\"files-mcp\": {\"identities\": {"
            + "\"i1\": {\"codes\": [\"unroutable_server_request\", \"typo_code\"], \"count\": -3,"
            + " \"lastSeen\": NaN},"
            + "\"i2\": {\"codes\": \"unroutable_server_request\"}}},"
            + " \"\": {\"codes\": [\"unroutable_server_request\"]}}}");
    write(
        records.resolve("shareability-verdicts.json"),
        "{\"entries\": {"
            + "\"good\": {\"ran\": true, \"identity\": \"h\\u0000e\\u0000fp\\u00002\"},"
            + "\"no-identity\": {\"ran\": true},"
            + "\"old-schema\": {\"ran\": true, \"identity\": \"h\\u0000e\\u0000fp\\u00001\"},"
            + "\"ran-string\": {\"ran\": \"true\", \"identity\": \"h\\u0000e\\u0000fp\\u00002\"}"
            + "}, \"applied\": [\"good\", \"\", 7]}");
    CliRun r = CliRun.run(dir, "", env(), "records", "--json", "--records-dir", "records");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<?, ?> out = json(r.stdout());
    Map<?, ?> ledger = (Map<?, ?>) out.get("ledger");
    assertThat(ledger.get("exists")).isEqualTo(true);
    assertThat(ledger.get("problem")).isNull();
    assertThat(ledger.get("servers")).isEqualTo(List.of("files-mcp"));
    assertThat(((Number) ledger.get("identities")).longValue()).isEqualTo(1L);
    assertThat(ledger.get("cleared")).isEqualTo(List.of("gone"));
    assertThat(wheres(ledger))
        .contains(
            "cleared",
            "servers/files-mcp/identities/i1/codes/1",
            "servers/files-mcp/identities/i1/count",
            "servers/files-mcp/identities/i1/lastSeen",
            "servers/files-mcp/identities/i2",
            "servers/");
    Map<?, ?> cache = (Map<?, ?>) out.get("cache");
    assertThat(cache.get("rows")).isEqualTo(List.of("good"));
    assertThat(cache.get("applied")).isEqualTo(List.of("good"));
    assertThat(wheres(cache))
        .contains(
            "entries/no-identity/identity",
            "entries/old-schema/identity",
            "entries/ran-string/ran",
            "applied/1",
            "applied/2");
    for (Object d : (List<?>) cache.get("dropped")) {
      assertThat(((Map<?, ?>) d).get("why")).asString().isNotBlank();
    }

    CliRun human = CliRun.run(dir, "", env(), "records", "--records-dir", "records");
    assertThat(human.stdout())
        .contains("1 server(s) with observed hazards, 1 launch identity: files-mcp")
        .contains("clear markers for: gone")
        .contains("dropped on read: servers/files-mcp/identities/i1/codes/1: ")
        .contains("1 row(s): good")
        .contains("1 applied marker(s): good")
        .contains("dropped on read: entries/old-schema/identity: ")
        // Notes carry escaped values already; they are printed once-escaped, not twice.
        .contains(
            "dropped on read: servers/files-mcp/identities/i1/codes/1: string \"typo_code\" is not"
                + " a known hazard code")
        .contains("dropped on read: entries/old-schema/identity: has schema string \"1\", not 2");
  }

  @Test
  void hostileNamesAreEscapedOnceInHumanOutput() throws Exception {
    Path records = dir.resolve("records");
    String hostile = quote(HazardsCommandTest.HOSTILE_NAME);
    write(
        records.resolve("observed-hazards.json"),
        "{\"schema\": 1, \"servers\": {"
            + hostile
            + ": {\"codes\": [\"unroutable_server_request\"], \"count\": \"x\"}},"
            + " \"cleared\": {"
            + hostile
            + ": 1.0}}");
    CliRun r = CliRun.run(dir, "", env(), "records", "--records-dir", "records");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).doesNotContain("\u001b", "\u0000", "\r", "\u202e");
    assertThat(r.stdout())
        .contains(
            "dropped on read: servers/evil\\x1b[31m\\nfake line\\x00\\u202e (flat fields)/count:"
                + " string \"x\" is not a non-negative integer; using 1")
        .contains("clear markers for: evil\\x1b[31m\\nfake line\\x00\\u202e");
  }

  @Test
  void aCorruptFileReadsAsEmptyWithTheProblemNamed() throws Exception {
    Path records = dir.resolve("records");
    write(records.resolve("observed-hazards.json"), "{\"schema\": 1, \"servers\": {\"a\": [");
    Files.write(records.resolve("shareability-verdicts.json"), new byte[] {'{', (byte) 0xC3});
    CliRun r = CliRun.run(dir, "", env(), "records", "--json", "--records-dir", "records");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<?, ?> out = json(r.stdout());
    Map<?, ?> ledger = (Map<?, ?>) out.get("ledger");
    assertThat(ledger.get("exists")).isEqualTo(true);
    assertThat(ledger.get("problem")).asString().startsWith("corrupt: ");
    assertThat(ledger.get("servers")).isEqualTo(List.of());
    assertThat(ledger.get("dropped")).isEqualTo(List.of());
    Map<?, ?> cache = (Map<?, ?>) out.get("cache");
    assertThat(cache.get("dropped")).isEqualTo(List.of());
    assertThat(cache.get("problem")).asString().startsWith("corrupt: ");
    assertThat(cache.get("rows")).isEqualTo(List.of());

    CliRun human = CliRun.run(dir, "", env(), "records", "--records-dir", "records");
    assertThat(human.stdout())
        .contains("Hazard ledger (observed-hazards.json): read as empty: corrupt: ")
        .contains("Verdict cache (shareability-verdicts.json): read as empty: corrupt: ");
  }

  @Test
  void theDirectoryRulesApplyInOrderThroughTheCli() throws Exception {
    Path kirocrew = dir.resolve("kc");
    write(
        kirocrew.resolve("config.json"),
        "{\"mcp_gateway\": {\"socket_path\": \"/run/gw/g.sock\"}}");
    // 1. --records-dir beats everything (and the config is not even read).
    assertRule(
        env("KCSHARE_RECORDS_DIR", "/env", "KIROCREW_HOME", kirocrew.toString()),
        List.of("--records-dir", "/opt/rec"),
        "/opt/rec",
        "--records-dir");
    // 2. KCSHARE_RECORDS_DIR.
    assertRule(
        env("KCSHARE_RECORDS_DIR", "/env", "KIROCREW_HOME", kirocrew.toString()),
        List.of(),
        "/env",
        "KCSHARE_RECORDS_DIR");
    // 3. The lexical parent of the configured socket.
    assertRule(
        env("KIROCREW_HOME", kirocrew.toString()),
        List.of(),
        "/run/gw",
        "parent of mcp_gateway.socket_path");
    // A bare relative socket name keeps its own directory: the current one.
    write(
        kirocrew.resolve("config.json"), "{\"mcp_gateway\": {\"socket_path\": \"gateway.sock\"}}");
    assertRule(
        env("KIROCREW_HOME", kirocrew.toString()),
        List.of(),
        dir.toString(),
        "parent of mcp_gateway.socket_path");
    // 4. "", "." and null count as unset: $KIROCREW_HOME/mcp-gateway.
    for (String socket : List.of("\"\"", "\".\"", "null")) {
      write(
          kirocrew.resolve("config.json"), "{\"mcp_gateway\": {\"socket_path\": " + socket + "}}");
      assertRule(
          env("KIROCREW_HOME", kirocrew.toString()),
          List.of(),
          kirocrew.resolve("mcp-gateway").toString(),
          "$KIROCREW_HOME/mcp-gateway");
    }
    // 5. ~/.kiro/crew/mcp-gateway, with the config read from ~/.kiro/crew/config.json.
    Path home = dir.resolve("home");
    assertRule(
        env(),
        List.of(),
        home.resolve(".kiro/crew/mcp-gateway").toString(),
        "~/.kiro/crew/mcp-gateway");
    write(
        home.resolve(".kiro/crew/config.json"),
        "{\"mcp_gateway\": {\"socket_path\": \"/srv/sock/gw.sock\"}}");
    assertRule(env(), List.of(), "/srv/sock", "parent of mcp_gateway.socket_path");
  }

  @Test
  void theSocketParentIsLexicalAndKeepsDotDot() throws Exception {
    // link -> real/sub, so link/.. is real (what the OS and the gateway reach), not the lexically
    // normalised dir.
    Path real = Files.createDirectories(dir.resolve("real/sub"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    Path kirocrew = dir.resolve("kc");
    write(
        kirocrew.resolve("config.json"),
        "{\"mcp_gateway\": {\"socket_path\": " + quote(link + "/../gw.sock") + "}}");
    write(
        dir.resolve("real/observed-hazards.json"),
        "{\"schema\": 1, \"servers\": {\"seen\": {\"codes\": [\"unroutable_server_request\"]}}}");
    CliRun r =
        CliRun.run(dir, "", env("KIROCREW_HOME", kirocrew.toString()), "hazards", "list", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(json(r.stdout()).keySet()).hasSize(1);
    CliRun records =
        CliRun.run(dir, "", env("KIROCREW_HOME", kirocrew.toString()), "records", "--json");
    assertThat(json(records.stdout()).get("directory")).isEqualTo(link + "/..");
  }

  @Test
  void aBadConfigFileIsAUsageErrorNamingTheFile() throws Exception {
    Path kirocrew = dir.resolve("kc");
    Path config = write(kirocrew.resolve("config.json"), "{\"mcp_gateway\": ");
    for (List<String> command :
        List.of(
            List.of("records"),
            List.of("hazards", "list", "--json"),
            List.of("hazards", "clear", "srv"))) {
      CliRun r =
          CliRun.run(
              dir, "", env("KIROCREW_HOME", kirocrew.toString()), command.toArray(String[]::new));
      assertThat(r.exitCode()).as(command.toString()).isEqualTo(2);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr()).contains(config.toString()).contains("not valid JSON");
    }
    write(config, "{\"mcp_gateway\": {\"socket_path\": 42}}");
    CliRun wrongType = CliRun.run(dir, "", env("KIROCREW_HOME", kirocrew.toString()), "records");
    assertThat(wrongType.exitCode()).isEqualTo(2);
    assertThat(wrongType.stderr())
        .contains(config.toString())
        .contains("/mcp_gateway/socket_path")
        .contains("expected a string or null");
    assertThat(kirocrew.resolve("mcp-gateway")).doesNotExist();
    // An explicit directory does not need the config at all.
    assertThat(
            CliRun.run(
                    dir,
                    "",
                    env("KIROCREW_HOME", kirocrew.toString()),
                    "records",
                    "--records-dir",
                    "r")
                .exitCode())
        .isZero();
  }

  private void assertRule(
      Map<String, String> env, List<String> options, String directory, String rule)
      throws Exception {
    String[] args =
        Stream.concat(Stream.of("records", "--json"), options.stream()).toArray(String[]::new);
    CliRun r = CliRun.run(dir, "", env, args);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<?, ?> out = json(r.stdout());
    assertThat(out.get("directory")).as(env + " " + options).isEqualTo(directory);
    assertThat(out.get("rule")).as(env + " " + options).isEqualTo(rule);
  }

  private static List<Object> wheres(Map<?, ?> file) {
    return ((List<?>) file.get("dropped"))
        .stream().map(d -> ((Map<?, ?>) d).get("where")).map(Object.class::cast).toList();
  }

  private static String quote(String s) {
    return dev.kcshare.core.json.JsonWriter.compact(s);
  }
}
