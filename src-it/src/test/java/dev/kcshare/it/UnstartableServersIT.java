package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Servers that cannot start, through the packaged launcher: a missing command, and servers that
 * exit before answering for lack of a credential (the fixture's {@code needs-env} and {@code
 * exit-early}, modelled on server-brave-search). Each is {@code ran:false} with the documented
 * detail, is not stored, and its stderr tail reaches human output escaped.
 */
final class UnstartableServersIT {
  /** Contains a BEL, so the detail must be escaped in human output. */
  private static final String MISSING = "/nonexistent/kcshare-it/mcp-\u0007server";

  @TempDir Path work;
  private Path config;

  @BeforeEach
  void writeConfig() throws Exception {
    Assumptions.assumeTrue(RealServers.nodeOnPath().isPresent(), "node is not installed");
    Assumptions.assumeTrue(System.getenv("FIXTURE_TOKEN") == null, "FIXTURE_TOKEN is set");
    String fixture = ItProcesses.fixture().toString();
    Map<String, Object> servers = new LinkedHashMap<>();
    servers.put("missing", Map.of("command", MISSING));
    servers.put("needs-env", Map.of("command", "node", "args", List.of(fixture, "needs-env")));
    servers.put("exit-early", Map.of("command", "node", "args", List.of(fixture, "exit-early")));
    servers.put(
        "with-env",
        Map.of(
            "command",
            "node",
            "args",
            List.of(fixture, "needs-env"),
            "env",
            Map.of("FIXTURE_TOKEN", "t0ken")));
    config = work.resolve("mcp.json");
    Files.writeString(config, Json.write(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", config.toString()));
    if (!args[0].equals("preflight")) { // preflight stores nothing: it has no records directory
      all.addAll(List.of("--records-dir", work.resolve("records").toString()));
    }
    return Kcshare.run(work, Map.of(), "", all.toArray(String[]::new));
  }

  @Test
  void couldNotRunIsReportedWithTheSpecDetailAndNotStored() throws Exception {
    Kcshare.Result r = kcshare("measure", "--all", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Map<String, Object>> results = Json.byName(Json.parse(r.stdout()));
    assertThat(results.get("missing"))
        .containsEntry("ran", false)
        .containsEntry("detail", "command not found: " + MISSING)
        .containsEntry("stored", false);
    for (String name : List.of("needs-env", "exit-early")) {
      assertThat(results.get(name))
          .as(name)
          .containsEntry("ran", false)
          .containsEntry("callerSensitive", false)
          .containsEntry("detail", "no response (process exited with status 1)")
          .containsEntry("reasons", List.of("preflight_unavailable"))
          .containsEntry("stored", false);
    }
    assertThat(results.get("with-env")).containsEntry("ran", true).containsEntry("stored", true);

    Map<String, Object> entries =
        Json.object(
            Json.object(Json.read(work.resolve("records/shareability-verdicts.json")))
                .get("entries"));
    assertThat(entries).containsOnlyKeys("with-env");
  }

  @Test
  void humanOutputShowsTheDetailAndTheStderrTailEscaped() throws Exception {
    Kcshare.Result r = kcshare("measure", "--all", "-v");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEmpty();
    String err = r.stderr();
    assertThat(err)
        .contains(
            "missing: could not run: command not found: /nonexistent/kcshare-it/mcp-\\x07server")
        .contains("needs-env: could not run: no response")
        .contains("fixture: FIXTURE_TOKEN is not set\\n")
        .contains("exit-early: could not run: no response")
        .contains("\\x1b[31mfixture: BRAVE_API_KEY is not set\\x1b[0m\\n")
        .contains("with-env: handshake reproducible, stored")
        .contains("Measured 1 of 4 server(s); 3 could not run (not stored).");
    assertThat(err).doesNotContain("\u001b").doesNotContain("\u0007");
    // exit-early writes 6,000 bytes before its message: the tail shown is bounded.
    for (String line : err.split("\n")) {
      assertThat(line.length()).as(line).isLessThan(600);
    }
  }

  @Test
  void preflightPrintsTheStderrTailOfACredentialFailure() throws Exception {
    Kcshare.Result r = kcshare("preflight", "exit-early");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains("could not run: no response")
        .contains("\\x1b[31mfixture: BRAVE_API_KEY is not set\\x1b[0m")
        .doesNotContain("\u001b");
  }
}
