package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interop of the record files with a Python writer and reader
 * (docs/formats.md#the-hazard-ledger--observed-hazardsjson,
 * docs/formats.md#the-verdict-cache--shareability-verdictsjson, docs/design.md#execution-identity,
 * docs/design.md#gateway-interop): a stdlib-only script writes both files as the Kiro Crew gateway
 * would, and kcshare must read them as documented; kcshare rewrites the ledger and writes the
 * verdict cache ({@code measure}), and Python's {@code json} module must read both back with the
 * values kcshare reads, and recompute the cache rows' identities byte for byte. Comparisons go
 * through Python's canonical JSON. Skipped where {@code python3} is not available (the cache test
 * also where {@code node} is not).
 */
final class RecordsInteropIT {
  private static final Path PYTHON = Kcshare.repo().resolve("src-it/src/test/python");

  @TempDir Path dir;

  private Path records;
  private Path script;

  /** What a Python process printed. */
  record Py(int exitCode, String stdout, String stderr) {}

  static boolean pythonAvailable() {
    try {
      Process p =
          new ProcessBuilder("python3", "--version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  private Py python(String stdin, String scriptName, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of("python3", PYTHON.resolve(scriptName).toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().put("PYTHONIOENCODING", "utf-8");
    // The scripts import identity.py: no __pycache__ in the source tree.
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    Path out = Files.createTempFile(dir, "py-out", ".txt");
    Path err = Files.createTempFile(dir, "py-err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try (var in = p.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("python did not finish: " + command);
    }
    return new Py(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** Python's canonical form of the JSON value at {@code path} inside {@code json}. */
  private String canon(String json, String... path) throws Exception {
    Py r = python(json, "canon.py", path);
    assertThat(r.exitCode()).as("canon.py %s: %s", List.of(path), r.stderr()).isZero();
    return r.stdout().strip();
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    Kcshare.Result r = Kcshare.run(dir, Map.of(), "", args);
    assertThat(r.exitCode()).as("kcshare %s: %s", List.of(args), r.stderr()).isZero();
    return r;
  }

  @BeforeEach
  void gatewayWritesBothFiles() throws Exception {
    Assumptions.assumeTrue(pythonAvailable(), "python3 is not available");
    records = dir.resolve("records");
    script = Files.writeString(dir.resolve("server.sh"), "#!/bin/sh\necho v1\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Runs the gateway-side writer; returns its computed execution identity (JSON). */
  private String writeRecords() throws Exception {
    Py w = python("", "write_records.py", records.toString(), script.toString());
    assertThat(w.exitCode()).as(w.stderr()).isZero();
    assertThat(Files.readString(records.resolve("observed-hazards.json"))).contains("NaN");
    return w.stdout();
  }

  @Test
  void kcshareReadsTheGatewaysLedgerAsTheSpecSays() throws Exception {
    String identity = writeRecords();
    String launch = canon(identity, "launchIdentity");
    String expected =
        canon(
            "{\"big-mcp\": {\"codes\": [\"unroutable_server_request\"], \"count\":"
                + " 9007199254740993, \"lastSeen\": 1712000000.123456, \"identities\":"
                + " {\"\\u00e9\\ud83d\\ude00\": {\"codes\": [\"unroutable_server_request\"],"
                + " \"count\": 9007199254740993, \"lastSeen\": 1712000000.123456}}},"
                // NaN lastSeen reads as 0.0; the other identity keeps its own record.
                + " \"files-mcp\": {\"codes\": [\"unattributable_notification\","
                + " \"unroutable_server_request\"], \"count\": 5, \"lastSeen\": 1712000000.5,"
                + " \"identities\": {"
                + launch
                + ": {\"codes\": [\"unattributable_notification\"], \"count\": 1, \"lastSeen\":"
                + " 0.0}, \"h1\\u0000e1\\u0000fp-old\": {\"codes\":"
                + " [\"unroutable_server_request\"], \"count\": 4, \"lastSeen\": 1712000000.5}}},"
                // Unknown code dropped; a fractional count becomes the number of surviving codes.
                + " \"future-mcp\": {\"codes\": [\"unattributable_notification\"], \"count\": 1,"
                + " \"lastSeen\": 1.5e-05, \"identities\": {\"\": {\"codes\":"
                + " [\"unattributable_notification\"], \"count\": 1, \"lastSeen\": 1.5e-05}}},"
                // A flat-only legacy entry is one record under the identity "".
                + " \"legacy-mcp\": {\"codes\": [\"unroutable_server_request\"], \"count\": 2,"
                + " \"lastSeen\": 1700.0, \"identities\": {\"\": {\"codes\":"
                + " [\"unroutable_server_request\"], \"count\": 2, \"lastSeen\": 1700.0}}}}");
    // "emptied-mcp" has an empty identities object, which is authoritative: absent.
    assertThat(canon(kcshare("hazards", "list", "--json", "--records-dir", "records").stdout()))
        .isEqualTo(expected);
  }

  @Test
  void kcshareReadsTheGatewaysCacheAsTheSpecSays() throws Exception {
    writeRecords();
    String out = kcshare("records", "--json", "--records-dir", "records").stdout();
    assertThat(canon(out, "cache", "problem")).isEqualTo("null");
    // Rows without era/handshake are kept; a wrong schema identity and a missing one are dropped.
    assertThat(canon(out, "cache", "rows")).isEqualTo("[\"plain\",\"sensitive\"]");
    assertThat(canon(out, "cache", "applied")).isEqualTo("[\"plain\",\"removed-server\"]");
    assertThat(canon(out, "cache", "dropped"))
        .contains("\"where\":\"entries/old-schema/identity\"")
        .contains("\"where\":\"entries/no-identity/identity\"")
        .contains("\"where\":\"entries/sensitive/evaluatedAt\"")
        .doesNotContain("entries/plain");
    assertThat(canon(out, "ledger", "servers"))
        .isEqualTo("[\"big-mcp\",\"files-mcp\",\"future-mcp\",\"legacy-mcp\"]");
    assertThat(canon(out, "ledger", "dropped"))
        .contains("lastSeen")
        .contains("brand_new_code")
        .contains("\"where\":\"servers/emptied-mcp\"");
  }

  @Test
  void identityStringsAreByteIdenticalToPythons() throws Exception {
    String python = writeRecords();
    List<String> args =
        new ArrayList<>(List.of("identity", "--json", "--command", script.toString()));
    args.addAll(
        List.of(
            "--arg=--port",
            "--arg",
            "8080",
            "--arg",
            "server.sh",
            "--arg",
            "missing.txt",
            "--env",
            "REGION=eu-west-1",
            "--env",
            "MODE=fast",
            "--env",
            "AWS_SESSION_TOKEN=abc",
            "--env",
            "OAUTH_CLIENT=k1",
            "--identity-key",
            "OAUTH_CLIENT"));
    assertThat(canon(python, "args"))
        .isEqualTo("[\"--port\",\"8080\",\"server.sh\",\"missing.txt\"]");
    String kcshare = kcshare(args.toArray(String[]::new)).stdout();
    for (String field :
        List.of("commandArgsHash", "envHash", "binaryVersion", "cacheIdentity", "launchIdentity")) {
      assertThat(canon(kcshare, field)).as(field).isEqualTo(canon(python, field));
    }
    // The script is a file argument too: two fingerprints, NUL-joined.
    assertThat(canon(kcshare, "binaryVersion"))
        .isEqualTo("\"667f61a069b75f1f57fc5616\\u0000667f61a069b75f1f57fc5616\"");
  }

  @Test
  void pythonReadsBackTheLedgerKcshareRewrote() throws Exception {
    writeRecords();
    Kcshare.Result clear = kcshare("hazards", "clear", "legacy-mcp", "--records-dir", "records");
    assertThat(clear.stderr()).contains("Cleared the observed hazards of \"legacy-mcp\".");
    Path ledger = records.resolve("observed-hazards.json");
    assertThat(Files.readString(ledger)).doesNotContain("NaN").endsWith("}\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(ledger)))
        .isEqualTo("rw-------");

    Py read = python("", "read_records.py", ledger.toString());
    assertThat(read.exitCode()).as(read.stderr()).isZero();
    String summary = read.stdout();
    // Python's json module reads the same values kcshare reads from its own file.
    String kcshareView = kcshare("hazards", "list", "--json", "--records-dir", "records").stdout();
    assertThat(canon(summary, "servers")).isEqualTo(canon(kcshareView));
    assertThat(canon(summary, "servers")).doesNotContain("legacy-mcp").contains("files-mcp");
    assertThat(canon(summary, "schema")).isEqualTo("1");
    assertThat(canon(summary, "cleared")).startsWith("{\"legacy-mcp\":");
    // Formatting: dumping what Python read, in file order, with indent=2 reproduces the file byte
    // for byte (floats, escapes, indentation). With sort_keys=True it does so only where kcshare's
    // member order is sorted order: identity records (codes, count, lastSeen), not server entries
    // (identities first) nor the top level (schema, servers, cleared).
    assertThat(canon(summary, "roundTrip")).isEqualTo("true");
    assertThat(canon(summary, "sortedAgrees"))
        .isEqualTo("{\"identityRecords\":true,\"serverEntries\":false,\"topLevel\":false}");
    assertThat(canon(summary, "namesSorted")).isEqualTo("true");
  }

  @Test
  void theFlatUnionIsTheGatewaysExactSumBothWays() throws Exception {
    Py w = python("", "write_union.py", records.toString());
    assertThat(w.exitCode()).as(w.stderr()).isZero();
    String exact = "18446744073709551614"; // 2 * (2**63 - 1), beyond a long
    String view = kcshare("hazards", "list", "--json", "--records-dir", "records").stdout();
    assertThat(canon(view, "big", "count")).isEqualTo(exact);
    assertThat(canon(view, "early", "lastSeen")).isEqualTo("-1.5");

    // kcshare rewrites the file (a clear of another name): Python reads the same exact union.
    kcshare("hazards", "clear", "other", "--force", "--records-dir", "records");
    Py read = python("", "read_records.py", records.resolve("observed-hazards.json").toString());
    assertThat(read.exitCode()).as(read.stderr()).isZero();
    assertThat(canon(read.stdout(), "servers", "big", "count")).isEqualTo(exact);
    assertThat(canon(read.stdout(), "servers", "early", "lastSeen")).isEqualTo("-1.5");
    assertThat(canon(read.stdout(), "servers")).isEqualTo(canon(view));
  }

  /** Python's canonical form of member {@code field} of the object named {@code name} in array. */
  private String canonOf(String array, String name, String field) throws Exception {
    List<Object> items = Json.array(Json.parse(array));
    for (int i = 0; i < items.size(); i++) {
      if (name.equals(Json.object(items.get(i)).get("name"))) {
        return canon(array, Integer.toString(i), field);
      }
    }
    throw new AssertionError(name + " is not in " + array);
  }

  @Test
  void pythonReadsTheCacheKcshareWrote() throws Exception {
    ItProcesses.assumeNode();
    String fixture = ItProcesses.fixture().toString();
    Map<String, Object> servers = new LinkedHashMap<>();
    servers.put(
        "alpha", Map.of("command", "node", "args", List.of(fixture, "stable", "--name", "alpha")));
    // File arguments count in the identity: the script in the working directory (its fingerprint
    // is a spec test vector), not the missing file. The fixture ignores both.
    Map<String, Object> env = new LinkedHashMap<>();
    env.put("REGION", "eu-west-1");
    env.put("MODE", "fast");
    env.put("AWS_SESSION_TOKEN", "abc");
    servers.put(
        "beta",
        Map.of(
            "command",
            "node",
            "args",
            List.of(fixture, "stable", "server.sh", "missing.txt", "--name", "beta"),
            "env",
            env));
    Path config = dir.resolve("cfg.json");
    Files.writeString(config, Json.write(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);

    String measured =
        kcshare("measure", "--all", "--config", "cfg.json", "--records-dir", "records", "--json")
            .stdout();
    Path cache = records.resolve("shareability-verdicts.json");
    assertThat(Files.readString(cache)).endsWith("}\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)))
        .isEqualTo("rw-------");

    Py read = python("", "read_cache.py", cache.toString(), config.toString());
    assertThat(read.exitCode()).as(read.stderr()).isZero();
    String summary = read.stdout();
    // Formatting (docs/design.md#writing-files): dumping what Python read, in file order,
    // reproduces the file byte for byte.
    assertThat(canon(summary, "roundTrip")).isEqualTo("true");
    assertThat(canon(summary, "topLevel")).isEqualTo("[\"entries\",\"applied\"]");
    assertThat(canon(summary, "names")).isEqualTo("[\"alpha\",\"beta\"]");
    assertThat(canon(summary, "applied")).isEqualTo("[]");

    String assessed =
        kcshare("assess", "--all", "--json", "--config", "cfg.json", "--records-dir", "records")
            .stdout();
    for (String name : List.of("alpha", "beta")) {
      // The cache row, in the documented member order, with the types the gateway's reader
      // expects; the session cost last, kcshare's own like era and handshake.
      assertThat(canon(summary, "members", name))
          .as(name)
          .isEqualTo(
              "[\"ran\",\"callerSensitive\",\"reasons\",\"evaluatedAt\",\"identity\","
                  + "\"reportedVersion\",\"era\",\"handshake\",\"cost\"]");
      assertThat(canon(summary, "types", name))
          .as(name)
          .isEqualTo(
              "{\"callerSensitive\":\"bool\",\"cost\":\"dict\",\"era\":\"str\","
                  + "\"evaluatedAt\":\"float\",\"handshake\":\"dict\",\"identity\":\"str\","
                  + "\"ran\":\"bool\",\"reasons\":\"list\",\"reportedVersion\":\"str\"}");
      // Whole numbers to Python, so the gateway could use them as they are.
      assertThat(canon(summary, "costTypes", name))
          .as(name)
          .isEqualTo(
              "{\"cpuMillis\":\"int\",\"processes\":\"int\",\"pssBytes\":\"int\","
                  + "\"readyMillis\":\"int\",\"rssBytes\":\"int\"}");
      // The gateway's loader keeps the row, with exactly the values of its own members.
      String gateway = canon(summary, "gatewayRows", name);
      assertThat(gateway).as(name).isNotEqualTo("null");
      for (String field :
          List.of(
              "ran", "callerSensitive", "reasons", "evaluatedAt", "identity", "reportedVersion")) {
        assertThat(canon(gateway, field))
            .as("%s %s", name, field)
            .isEqualTo(canon(summary, "rows", name, field));
      }
      // What the row holds is what assess reports as the session cost.
      for (String figure :
          List.of("rssBytes", "pssBytes", "processes", "readyMillis", "cpuMillis")) {
        assertThat(canonOf(assessed, name, "sessionCost"))
            .as("%s %s", name, figure)
            .contains("\"" + figure + "\":" + canon(summary, "rows", name, "cost", figure));
      }
      assertThat(canon(summary, "rows", name, "ran")).as(name).isEqualTo("true");
      assertThat(canon(summary, "rows", name, "handshake", "serverInfo", "name"))
          .isEqualTo('"' + name + '"');
      // The identity Python computes from the definition, byte for byte
      // (docs/design.md#cache-identity).
      String identity = canon(summary, "rows", name, "identity");
      assertThat(identity).as(name).isEqualTo(canon(summary, "identities", name));
      // Python's view equals kcshare's own: what measure stored, and what assess reads back.
      for (String field : List.of("ran", "callerSensitive", "reasons", "era", "reportedVersion")) {
        assertThat(canon(summary, "rows", name, field))
            .as("%s %s", name, field)
            .isEqualTo(canonOf(measured, name, field));
      }
      assertThat(canonOf(measured, name, "stored")).isEqualTo("true");
      assertThat(canonOf(assessed, name, "identity")).as(name).isEqualTo(identity);
      assertThat(canonOf(assessed, name, "identitiesAgree")).as(name).isEqualTo("true");
      assertThat(canonOf(assessed, name, "measuredAt"))
          .as(name)
          .isEqualTo(canon(summary, "rows", name, "evaluatedAt"));
    }
    // The documented test vectors (docs/design.md#identity-test-vectors) inside the identities,
    // independent of both implementations: the empty env; the env without its secret-prefixed
    // key; the fingerprint of server.sh.
    assertThat(canon(summary, "identities", "alpha"))
        .contains("\\u0000e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\\u0000");
    assertThat(canon(summary, "identities", "beta"))
        .contains("\\u0000c4c29c3c2ba7159ad670d31b1cd883dc961d8b8430b7aa0d715404d6ea7720a1\\u0000")
        .endsWith("\\u0000667f61a069b75f1f57fc5616\\u00002\"");

    String view = kcshare("records", "--json", "--records-dir", "records").stdout();
    assertThat(canon(view, "cache", "rows")).isEqualTo(canon(summary, "names"));
    assertThat(canon(view, "cache", "applied")).isEqualTo(canon(summary, "applied"));
    assertThat(canon(view, "cache", "dropped")).isEqualTo("[]");
  }
}
