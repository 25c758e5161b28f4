package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the packaged launcher: a server's secrets (its declared env values, secret-looking
 * arguments and URL credentials) never appear in any output, at any verbosity, nor in any file of
 * the records directory, even when the server writes them to its stderr; they print as {@code ***}.
 * {@code config} shows identity hashes only with {@code -v} or {@code --json}.
 */
final class SecretsIT {
  private static final Path FIXTURE = ItProcesses.fixture();

  private static final String ENV_SECRET = "sk-live-abcdef123456";
  private static final String OPTION_SECRET = "ctx7sk-0123456789abcdef";
  private static final String ASSIGNED_SECRET = "tok-secret-987654";
  private static final String URL_PASSWORD = "pw-secret-4242";
  private static final String URL_PARAMETER = "url-secret-5555";
  private static final String REMOTE_PASSWORD = "remote-pw-7777";
  private static final String REMOTE_TOKEN = "remote-tok-8888";
  private static final List<String> SECRETS =
      List.of(
          ENV_SECRET,
          OPTION_SECRET,
          ASSIGNED_SECRET,
          URL_PASSWORD,
          URL_PARAMETER,
          REMOTE_PASSWORD,
          REMOTE_TOKEN);

  @TempDir Path work;
  private Path config;

  @BeforeEach
  void writeConfig() throws Exception {
    ItProcesses.assumeNode();
    Map<String, Object> servers = new LinkedHashMap<>();
    servers.put(
        "leaky",
        Map.of(
            "command",
            "node",
            "args",
            List.of(
                FIXTURE.toString(),
                "leak-secrets",
                "--api-key",
                OPTION_SECRET,
                "https://alice:" + URL_PASSWORD + "@example.invalid/mcp?api_key=" + URL_PARAMETER,
                "--token=" + ASSIGNED_SECRET),
            "env",
            Map.of("API_KEY", ENV_SECRET)));
    servers.put(
        "remote",
        Map.of(
            "type",
            "http",
            "url",
            "https://bob:" + REMOTE_PASSWORD + "@example.invalid/mcp?token=" + REMOTE_TOKEN));
    config = work.resolve("mcp.json");
    Files.writeString(config, Json.write(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", config.toString()));
    return Kcshare.run(
        work,
        Map.of("HOME", work.toString(), "KCSHARE_RECORDS_DIR", records().toString()),
        "",
        all.toArray(String[]::new));
  }

  private Path records() {
    return work.resolve("records");
  }

  /** Runs the command and checks that no secret is in what it printed; returns all of it. */
  private String printed(String... args) throws Exception {
    Kcshare.Result r = kcshare(args);
    String all = r.stdout() + r.stderr();
    for (String secret : SECRETS) {
      assertThat(all).as(String.join(" ", args)).doesNotContain(secret);
    }
    return all;
  }

  @Test
  void secretsAreMaskedInEveryOutputAndEveryRecordFile() throws Exception {
    assertThat(printed("-vv", "measure", "leaky")).contains("stderr: fixture: bad key ***;");
    assertThat(printed("measure", "--json", "leaky"))
        .contains("\"stderrTail\": \"fixture: bad key ***; args --api-key *** https://***@");
    assertThat(printed("-v", "measure", "leaky"))
        .contains("command: ")
        .contains(" --api-key *** https://***@example.invalid/mcp?api_key=*** --token=***");
    assertThat(printed("assess", "leaky")).contains("stderr: fixture: bad key ***;");
    assertThat(printed("-vv", "assess", "leaky")).contains("stderr: fixture: bad key ***;");
    assertThat(printed("assess", "--json", "leaky"))
        .contains("\"stderrTail\": \"fixture: bad key ***;");
    assertThat(printed("assess", "--all")).contains("leaky");
    assertThat(printed("assess", "remote")).contains("remote");
    assertThat(printed("preflight", "leaky")).contains("stderr tail: \"fixture: bad key ***;");
    assertThat(printed("preflight", "--json", "leaky"))
        .contains("\"stderrTail\": \"fixture: bad key ***;");
    assertThat(printed("config"))
        .contains(
            "--api-key \"***\" \"https://***@example.invalid/mcp?api_key=***\" \"--token=***\"")
        .contains("url: https://***@example.invalid/mcp?token=***");
    assertThat(printed("-vv", "config")).contains("--api-key \"***\"");
    assertThat(printed("config", "--json"))
        .contains("\"https://***@example.invalid/mcp?api_key=***\"")
        .contains("\"--token=***\"")
        .contains("\"url\": \"https://***@example.invalid/mcp?token=***\"");
    printed("cost");
    printed("cost", "--json");
    printed("records");
    printed("records", "--json");
    printed("measure", "--all", "--retry-failed");
    printed("assess", "--all", "--metrics", work.resolve("metrics.prom").toString());

    List<Path> files;
    try (Stream<Path> walk = Files.walk(records())) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    assertThat(files).contains(records().resolve("kcshare-attempts.json"));
    for (Path file : files) {
      String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      for (String secret : SECRETS) {
        assertThat(text).as(file.toString()).doesNotContain(secret);
      }
    }
    assertThat(Files.readString(records().resolve("kcshare-attempts.json")))
        .contains("\"stderrTail\": \"fixture: bad key ***; args --api-key *** https://***@");
    String metrics = Files.readString(work.resolve("metrics.prom"));
    for (String secret : SECRETS) {
      assertThat(metrics).doesNotContain(secret);
    }
  }

  @Test
  void conflictingDefinitionsShowMaskedCommandLinesAndUrls() throws Exception {
    Path other = work.resolve("other.json");
    Map<String, Object> twin =
        Map.of(
            "command",
            "node",
            "args",
            List.of(FIXTURE.toString(), "stable", "--api-key", OPTION_SECRET),
            "env",
            Map.of("API_KEY", ENV_SECRET));
    Files.writeString(
        other, Json.write(Map.of("mcpServers", Map.of("leaky", twin))), StandardCharsets.UTF_8);
    String assess = printed("assess", "leaky", "--config", other.toString());
    assertThat(assess).contains("stable --api-key \"***\"").contains("--token=***");
    String config = printed("config", "--config", other.toString());
    assertThat(config).contains("Conflicts:").doesNotContain("identity");
    assertThat(printed("-v", "config", "--config", other.toString())).contains("identity");
  }

  @Test
  void configShowsIdentityHashesOnlyWhenVerboseOrJson() throws Exception {
    Kcshare.Result json = kcshare("config", "--json");
    assertThat(json.exitCode()).as(json.stderr()).isZero();
    Map<String, Map<String, Object>> servers =
        Json.byName(Json.object(Json.parse(json.stdout())).get("servers"));
    String identity = (String) servers.get("leaky").get("identity");
    String envHash = identity.split("\u0000")[1];
    assertThat(envHash).matches("[0-9a-f]{64}");

    Kcshare.Result plain = kcshare("config");
    assertThat(plain.exitCode()).as(plain.stderr()).isZero();
    assertThat(plain.stdout()).contains("leaky").doesNotContain(envHash).doesNotContain("identity");

    Kcshare.Result verbose = kcshare("-v", "config");
    assertThat(verbose.stdout()).contains("identity: ").contains(envHash);
  }

  /**
   * The pass token is a secret (docs/security.md#what-kcshare-masks): a server that echoes {@code
   * $KCSHARE_PASS_TOKEN} on stderr shows {@code ***} in every output and record file, never 32 hex
   * digits.
   */
  @Test
  void thePassTokenIsMaskedWhereverServerOutputGoes() throws Exception {
    Files.writeString(
        config,
        Json.write(
            Map.of(
                "mcpServers",
                Map.of(
                    "echoer",
                    Map.of(
                        "command",
                        "node",
                        "args",
                        List.of(FIXTURE.toString(), "leak-pass-token"))))),
        StandardCharsets.UTF_8);
    java.util.regex.Pattern token = java.util.regex.Pattern.compile("pass token [0-9a-f]{32}");
    List<String[]> runs =
        List.of(
            new String[] {"measure", "--json", "echoer"},
            new String[] {"-vv", "measure", "echoer"},
            new String[] {"assess", "echoer"},
            new String[] {"assess", "--json", "echoer"},
            new String[] {"preflight", "echoer"},
            new String[] {"preflight", "--json", "echoer"});
    for (String[] args : runs) {
      Kcshare.Result r = kcshare(args);
      String all = r.stdout() + r.stderr();
      assertThat(all).as(String.join(" ", args)).contains("fixture: pass token ***");
      assertThat(token.matcher(all).find()).as(String.join(" ", args) + ": " + all).isFalse();
    }
    String attempts = Files.readString(records().resolve("kcshare-attempts.json"));
    assertThat(attempts).contains("fixture: pass token ***");
    assertThat(token.matcher(attempts).find()).as(attempts).isFalse();
  }

  /**
   * Header values and well-known token shapes (docs/security.md#what-kcshare-masks) are masked
   * without being declared: in {@code config} at every verbosity and in JSON, and where a failing
   * server prints them on stderr, in {@code measure}, {@code assess}, {@code preflight} and {@code
   * kcshare-attempts.json}.
   */
  @Test
  void headerValuesAndTokenShapesAreMaskedEverywhere() throws Exception {
    String bearer = "bearer-value-31337";
    String aws = "AKIAIOSFODNN7EXAMPLE";
    String github = "ghp_" + "Z".repeat(36);
    String slack = "xoxb-1234567890-1234567890-abcdefgh";
    String jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N";
    List<String> raw = List.of(bearer, aws, github, slack, jwt);
    Files.writeString(
        config,
        Json.write(
            Map.of(
                "mcpServers",
                Map.of(
                    "shapes",
                    Map.of(
                        "command",
                        "node",
                        "args",
                        List.of(
                            FIXTURE.toString(),
                            "leak-secrets",
                            "--header",
                            "Authorization: Bearer " + bearer,
                            aws,
                            github,
                            slack,
                            jwt))))),
        StandardCharsets.UTF_8);
    List<String[]> runs =
        List.of(
            new String[] {"config"},
            new String[] {"-v", "config"},
            new String[] {"-vv", "config"},
            new String[] {"config", "--json"},
            new String[] {"measure", "--json", "shapes"},
            new String[] {"-vv", "measure", "shapes"},
            new String[] {"assess", "shapes"},
            new String[] {"assess", "--json", "shapes"},
            new String[] {"preflight", "shapes"},
            new String[] {"preflight", "--json", "shapes"});
    for (String[] args : runs) {
      Kcshare.Result r = kcshare(args);
      String all = r.stdout() + r.stderr();
      for (String secret : raw) {
        assertThat(all).as(String.join(" ", args)).doesNotContain(secret);
      }
      assertThat(all).as(String.join(" ", args)).contains("Authorization: Bearer ***");
    }
    String attempts = Files.readString(records().resolve("kcshare-attempts.json"));
    assertThat(attempts).contains("Authorization: Bearer ***");
    for (String secret : raw) {
      assertThat(attempts).doesNotContain(secret);
    }
  }
}
