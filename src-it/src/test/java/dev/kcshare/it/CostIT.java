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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a session costs, end to end through the packaged launcher: {@code measure} samples each
 * fixture server's process tree (a launcher that forks the server included), {@code assess --json}
 * reports the stored figures, and {@code cost --json} adds them up at N sessions.
 */
final class CostIT {
  private static final long MIB = 1024 * 1024;

  @TempDir Path dir;

  @BeforeAll
  static void requireNodeAndProc() {
    ItProcesses.assumeNode();
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/smaps_rollup")), "no /proc");
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    Kcshare.Result r = Kcshare.run(dir, Map.of(), "", args);
    assertThat(r.exitCode()).as("kcshare %s: %s", List.of(args), r.stderr()).isZero();
    return r;
  }

  private static Map<String, Object> node(String... args) {
    List<String> all = new ArrayList<>(List.of(ItProcesses.fixture().toString()));
    all.addAll(List.of(args));
    return Map.of("command", "node", "args", all);
  }

  private Path config() throws Exception {
    Map<String, Object> servers = new LinkedHashMap<>();
    servers.put("big", node("stable", "--name", "big", "--hold-mib", "48"));
    // A node launcher that forks the server, and a shell that does (no exec: it waits for node).
    servers.put("wrapped", node("stable", "--name", "wrapped", "--fork", "1"));
    servers.put(
        "shell",
        Map.of(
            "command",
            "sh",
            "args",
            List.of(
                "-c",
                "node \"$0\" stable --name shell; exit $?",
                ItProcesses.fixture().toString())));
    servers.put(
        "pooled", node("stable", "--name", "pooled", "--declare", "1", "--no-logging", "1"));
    servers.put("broken", node("exit-early"));
    servers.put("remote", Map.of("type", "http", "url", "https://remote.example.invalid/mcp"));
    return Files.writeString(
        dir.resolve("cfg.json"), Json.write(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);
  }

  private static long number(Object value) {
    return ((Number) value).longValue();
  }

  @Test
  void measureThenAssessThenCost() throws Exception {
    config();
    String[] common = {"--config", "cfg.json", "--records-dir", "records"};
    List<String> measure = new ArrayList<>(List.of("measure", "--all", "--json"));
    measure.addAll(List.of(common));
    Kcshare.Result measured = Kcshare.run(dir, Map.of(), "", measure.toArray(String[]::new));
    assertThat(measured.stdout()).as(measured.stderr()).contains("\"broken\"");

    List<String> assess = new ArrayList<>(List.of("assess", "--all", "--json"));
    assess.addAll(List.of(common));
    Map<String, Map<String, Object>> verdicts =
        Json.byName(Json.parse(kcshare(assess.toArray(String[]::new)).stdout()));
    Map<String, Map<String, Object>> costs = new LinkedHashMap<>();
    for (String name : List.of("big", "wrapped", "shell", "pooled")) {
      Map<String, Object> v = verdicts.get(name);
      List<String> members = new ArrayList<>(v.keySet());
      assertThat(members).as(name).endsWith("measuredAt", "sessionCost");
      Map<String, Object> c = Json.object(v.get("sessionCost"));
      assertThat(c.keySet())
          .containsExactly(
              "rssBytes", "pssBytes", "processes", "readyMillis", "cpuMillis", "measuredAt");
      assertThat(c.get("measuredAt")).isEqualTo(v.get("measuredAt"));
      assertThat(number(c.get("pssBytes")))
          .as(name)
          .isPositive()
          .isLessThanOrEqualTo(number(c.get("rssBytes")));
      assertThat(number(c.get("readyMillis"))).as(name).isPositive();
      costs.put(name, c);
    }
    assertThat(number(costs.get("big").get("processes"))).isEqualTo(1);
    assertThat(number(costs.get("pooled").get("processes"))).isEqualTo(1);
    assertThat(number(costs.get("wrapped").get("processes")))
        .as("node wrapper + server")
        .isEqualTo(2);
    assertThat(number(costs.get("shell").get("processes"))).as("sh + node").isEqualTo(2);
    assertThat(number(costs.get("big").get("rssBytes"))).isGreaterThan(48 * MIB);
    assertThat(number(costs.get("big").get("pssBytes"))).isGreaterThan(48 * MIB);
    assertThat(verdicts.get("broken")).doesNotContainKey("sessionCost");
    assertThat(verdicts.get("remote")).doesNotContainKey("sessionCost");

    List<String> cost = new ArrayList<>(List.of("cost", "--json", "--sessions", "4"));
    cost.addAll(List.of(common));
    Map<String, Object> report =
        Json.object(Json.parse(kcshare(cost.toArray(String[]::new)).stdout()));
    assertThat(report.keySet()).containsExactly("servers", "totals", "sessions");
    assertThat(number(report.get("sessions"))).isEqualTo(4);
    List<Object> servers = Json.array(report.get("servers"));
    assertThat(Json.object(servers.get(0)).get("name")).as("the largest first").isEqualTo("big");
    Map<String, Map<String, Object>> byName = Json.byName(report.get("servers"));
    assertThat(new ArrayList<>(byName.keySet()).subList(4, 6)).containsExactly("broken", "remote");
    long perSession = 0;
    long processes = 0;
    long previous = Long.MAX_VALUE;
    for (String name : List.of("big", "wrapped", "shell", "pooled")) {
      Map<String, Object> s = byName.get(name);
      assertThat(s.get("sessionCost")).isEqualTo(costs.get(name));
      assertThat(s.get("memoryBasis")).isEqualTo("pss");
      assertThat(number(s.get("memoryBytes"))).isEqualTo(number(costs.get(name).get("pssBytes")));
      perSession += number(s.get("memoryBytes"));
      processes += number(costs.get(name).get("processes"));
    }
    for (Object o : servers.subList(0, 4)) {
      long m = number(Json.object(o).get("memoryBytes"));
      assertThat(m).isLessThanOrEqualTo(previous);
      previous = m;
    }
    assertThat(byName.get("pooled").get("recommendShare")).isEqualTo(true);
    assertThat(byName.get("pooled").get("wouldChange")).isNull();
    assertThat(Json.object(byName.get("big").get("wouldChange")).get("code"))
        .isEqualTo("no_caller_identity_declaration");
    assertThat(byName.get("broken").get("sessionCost")).isNull();
    assertThat(byName.get("remote").get("local")).isEqualTo(false);

    Map<String, Object> t = Json.object(report.get("totals"));
    assertThat(number(t.get("measured"))).isEqualTo(4);
    assertThat(number(t.get("missing"))).isEqualTo(1);
    assertThat(number(t.get("notLocal"))).isEqualTo(1);
    assertThat(t.get("perSession"))
        .isEqualTo(Map.of("memoryBytes", perSession, "processes", processes));
    assertThat(t.get("today"))
        .isEqualTo(Map.of("memoryBytes", 4 * perSession, "processes", 4 * processes));
    long pooled = number(costs.get("pooled").get("pssBytes"));
    assertThat(number(t.get("shared"))).isEqualTo(1);
    assertThat(t.get("givenBack")).isEqualTo(Map.of("memoryBytes", 3 * pooled, "processes", 3L));
    assertThat(t.get("withSharing"))
        .isEqualTo(
            Map.of("memoryBytes", 4 * perSession - 3 * pooled, "processes", 4 * processes - 3));

    List<String> text = new ArrayList<>(List.of("cost"));
    text.addAll(List.of(common));
    assertThat(kcshare(text.toArray(String[]::new)).stdout())
        .contains("At 5 session(s), each stdio server running once per session:")
        .contains("  big ")
        .contains("Largest servers that cannot be shared, and what would change that:");
  }
}
