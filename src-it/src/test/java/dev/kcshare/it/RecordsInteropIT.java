package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interop of the record files with a Python writer and reader (records spec §4, §5, §7, §12): a
 * stdlib-only script writes both files as the Kiro Crew gateway would, and kcshare must read them
 * as the spec says; kcshare rewrites the ledger, and Python's {@code json} module must read it back
 * with the same values. Comparisons go through Python's canonical JSON (the IT classpath has no
 * JSON library). Skipped where {@code python3} is not available.
 *
 * <p>The kcshare-to-Python direction covers the ledger only: no kcshare command writes the verdict
 * cache yet.
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
}
