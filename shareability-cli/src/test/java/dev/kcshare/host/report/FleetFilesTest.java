package dev.kcshare.host.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kcshare.host.json.JsonReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped fleet files (docs/fleet.md): the Prometheus rules pass {@code promtool check rules}
 * and their unit tests ({@code promtool test rules}, which test every alert); every Grafana panel's
 * expression parses; and every kcshare metric either names is one kcshare writes. promtool comes
 * from Debian's {@code prometheus} package; under {@code CI=true} it must be installed.
 */
final class FleetFilesTest {
  private static final Path FLEET = Path.of("..", "docs", "fleet");
  private static final Pattern METRIC = Pattern.compile("(?<![\\w:])kcshare_[a-z_]+[a-z]");
  private static final Pattern ALERT = Pattern.compile("(?m)^\\s*- alert: (\\w+)$");
  private static final Pattern TESTED = Pattern.compile("(?m)^\\s*alertname: (\\w+)$");

  @TempDir Path dir;

  /** Every family kcshare writes: the verdict file and the pass file. */
  private static Set<String> families() {
    Set<String> out = new HashSet<>();
    String text =
        Metrics.openMetrics(List.of()) + Metrics.passMetrics(new Metrics.Pass(0, 0, 0, 0, 0, 0));
    for (String line : text.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        out.add(line.split(" ")[2]);
      }
    }
    return out;
  }

  private static Set<String> metricsNamedIn(String text) {
    Set<String> out = new HashSet<>();
    Matcher m = METRIC.matcher(text);
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  @Test
  void theRulesAndTheDashboardNameOnlyMetricsKcshareWrites() throws IOException {
    Set<String> rules = metricsNamedIn(Files.readString(FLEET.resolve("kcshare.rules.yml")));
    Set<String> dashboard =
        metricsNamedIn(
            String.join(
                "\n", expressions(Files.readString(FLEET.resolve("kcshare-dashboard.json")))));
    assertThat(rules).isNotEmpty();
    assertThat(families()).containsAll(rules).containsAll(dashboard);
    assertThat(dashboard)
        .contains(
            "kcshare_servers_by_strength",
            "kcshare_fanout_memory_bytes",
            "kcshare_fanout_with_sharing_memory_bytes",
            "kcshare_fanout_processes",
            "kcshare_servers_could_not_run",
            "kcshare_last_pass_timestamp_seconds");
  }

  @Test
  void everyAlertHasAUnitTest() throws IOException {
    Set<String> alerts = all(ALERT, Files.readString(FLEET.resolve("kcshare.rules.yml")));
    Set<String> tested = all(TESTED, Files.readString(FLEET.resolve("kcshare.rules.test.yml")));
    assertThat(alerts)
        .contains(
            "KcshareMeasurePassStale",
            "KcshareServerRefuted",
            "KcsharePreflightsFailing",
            "KcshareSharingUnused");
    assertThat(tested).isEqualTo(alerts);
  }

  @Test
  void promtoolChecksAndTestsTheRules() throws Exception {
    requirePromtool();
    Result check = promtool(FLEET, "check", "rules", "kcshare.rules.yml");
    assertThat(check.exitCode()).as(check.output()).isZero();
    Result test = promtool(FLEET, "test", "rules", "kcshare.rules.test.yml");
    assertThat(test.exitCode()).as(test.output()).isZero();
    assertThat(test.output()).contains("SUCCESS");
  }

  @Test
  void theDashboardIsACurrentGrafanaSchemaWithADatasourceAndAHostVariable() throws IOException {
    Map<?, ?> d = (Map<?, ?>) parse(Files.readString(FLEET.resolve("kcshare-dashboard.json")));
    assertThat(((Number) d.get("schemaVersion")).intValue()).isGreaterThanOrEqualTo(39);
    List<?> variables = (List<?>) ((Map<?, ?>) d.get("templating")).get("list");
    Map<Object, Map<?, ?>> byName = new java.util.HashMap<>();
    for (Object v : variables) {
      byName.put(((Map<?, ?>) v).get("name"), (Map<?, ?>) v);
    }
    assertThat(byName.get("datasource").get("type")).isEqualTo("datasource");
    assertThat(byName.get("datasource").get("query")).isEqualTo("prometheus");
    assertThat(byName.get("instance").get("type")).isEqualTo("query");
    assertThat(String.valueOf(byName.get("sessions").get("definition")))
        .as("the session counts come from the metrics, not a second list")
        .contains("sessions");
    for (Object p : (List<?>) d.get("panels")) {
      Map<?, ?> panel = (Map<?, ?>) p;
      if (!"row".equals(panel.get("type"))) {
        assertThat(String.valueOf(panel.get("datasource")))
            .as("%s", panel.get("title"))
            .contains("${datasource}");
      }
    }
  }

  @Test
  void aTableOfSeveralQueriesNamesEveryColumnAndEachHostsVerdictFileAgeIsShown()
      throws IOException {
    Map<?, ?> d = (Map<?, ?>) parse(Files.readString(FLEET.resolve("kcshare-dashboard.json")));
    boolean ageShown = false;
    for (Object p : (List<?>) d.get("panels")) {
      Map<?, ?> panel = (Map<?, ?>) p;
      List<?> targets = (List<?>) panel.get("targets");
      if (targets == null) {
        continue;
      }
      for (Object t : targets) {
        ageShown |= String.valueOf(((Map<?, ?>) t).get("expr")).contains("node_textfile_mtime");
      }
      if ("table".equals(panel.get("type")) && targets.size() > 1) {
        // Grafana names the merged instant queries' columns "Value #A", "Value #B", ...
        Map<?, ?> renames = null;
        for (Object x : (List<?>) panel.get("transformations")) {
          if ("organize".equals(((Map<?, ?>) x).get("id"))) {
            renames = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) x).get("options")).get("renameByName");
          }
        }
        assertThat(renames).as("%s: an organize transformation", panel.get("title")).isNotNull();
        for (Object t : targets) {
          String column = "Value #" + ((Map<?, ?>) t).get("refId");
          assertThat(renames.containsKey(column)).as("%s: %s", panel.get("title"), column).isTrue();
        }
      }
    }
    assertThat(ageShown).as("a panel shows each host's kcshare.prom age").isTrue();
  }

  /** Every panel expression, variables substituted, parsed by promtool as a recording rule. */
  @Test
  void promtoolParsesEveryPanelExpression() throws Exception {
    requirePromtool();
    List<String> exprs = expressions(Files.readString(FLEET.resolve("kcshare-dashboard.json")));
    assertThat(exprs).hasSizeGreaterThanOrEqualTo(10);
    StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
    int i = 0;
    for (String e : exprs) {
      String expr =
          e.replace("$instance", "host-a:9100|host-b:9100")
              .replace("$job", "node")
              .replace("$sessions", "16");
      assertThat(expr).as("a variable left: %s", e).doesNotContain("$");
      rules
          .append("      - record: dashboard:panel_")
          .append(i++)
          .append("\n        expr: '")
          .append(expr.replace("'", "''"))
          .append("'\n");
    }
    Files.writeString(dir.resolve("dashboard.rules.yml"), rules, StandardCharsets.UTF_8);
    Result check = promtool(dir, "check", "rules", "dashboard.rules.yml");
    assertThat(check.exitCode()).as(check.output() + "\n" + rules).isZero();
    assertThat(check.output()).contains("SUCCESS: " + exprs.size() + " rules found");
  }

  /** Every target expression of every panel, rows' nested panels included. */
  static List<String> expressions(String dashboardJson) {
    List<String> out = new ArrayList<>();
    collect(parse(dashboardJson), out);
    return out;
  }

  private static void collect(Object node, List<String> out) {
    if (node instanceof Map<?, ?> m) {
      Object targets = m.get("targets");
      if (targets instanceof List<?> list) {
        for (Object t : list) {
          Object expr = ((Map<?, ?>) t).get("expr");
          assertThat(expr).as("a target without expr: %s", t).isInstanceOf(String.class);
          out.add((String) expr);
        }
      }
      Object panels = m.get("panels");
      if (panels instanceof List<?> list) {
        for (Object p : list) {
          collect(p, out);
        }
      }
    }
  }

  private static Object parse(String json) {
    try {
      return JsonReader.withDepthLimit(100).parse(json);
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + e.getMessage(), e);
    }
  }

  private static Set<String> all(Pattern p, String text) {
    Set<String> out = new HashSet<>();
    Matcher m = p.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  record Result(int exitCode, String output) {}

  private static Result promtool(Path cwd, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("promtool"));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("promtool did not finish: " + command);
    }
    return new Result(p.exitValue(), output);
  }

  /** Skips the test when promtool is missing, except under CI=true, where it fails. */
  static void requirePromtool() {
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
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      present = false;
    }
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("promtool is not installed (.ci/run installs it)");
    }
    assumeTrue(present, "promtool is not installed (Debian: apt-get install prometheus)");
  }
}
