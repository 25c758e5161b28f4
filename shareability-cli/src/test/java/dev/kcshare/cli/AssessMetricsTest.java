package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.CacheRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AssessMetricsTest {
  @TempDir Path dir;

  @Test
  void metricsFileCountsStrengthsAndCodesWithoutNames() throws Exception {
    Files.writeString(
        dir.resolve("cfg.json"),
        "{\"mcpServers\":{\"secret-inventory-name\":{\"url\":\"https://x.invalid\"},"
            + "\"other\":{\"command\":\"definitely-not-installed-cmd\",\"env\":{\"OAUTH_X\":\"v\"}}}}");
    CliRun r =
        CliRun.run(
            dir,
            "assess",
            "--all",
            "--config",
            "cfg.json",
            "--records-dir",
            "rec",
            "--metrics",
            "kcshare.prom");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    String prom = Files.readString(dir.resolve("kcshare.prom"));
    assertThat(prom)
        .contains("kcshare_servers 2\n")
        .contains("kcshare_servers_by_strength{strength=\"disqualified\"} 1\n")
        .contains("kcshare_servers_by_strength{strength=\"unknown\"} 1\n")
        .contains("kcshare_servers_by_reason{code=\"rotating_secret_env\"} 1\n")
        // Never measured: no memory counted for its tier, and counted as without a cost; the
        // URL server has no local process to measure.
        .contains("kcshare_session_memory_bytes{strength=\"unknown\"} 0\n")
        .contains("kcshare_servers_without_session_cost{strength=\"unknown\"} 1\n")
        .contains("kcshare_servers_without_session_cost{strength=\"disqualified\"} 0\n")
        .doesNotContain("secret-inventory-name")
        .doesNotContain("other")
        .doesNotContain("OAUTH_X");
  }

  @Test
  void hostMetricsCountHazardsAndTheServersTheGatewaySharesWithoutNamingThem() throws Exception {
    OperatorFixture f = OperatorFixture.create(dir);
    Map<String, CacheRow> rows = new LinkedHashMap<>();
    rows.put("p", f.declared("p"));
    rows.put("q", f.measured("q"));
    rows.put("h", f.measured("h"));
    f.cache(rows, List.of());
    f.hazard("h", "unroutable_server_request");
    Path prom = dir.resolve("kcshare.prom");
    // The fixture's gateway stubs p with sharing off: nothing is shared.
    CliRun off = f.run("assess", "--all", "--metrics", prom.toString());
    assertThat(off.exitCode()).as(off.stderr()).isZero();
    assertThat(Files.readString(prom))
        .contains("kcshare_servers_by_hazard{code=\"unroutable_server_request\"} 1\n")
        .contains("kcshare_servers_by_hazard{code=\"unattributable_notification\"} 0\n")
        .contains("kcshare_gateway_sharing_enabled 0\n")
        .contains("kcshare_servers_shared 0\n")
        .doesNotContain("secret-oauth-value")
        .doesNotContain("OAUTH_TOKEN")
        .doesNotContain("-mcp");
    f.writeConfig(
        "{\"mcp_gateway\": {\"enabled\": true, \"stub_servers\": [\"p\", \"h\"],"
            + " \"stub_overrides\": {\"h\": false, \"q\": true}}}\n");
    CliRun on = f.run("assess", "--all", "--metrics", prom.toString());
    assertThat(on.exitCode()).as(on.stderr()).isZero();
    assertThat(Files.readString(prom))
        .as("p and q are in the effective stub set, h is overridden out")
        .contains("kcshare_gateway_sharing_enabled 1\n")
        .contains("kcshare_servers_shared 2\n");
  }

  /**
   * One refuted server cleared and another refuted between two exports: the refuted count stays 1,
   * the newest refutation's time moves on, which is what the fleet alert watches.
   */
  @Test
  void theNewestRefutationTimeMovesWhenOneRefutationReplacesAnother() throws Exception {
    OperatorFixture f = OperatorFixture.create(dir);
    Map<String, CacheRow> rows = new LinkedHashMap<>();
    rows.put("q", f.measured("q"));
    rows.put("h", f.measured("h"));
    f.cache(rows, List.of());
    Path prom = dir.resolve("kcshare.prom");
    CliRun none = f.run("assess", "--all", "--metrics", prom.toString());
    assertThat(none.exitCode()).as(none.stderr()).isZero();
    assertThat(Files.readString(prom))
        .contains("kcshare_servers_by_strength{strength=\"refuted\"} 0\n")
        .contains("kcshare_newest_refutation_timestamp_seconds 0\n");

    f.hazards("unroutable_server_request", Map.of("h", 1_700_000_000.5));
    CliRun first = f.run("assess", "--all", "--metrics", prom.toString());
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    assertThat(Files.readString(prom))
        .contains("kcshare_servers_by_strength{strength=\"refuted\"} 1\n")
        .contains("kcshare_newest_refutation_timestamp_seconds 1700000000\n");

    f.hazards("unroutable_server_request", Map.of("q", 1_700_000_900.0));
    CliRun swapped = f.run("assess", "--all", "--metrics", prom.toString());
    assertThat(swapped.exitCode()).as(swapped.stderr()).isZero();
    assertThat(Files.readString(prom))
        .as("h cleared, q refuted: the same count, a newer time")
        .contains("kcshare_servers_by_strength{strength=\"refuted\"} 1\n")
        .contains("kcshare_newest_refutation_timestamp_seconds 1700000900\n")
        .doesNotContain("\"q\"")
        .doesNotContain("\"h\"");
  }

  @Test
  void unwritableMetricsFileIsBadInput() {
    CliRun r =
        CliRun.run(
            dir,
            "{\"name\": \"x\"}",
            java.util.Map.of(),
            "assess",
            "--evidence",
            "-",
            "--metrics",
            "no/such/dir/kcshare.prom");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stderr())
        .isEqualTo(
            "kcshare: cannot write metrics to "
                + dir.resolve("no/such/dir/kcshare.prom")
                + ": "
                + dir.resolve("no/such/dir")
                + ": no such directory\n");
    assertThat(r.stdout()).as("nothing printed before the failure").isEmpty();
  }

  @Test
  void unwritableMetricsFilePrintsNoTableOrJsonFromTheHostEither() throws Exception {
    Files.writeString(
        dir.resolve("cfg.json"), "{\"mcpServers\":{\"a\":{\"url\":\"https://x.invalid\"}}}");
    for (String[] extra :
        new String[][] {{"--all"}, {"--all", "--json"}, {"a"}, {"--all", "--fail-on", "unknown"}}) {
      java.util.List<String> args =
          new java.util.ArrayList<>(
              java.util.List.of(
                  "assess",
                  "--config",
                  "cfg.json",
                  "--records-dir",
                  "rec",
                  "--metrics",
                  "cfg.json/kcshare.prom"));
      args.addAll(java.util.List.of(extra));
      CliRun r = CliRun.run(dir, "", java.util.Map.of(), args.toArray(String[]::new));
      assertThat(r.exitCode()).as("%s: %s", args, r.stderr()).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.stdout()).as("%s", args).isEmpty();
      assertThat(r.stderr()).as("%s", args).contains("cannot write").contains("kcshare.prom");
    }
  }
}
