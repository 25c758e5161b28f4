package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
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
