package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.json.JsonReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kcshare hazards list} and {@code kcshare hazards clear}, in-process. */
final class HazardsCommandTest {
  /** A server name and an identity an attacker controls: NUL, ESC, newline, U+202E. */
  static final String HOSTILE_NAME = "evil\u001b[31m\nfake line\u0000\u202e";

  static final String HOSTILE_IDENTITY = "cmd\u0000env\u0000fp\u001b]0;title\u0007\r\n";

  @TempDir Path dir;

  private Map<String, String> env() {
    // A HOME of our own, so the user's real Kiro Crew config can never leak into a test.
    return Map.of("HOME", dir.resolve("home").toString());
  }

  private CliRun run(String... args) {
    return CliRun.run(dir, "", env(), args);
  }

  private static Object json(String text) throws Exception {
    return JsonReader.withDepthLimit(1000).parse(text);
  }

  /** A ledger as the gateway writes it: one identities-shaped entry, one legacy flat entry. */
  private Path writeLedger(Path records) throws Exception {
    Files.createDirectories(records);
    String hostile = dev.kcshare.core.json.JsonWriter.compact(HOSTILE_NAME);
    String hostileIdentity = dev.kcshare.core.json.JsonWriter.compact(HOSTILE_IDENTITY);
    return Files.writeString(
        records.resolve("observed-hazards.json"),
        "{\"schema\": 1, \"servers\": {"
            + "\"files-mcp\": {\"identities\": {"
            + "\"h1\\u0000e1\\u0000fp-old\": {\"codes\": [\"unroutable_server_request\"],"
            + " \"count\": 4, \"lastSeen\": 1712000000.5},"
            + "\"h1\\u0000e1\\u0000fp-new\": {\"codes\": [\"unattributable_notification\"],"
            + " \"count\": 1, \"lastSeen\": 1712000300.0}},"
            + " \"codes\": [\"unattributable_notification\", \"unroutable_server_request\"],"
            + " \"count\": 5, \"lastSeen\": 1712000300.0},"
            + "\"legacy\": {\"codes\": [\"unroutable_server_request\"], \"count\": 2,"
            + " \"lastSeen\": 1700.0},"
            + hostile
            + ": {\"identities\": {"
            + hostileIdentity
            + ": {\"codes\": [\"unroutable_server_request\"], \"count\": 1, \"lastSeen\": 5.0}}}"
            + "}}",
        StandardCharsets.UTF_8);
  }

