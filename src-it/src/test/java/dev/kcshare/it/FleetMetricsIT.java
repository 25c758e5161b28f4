package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet view's input, end to end through the packaged launcher (docs/fleet.md): a measured
 * fixture fleet with distinctive server names, env names and values; {@code measure --all
 * --metrics} writes the pass file and {@code assess --all --metrics} the verdict file into a
 * textfile directory; {@code promtool check metrics} accepts both, and neither names a server, an
 * env variable, a value or a path.
 */
final class FleetMetricsIT {
  @TempDir Path dir;

  @BeforeAll
  static void requireNodeAndProc() {
    ItProcesses.assumeNode();
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/smaps_rollup")), "no /proc");
  }

  private static Map<String, Object> node(Map<String, String> env, String... args) {
    List<String> all = new ArrayList<>(List.of(ItProcesses.fixture().toString()));
    all.addAll(List.of(args));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("command", "node");
    out.put("args", all);
    if (!env.isEmpty()) {
      out.put("env", env);
    }
    return out;
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", "cfg.json", "--records-dir", "records"));
    Kcshare.Result r = Kcshare.run(dir, Map.of(), "", all.toArray(String[]::new));
    assertThat(r.exitCode()).as("kcshare %s: %s", all, r.stderr()).isZero();
    assertThat(r.stderr()).as("-q: errors only").isEmpty();
    return r;
  }

  @Test
  void aMeasuredFleetsMetricsPassPromtoolAndNameNothing() throws Exception {
    Map<String, Object> servers = new LinkedHashMap<>();
    servers.put(
        "zebra-inventory-crm",
        node(
            Map.of("ACME_PAYROLL_TOKEN", "hunter2-payroll-value"),
            "stable",
            "--name",
            "zebra-inventory-crm",
            "--hold-mib",
            "16"));
    servers.put("okapi-wrapped-wiki", node(Map.of(), "stable", "--name", "okapi", "--fork", "1"));
    servers.put(
        "narwhal-pooled-search",
        node(Map.of(), "stable", "--name", "narwhal", "--declare", "1", "--no-logging", "1"));
    servers.put("quokka-broken-ledger", node(Map.of(), "exit-early"));
    servers.put(
        "axolotl-remote-billing",
        Map.of("type", "http", "url", "https://axolotl-billing.example.invalid/mcp"));
    Files.writeString(
        dir.resolve("cfg.json"), Json.write(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);
    Path textfile = Files.createDirectories(dir.resolve("textfile_collector"));

    assertThat(
            kcshare("measure", "--all", "-q", "--metrics", "textfile_collector/kcshare-pass.prom")
                .stdout())
        .isEmpty();
    kcshare("assess", "--all", "-q", "--metrics", "textfile_collector/kcshare.prom");
    String pass = Files.readString(textfile.resolve("kcshare-pass.prom"));
    String state = Files.readString(textfile.resolve("kcshare.prom"));

    for (String text : List.of(pass, state)) {
      for (String secret :
          List.of(
              "zebra",
              "okapi",
              "narwhal",
              "quokka",
              "axolotl",
              "inventory",
              "ACME_PAYROLL_TOKEN",
              "hunter2",
              "example.invalid",
              dir.toString(),
              ItProcesses.fixture().getFileName().toString())) {
        assertThat(text).doesNotContain(secret);
      }
      // Every label value is one of kcshare's own vocabularies' spellings.
      Matcher labels = Pattern.compile("\\{(\\w+)=\"([^\"]*)\"\\}").matcher(text);
      while (labels.find()) {
        assertThat(labels.group(1)).isIn("strength", "code", "sessions");
        assertThat(labels.group(2)).matches("[a-z_]+|[0-9]+");
      }
    }
    assertThat(value(pass, "kcshare_last_pass_servers_measured")).isEqualTo(3);
    assertThat(value(pass, "kcshare_last_pass_servers_could_not_run")).isEqualTo(1);
    assertThat(value(pass, "kcshare_last_pass_timestamp_seconds"))
        .isCloseTo(System.currentTimeMillis() / 1000.0, org.assertj.core.data.Offset.offset(600.0));
    assertThat(value(state, "kcshare_servers")).isEqualTo(5);
    assertThat(value(state, "kcshare_servers_could_not_run")).isEqualTo(1);
    assertThat(value(state, "kcshare_servers_recommend_share")).isEqualTo(1);
    double back16 = value(state, "kcshare_sharing_given_back_memory_bytes{sessions=\"16\"}");
    double back5 = value(state, "kcshare_sharing_given_back_memory_bytes{sessions=\"5\"}");
    assertThat(back16).as("narwhal shared: 15 copies of it").isPositive().isEqualTo(back5 / 4 * 15);
    assertThat(value(state, "kcshare_sharing_given_back_processes{sessions=\"16\"}")).isEqualTo(15);

    requirePromtool();
    for (String name : List.of("kcshare-pass.prom", "kcshare.prom")) {
      Process p =
          new ProcessBuilder("promtool", "check", "metrics")
              .redirectErrorStream(true)
              .redirectInput(textfile.resolve(name).toFile())
              .start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as("%s: %s", name, output).isZero();
      assertThat(output).as(name).isEmpty();
    }
  }

  private static double value(String text, String sample) {
    for (String line : text.split("\n")) {
      if (line.startsWith(sample + " ")) {
        return Double.parseDouble(line.substring(sample.length() + 1));
      }
    }
    throw new AssertionError("no sample " + sample + " in\n" + text);
  }

  /** Skips when promtool is missing, except under CI=true, where it fails (.ci/run installs it). */
  private static void requirePromtool() throws InterruptedException {
    boolean present;
    try {
      Process p =
          new ProcessBuilder("promtool", "--version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      present = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      present = false;
    }
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("promtool is not installed (.ci/run installs it)");
    }
    assumeTrue(present, "promtool is not installed (Debian: apt-get install prometheus)");
  }
}