  @Test
  void listJsonIsKeyedByNameWithTheUnionAndEveryIdentity() throws Exception {
    Path records = dir.resolve("records");
    writeLedger(records);
    CliRun r = run("hazards", "list", "--json", "--records-dir", records.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<?, ?> out = (Map<?, ?>) json(r.stdout());
    assertThat(keys(out)).containsExactly(HOSTILE_NAME, "files-mcp", "legacy");
    assertThat(out.get("files-mcp"))
        .isEqualTo(
            json(
                "{\"codes\": [\"unattributable_notification\", \"unroutable_server_request\"],"
                    + " \"count\": 5, \"lastSeen\": 1712000300.0, \"identities\": {"
                    + "\"h1\\u0000e1\\u0000fp-new\": {\"codes\": [\"unattributable_notification\"],"
                    + " \"count\": 1, \"lastSeen\": 1712000300.0},"
                    + "\"h1\\u0000e1\\u0000fp-old\": {\"codes\": [\"unroutable_server_request\"],"
                    + " \"count\": 4, \"lastSeen\": 1712000000.5}}}"));
    // A legacy entry is one record under the unattributed identity "".
    assertThat(out.get("legacy"))
        .isEqualTo(
            json(
                "{\"codes\": [\"unroutable_server_request\"], \"count\": 2, \"lastSeen\": 1700.0,"
                    + " \"identities\": {\"\": {\"codes\": [\"unroutable_server_request\"],"
                    + " \"count\": 2, \"lastSeen\": 1700.0}}}"));
    assertThat(keys(((Map<?, ?>) out.get(HOSTILE_NAME)).get("identities")))
        .containsExactly(HOSTILE_IDENTITY);
    // Member order as documented; JSON escapes keep the output ASCII and control-free.
    assertThat(r.stdout()).containsSubsequence("\"codes\"", "\"count\"", "\"lastSeen\"");
    assertThat(r.stdout().indexOf("\"identities\""))
        .isGreaterThan(r.stdout().indexOf("\"lastSeen\""));
    assertThat(r.stdout()).doesNotContain("\u001b", "\u0000", "\r", "\u202e");
    assertThat(r.stdout()).contains("evil\\u001b[31m\\nfake line\\u0000\\u202e");
  }

  @Test
  void theListedUnionIsTheOneTheFileCarries() throws Exception {
    // Two identities at the per-identity maximum: the flat count is their exact sum, as the gateway
    // writes it (an unbounded integer), never saturated; a negative lastSeen is the maximum as it
    // is, never floored at 0.0.
    Path records = Files.createDirectories(dir.resolve("records"));
    long max = Long.MAX_VALUE;
    Files.writeString(
        records.resolve("observed-hazards.json"),
        "{\"schema\": 1, \"servers\": {"
            + "\"big\": {\"identities\": {"
            + "\"a\": {\"codes\": [\"unroutable_server_request\"], \"count\": "
            + max
            + ", \"lastSeen\": 7.0},"
            + "\"b\": {\"codes\": [\"unroutable_server_request\"], \"count\": "
            + max
            + ", \"lastSeen\": 8.0}}},"
            + "\"early\": {\"identities\": {"
            + "\"a\": {\"codes\": [\"unattributable_notification\"], \"count\": 1,"
            + " \"lastSeen\": -1.5}}}}}",
        StandardCharsets.UTF_8);
    CliRun r = run("hazards", "list", "--json", "--records-dir", records.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("\"count\": 18446744073709551614,");
    Map<?, ?> early = (Map<?, ?>) ((Map<?, ?>) json(r.stdout())).get("early");
    assertThat(early.get("lastSeen")).isEqualTo(-1.5);

    CliRun human = run("hazards", "list", "--records-dir", records.toString());
    assertThat(human.stdout())
        .contains("big: unroutable_server_request (18446744073709551614 times");

    // The file kcshare writes carries the same union (a clear of another name rewrites it).
    assertThat(
            run("hazards", "clear", "other", "--force", "--records-dir", records.toString())
                .exitCode())
        .isZero();
    Map<?, ?> file = (Map<?, ?>) json(Files.readString(records.resolve("observed-hazards.json")));
    Map<?, ?> servers = (Map<?, ?>) file.get("servers");
    assertThat(((Map<?, ?>) servers.get("big")).get("count"))
        .isEqualTo(new java.math.BigInteger("18446744073709551614"));
    assertThat(((Map<?, ?>) servers.get("early")).get("lastSeen")).isEqualTo(-1.5);
  }

  @Test
  void listHumanEscapesHostileNamesAndIdentities() throws Exception {
    Path records = dir.resolve("records");
    writeLedger(records);
    CliRun r = run("hazards", "list", "--records-dir", records.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).doesNotContain("\u001b", "\u0000", "\r", "\u0007", "\u202e");
    List<String> lines = r.stdout().lines().toList();
    // Three servers: 1 + 1, 1 + 2 and 1 + 1 lines; a newline in a name never adds one.
    assertThat(lines).hasSize(7);
    assertThat(lines)
        .contains(
            "evil\\x1b[31m\\nfake line\\x00\\u202e: unroutable_server_request"
                + " (1 times, last seen 1970-01-01 00:00:05 UTC)",
            "  identity \"cmd\\x00env\\x00fp\\x1b]0;title\\x07\\r\\n\":"
                + " unroutable_server_request (1 times, last seen 1970-01-01 00:00:05 UTC)",
            "files-mcp: unattributable_notification, unroutable_server_request"
                + " (5 times, last seen 2024-04-01 19:38:20 UTC)",
            "  identity \"h1\\x00e1\\x00fp-old\": unroutable_server_request"
                + " (4 times, last seen 2024-04-01 19:33:20 UTC)",
            "legacy: unroutable_server_request (2 times, last seen 1970-01-01 00:28:20 UTC)",
            "  identity (unattributed): unroutable_server_request"
                + " (2 times, last seen 1970-01-01 00:28:20 UTC)");
  }

  @Test
  void listOfNothingSaysSoAndCreatesNothing() throws Exception {
    Path records = dir.resolve("absent");
    CliRun human = run("hazards", "list", "--records-dir", records.toString());
    assertThat(human.exitCode()).isZero();
    assertThat(human.stdout())
        .isEqualTo(
            "No hazards observed ("
                + records.resolve("observed-hazards.json")
                + ")."
                + System.lineSeparator());
    CliRun machine = run("hazards", "list", "--json", "--records-dir", records.toString());
    assertThat(machine.stdout()).isEqualTo("{}\n");
    assertThat(records).doesNotExist();
  }

  @Test
  void aCorruptOrFutureLedgerListsAsNothingObserved() throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    Path file = records.resolve("observed-hazards.json");
    for (String content :
        List.of(
            "{\"schema\": 1, \"servers\": {",
            "{\"schema\": 2, \"servers\": {\"s\": {\"codes\": [\"unroutable_server_request\"]}}}",
            "\u00ff\u00fe")) {
      Files.writeString(file, content, StandardCharsets.ISO_8859_1);
      CliRun r = run("hazards", "list", "--json", "--records-dir", records.toString());
      assertThat(r.exitCode()).as(content).isZero();
      assertThat(r.stdout()).as(content).isEqualTo("{}\n");
    }
  }

  @Test
  void clearRemovesTheServerStampsTheMarkerAndSaysSo() throws Exception {
    Path records = dir.resolve("records");
    writeLedger(records);
    java.time.Clock clock =
        java.time.Clock.fixed(java.time.Instant.ofEpochMilli(1_800_000_000_500L), ZoneOffset.UTC);
    CliRun r =
        CliRun.run(
            dir,
            "",
            env(),
            clock,
            "hazards",
            "clear",
            "files-mcp",
            "--records-dir",
            records.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).isEqualTo("Cleared the observed hazards of \"files-mcp\".\n");

    Map<?, ?> file = (Map<?, ?>) json(Files.readString(records.resolve("observed-hazards.json")));
    assertThat(keys(file.get("servers"))).containsExactly(HOSTILE_NAME, "legacy");
    double stamped = ((Number) ((Map<?, ?>) file.get("cleared")).get("files-mcp")).doubleValue();
    assertThat(stamped).as("the context's clock").isEqualTo(1_800_000_000.5);
    // The rewrite keeps the other entries (the legacy one now in both shapes).
    CliRun list = run("hazards", "list", "--json", "--records-dir", records.toString());
    assertThat(keys(json(list.stdout()))).containsExactly(HOSTILE_NAME, "legacy");
  }

  @Test
  void clearOfAnUnknownNameIsRefusedUnlessForcedAndEscaped() throws Exception {
    Path records = dir.resolve("records");
    CliRun refused = run("hazards", "clear", HOSTILE_NAME, "--records-dir", records.toString());
    assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(2);
    assertThat(refused.stdout()).isEmpty();
    assertThat(refused.stderr())
        .isEqualTo(
            "kcshare: unknown server \"evil\\x1b[31m\\nfake line\\x00\\u202e\""
                + " (not configured and no hazards recorded; --force clears it anyway)\n");
    assertThat(records).doesNotExist();

    CliRun forced =
        run("hazards", "clear", HOSTILE_NAME, "--force", "--records-dir", records.toString());
    assertThat(forced.exitCode()).as(forced.stderr()).isZero();
    assertThat(forced.stderr())
        .isEqualTo(
            "No hazards were recorded for \"evil\\x1b[31m\\nfake line\\x00\\u202e\";"
                + " the clear is stamped anyway.\n");
    Map<?, ?> file = (Map<?, ?>) json(Files.readString(records.resolve("observed-hazards.json")));
    assertThat(keys(file.get("cleared"))).containsExactly(HOSTILE_NAME);
  }

  @Test
  void clearOfAnEmptyNameOrAMissingSubcommandIsAUsageError() {
    Path records = dir.resolve("records");
    CliRun empty = run("hazards", "clear", "", "--records-dir", records.toString());
    assertThat(empty.exitCode()).isEqualTo(2);
    assertThat(empty.stdout()).isEmpty();
    assertThat(empty.stderr()).contains("SERVER");
    assertThat(records).doesNotExist();
    assertThat(run("hazards").exitCode()).isEqualTo(2);
    assertThat(run("hazards", "clear").exitCode()).isEqualTo(2);
  }

  @Test
  void writtenRecordFilesAre0600AndCreatedDirectories0700() throws Exception {
    Path existing = Files.createDirectories(dir.resolve("existing"));
    Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path records = existing.resolve("a/b/records");
    CliRun r = run("hazards", "clear", "srv", "--force", "--records-dir", records.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(mode(records.resolve("observed-hazards.json"))).isEqualTo("rw-------");
    assertThat(mode(records.resolve("observed-hazards.json.lock"))).isEqualTo("rw-------");
    for (Path created : List.of(existing.resolve("a"), existing.resolve("a/b"), records)) {
      assertThat(mode(created)).as(created.toString()).isEqualTo("rwx------");
    }
    assertThat(mode(existing)).as("an existing directory is never re-moded").isEqualTo("rwxr-xr-x");

    // A ledger the gateway wrote with its umask default becomes 0600 when kcshare rewrites it.
    Path gateway = Files.createDirectories(dir.resolve("gateway"));
    Files.setPosixFilePermissions(gateway, PosixFilePermissions.fromString("rwxr-xr-x"));
    writeLedger(gateway);
    Files.setPosixFilePermissions(
        gateway.resolve("observed-hazards.json"), PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(run("hazards", "clear", "legacy", "--records-dir", gateway.toString()).exitCode())
        .isZero();
    assertThat(mode(gateway.resolve("observed-hazards.json"))).isEqualTo("rw-------");
    assertThat(mode(gateway)).isEqualTo("rwxr-xr-x");
  }

  static List<Object> keys(Object map) {
    return new java.util.ArrayList<>(((Map<?, ?>) map).keySet());
  }

  static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
