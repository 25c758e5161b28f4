package dev.kcshare.host.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.core.cost.CostReport;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

final class MetricsTest {
  @TempDir Path dir;

  private static final Pattern HELP = Pattern.compile("# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)");
  private static final Pattern TYPE =
      Pattern.compile(
          "# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)");
  private static final Pattern SAMPLE =
      Pattern.compile(
          "([a-zA-Z_:][a-zA-Z0-9_:]*)"
              + "(?:\\{([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"\\})?"
              + " (-?[0-9]+(?:\\.[0-9]+)?)");

  /** A sample keyed by {@code name} or {@code name{label="value"}}. */
  private static Map<String, Long> parse(String text) {
    Map<String, Long> out = new LinkedHashMap<>();
    parseRaw(text).forEach((k, v) -> out.put(k, Long.parseLong(v)));
    return out;
  }

  /** As {@link #parse}, each value as written. */
  private static Map<String, String> parseRaw(String text) {
    assertThat(text).endsWith("\n").doesNotContain("\r");
    Map<String, String> samples = new LinkedHashMap<>();
    Map<String, String> types = new HashMap<>();
    Set<String> helped = new HashSet<>();
    Set<String> closed = new HashSet<>();
    String current = null;
    for (String line : text.split("\n", -1)) {
      if (line.isEmpty()) {
        continue; // only the split after the final newline
      }
      Matcher m;
      if ((m = HELP.matcher(line)).matches()) {
        assertThat(helped.add(m.group(1))).as("one HELP per family: " + line).isTrue();
        continue;
      }
      if ((m = TYPE.matcher(line)).matches()) {
        assertThat(types.put(m.group(1), m.group(2))).as("one TYPE per family").isNull();
        if (current != null) {
          closed.add(current);
        }
        current = m.group(1);
        continue;
      }
      assertThat(line).as("a comment other than HELP/TYPE").doesNotStartWith("#");
      m = SAMPLE.matcher(line);
      assertThat(m.matches()).as("sample line: " + line).isTrue();
      String name = m.group(1);
      assertThat(types).as("TYPE before samples: " + line).containsKey(name);
      assertThat(name).as("family samples are contiguous").isEqualTo(current);
      assertThat(closed).doesNotContain(name);
      String key = m.group(2) == null ? name : name + "{" + m.group(2) + "=" + m.group(3) + "}";
      assertThat(samples.put(key, m.group(4))).as("duplicate " + key).isNull();
    }
    assertThat(helped).isEqualTo(types.keySet());
    return samples;
  }

  @Test
  void everyTierAndCodeIsPresentEvenWithNoVerdicts() {
    Map<String, Long> s = parse(Metrics.openMetrics(List.of()));
    for (Strength t : Strength.values()) {
      assertThat(s).containsEntry("kcshare_servers_by_strength{strength=" + t.json() + "}", 0L);
    }
    for (ReasonCode c : ReasonCode.values()) {
      assertThat(s).containsEntry("kcshare_servers_by_reason{code=" + c.code() + "}", 0L);
    }
    assertThat(s)
        .containsEntry("kcshare_servers", 0L)
        .containsEntry("kcshare_servers_recommend_stub", 0L)
        .containsEntry("kcshare_servers_recommend_share", 0L)
        .containsEntry("kcshare_servers_could_not_run", 0L)
        .containsEntry("kcshare_preflight_consecutive_failures_max", 0L)
        .containsEntry("kcshare_gateway_sharing_enabled", 0L)
        .containsEntry("kcshare_servers_shared", 0L)
        .containsEntry("kcshare_newest_refutation_timestamp_seconds", 0L)
        .hasSize(
            4 * Strength.values().length
                + ReasonCode.values().length
                + HazardCodes.ALL.size()
                + 6 * CostReport.REFERENCE_SESSIONS.size()
                + 8);
    for (String h : HazardCodes.ALL) {
      assertThat(s).containsEntry("kcshare_servers_by_hazard{code=" + h + "}", 0L);
    }
    for (int n : CostReport.REFERENCE_SESSIONS) {
      for (String f :
          List.of(
              "fanout_memory_bytes",
              "fanout_processes",
              "sharing_given_back_memory_bytes",
              "sharing_given_back_processes",
              "fanout_with_sharing_memory_bytes",
              "fanout_with_sharing_processes")) {
        assertThat(s).containsEntry("kcshare_" + f + "{sessions=" + n + "}", 0L);
      }
    }
    for (Strength t : Strength.values()) {
      assertThat(s)
          .containsEntry("kcshare_session_memory_bytes{strength=" + t.json() + "}", 0L)
          .containsEntry("kcshare_session_processes{strength=" + t.json() + "}", 0L)
          .containsEntry("kcshare_servers_without_session_cost{strength=" + t.json() + "}", 0L);
    }
  }

  @Test
  void sessionCostIsSummedPerStrengthAndTheUnmeasuredAreCounted() {
    List<Verdict> verdicts =
        List.of(
            new Verdict(
                "big-secret-name",
                Strength.MEASURED,
                true,
                false,
                List.of(Reason.of(ReasonCode.PREFLIGHT_PASSED))),
            new Verdict(
                "second",
                Strength.MEASURED,
                true,
                false,
                List.of(Reason.of(ReasonCode.PREFLIGHT_PASSED))),
            new Verdict(
                "never",
                Strength.MEASURED,
                true,
                false,
                List.of(Reason.of(ReasonCode.PREFLIGHT_PASSED))),
            new Verdict(
                "remote",
                Strength.DISQUALIFIED,
                false,
                false,
                List.of(Reason.of(ReasonCode.NOT_STDIO))),
            new Verdict(
                "pooled",
                Strength.DECLARED,
                true,
                true,
                List.of(Reason.of(ReasonCode.DECLARES_CALLER_IDENTITY))));
    Map<String, SessionCost> costs =
        Map.of(
            "big-secret-name", SessionCost.of(100_000_000, 60_000_000, 2, 500, 300),
            "second", SessionCost.of(40_000_000, -1, 1, 200, 100),
            "pooled", SessionCost.of(10_000_000, 9_000_000, 1, 100, 50));
    String text = Metrics.openMetrics(verdicts, costs);
    assertThat(text).doesNotContain("big-secret-name").doesNotContain("pooled");
    Map<String, Long> s = parse(text);
    assertThat(s)
        .containsEntry("kcshare_session_memory_bytes{strength=measured}", 100_000_000L)
        .containsEntry("kcshare_session_processes{strength=measured}", 3L)
        .containsEntry("kcshare_servers_without_session_cost{strength=measured}", 1L)
        .containsEntry("kcshare_session_memory_bytes{strength=declared}", 9_000_000L)
        .containsEntry("kcshare_session_processes{strength=declared}", 1L)
        .containsEntry("kcshare_servers_without_session_cost{strength=declared}", 0L)
        .containsEntry("kcshare_session_memory_bytes{strength=disqualified}", 0L)
        .containsEntry("kcshare_servers_without_session_cost{strength=disqualified}", 0L);
  }

  @Test
  void namesEnvNamesAndDetailsNeverReachTheFile() {
    String name = "secret-server\n# TYPE evil gauge\nevil 1";
    List<Verdict> verdicts =
        List.of(
            new Verdict(
                name,
                Strength.UNKNOWN,
                false,
                false,
                List.of(
                    Reason.of(ReasonCode.NOT_PROBED),
                    Reason.of(ReasonCode.ROTATING_SECRET_ENV, "OAUTH_SECRET_ENV_NAME"))),
            new Verdict(
                "inventory-of-tools",
                Strength.REFUTED,
                false,
                false,
                List.of(
                    Reason.of(ReasonCode.OBSERVED_HAZARD, "unroutable_server_request"),
                    Reason.of(ReasonCode.OBSERVED_HAZARD, "unattributable_notification"))),
            new Verdict(
                "files-mcp",
                Strength.MEASURED,
                true,
                false,
                List.of(
                    Reason.of(ReasonCode.PREFLIGHT_PASSED),
                    Reason.of(ReasonCode.NO_TOOL_ANNOTATIONS, "2024-11-05\"}"))));
    String text = Metrics.openMetrics(verdicts);
    for (String secret :
        List.of(
            "secret-server",
            "evil",
            "OAUTH_SECRET_ENV_NAME",
            "inventory-of-tools",
            "files-mcp",
            "2024-11-05")) {
      assertThat(text).doesNotContain(secret);
    }
    // A hazard code is a closed-vocabulary code, like a reason code: it appears only as the code
    // label of the hazard family, never elsewhere.
    for (String line : text.split("\n")) {
      if (line.contains("unroutable_server_request")
          || line.contains("unattributable_notification")) {
        assertThat(line)
            .matches("kcshare_servers_by_hazard\\{code=\"[a-z_]+\"\\} 1|# HELP .*hazard.*");
      }
    }
    Map<String, Long> s = parse(text);
    assertThat(s)
        .containsEntry("kcshare_servers", 3L)
        .containsEntry("kcshare_servers_by_strength{strength=refuted}", 1L)
        .containsEntry("kcshare_servers_by_reason{code=observed_hazard}", 1L)
        .containsEntry("kcshare_servers_by_reason{code=rotating_secret_env}", 1L)
        .containsEntry("kcshare_servers_recommend_stub", 1L)
        .containsEntry("kcshare_servers_by_hazard{code=unroutable_server_request}", 1L)
        .containsEntry("kcshare_servers_by_hazard{code=unattributable_notification}", 1L);
  }

  @Test
  void aHazardDetailOutsideTheVocabularyIsNeverCountedOrWritten() {
    String text =
        Metrics.openMetrics(
            List.of(
                new Verdict(
                    "x",
                    Strength.REFUTED,
                    false,
                    false,
                    List.of(
                        Reason.of(ReasonCode.OBSERVED_HAZARD, "made_up_code"),
                        Reason.of(ReasonCode.OBSERVED_HAZARD, "unroutable_server_request"),
                        Reason.of(
                            ReasonCode.NO_TOOL_ANNOTATIONS, "unattributable_notification")))));
    assertThat(text).doesNotContain("made_up_code");
    assertThat(parse(text))
        .containsEntry("kcshare_servers_by_hazard{code=unroutable_server_request}", 1L)
        .as("only an observed_hazard reason names a hazard")
        .containsEntry("kcshare_servers_by_hazard{code=unattributable_notification}", 0L);
  }

  @Test
  void whatSharingWouldGiveBackIsPricedAtEachReferenceSessionCount() {
    List<Verdict> verdicts =
        List.of(
            new Verdict(
                "pooled",
                Strength.DECLARED,
                true,
                true,
                List.of(Reason.of(ReasonCode.DECLARES_CALLER_IDENTITY))),
            new Verdict(
                "solo",
                Strength.MEASURED,
                true,
                false,
                List.of(Reason.of(ReasonCode.PREFLIGHT_PASSED))));
    Map<String, SessionCost> costs =
        Map.of(
            "pooled", SessionCost.of(30_000_000, 20_000_000, 2, 100, 50),
            "solo", SessionCost.of(50_000_000, 45_000_000, 1, 100, 50));
    Map<String, Long> s = parse(Metrics.openMetrics(verdicts, costs));
    assertThat(CostReport.REFERENCE_SESSIONS).containsExactly(1, 5, 16);
    assertThat(s)
        .containsEntry("kcshare_fanout_memory_bytes{sessions=1}", 65_000_000L)
        .containsEntry("kcshare_fanout_memory_bytes{sessions=16}", 16 * 65_000_000L)
        .containsEntry("kcshare_fanout_processes{sessions=5}", 15L)
        .containsEntry("kcshare_sharing_given_back_memory_bytes{sessions=1}", 0L)
        .containsEntry("kcshare_sharing_given_back_memory_bytes{sessions=5}", 4 * 20_000_000L)
        .containsEntry("kcshare_sharing_given_back_memory_bytes{sessions=16}", 15 * 20_000_000L)
        .containsEntry("kcshare_sharing_given_back_processes{sessions=16}", 30L)
        .containsEntry(
            "kcshare_fanout_with_sharing_memory_bytes{sessions=16}",
            16 * 65_000_000L - 15 * 20_000_000L)
        .containsEntry("kcshare_fanout_with_sharing_processes{sessions=16}", 48L - 30L);
  }

  @Test
  void failingPreflightsAreCountedWithTheLongestRun() {
    Map<String, Long> s =
        parse(
            Metrics.openMetrics(
                List.of(), Map.of(), new Metrics.Local(List.of(1, 4, 2), false, Set.of())));
    assertThat(s)
        .containsEntry("kcshare_servers_could_not_run", 3L)
        .containsEntry("kcshare_preflight_consecutive_failures_max", 4L);
  }

  @Test
  void sharedServersAreTheStubbedOnesOnlyWhileSharingIsOn() {
    List<Verdict> verdicts = new ArrayList<>();
    for (String n : List.of("a", "b", "c")) {
      verdicts.add(
          new Verdict(
              n, Strength.DECLARED, true, true, List.of(Reason.of(ReasonCode.PREFLIGHT_PASSED))));
    }
    Set<String> stubbed = Set.of("a", "c", "not-assessed");
    Map<String, Long> on =
        parse(Metrics.openMetrics(verdicts, Map.of(), new Metrics.Local(List.of(), true, stubbed)));
    assertThat(on)
        .containsEntry("kcshare_gateway_sharing_enabled", 1L)
        .containsEntry("kcshare_servers_shared", 2L);
    Map<String, Long> off =
        parse(
            Metrics.openMetrics(verdicts, Map.of(), new Metrics.Local(List.of(), false, stubbed)));
    assertThat(off)
        .containsEntry("kcshare_gateway_sharing_enabled", 0L)
        .containsEntry("kcshare_servers_shared", 0L);
  }

  @Test
  void aPassFileHoldsOnlyThePassFamiliesWithDecimalSeconds() {
    String text = Metrics.passMetrics(new Metrics.Pass(1767261600.25, 83.5, 14, 11, 2, 3));
    Map<String, String> s = parseRaw(text);
    assertThat(s)
        .containsExactly(
            Map.entry("kcshare_last_pass_timestamp_seconds", "1767261600.250"),
            Map.entry("kcshare_last_pass_duration_seconds", "83.500"),
            Map.entry("kcshare_last_pass_servers_due", "14"),
            Map.entry("kcshare_last_pass_servers_measured", "11"),
            Map.entry("kcshare_last_pass_servers_could_not_run", "2"),
            Map.entry("kcshare_last_pass_servers_skipped_for_backoff", "3"));
    Set<String> shared = new HashSet<>(parseRaw(Metrics.openMetrics(List.of())).keySet());
    shared.retainAll(s.keySet());
    assertThat(shared).as("no family in both files").isEmpty();
    assertThat(parseRaw(Metrics.passMetrics(new Metrics.Pass(12, -0.5, 0, 0, 0, 0))))
        .containsEntry("kcshare_last_pass_duration_seconds", "0.000")
        .containsEntry("kcshare_last_pass_timestamp_seconds", "12.000");
  }

  static Stream<Long> seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 20).mapToObj(i -> base + i);
  }

  /** Counts agree with a straightforward tally of random verdicts. */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void countsMatchATallyOfRandomVerdicts(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Strength[] tiers = Strength.values();
    ReasonCode[] codes = ReasonCode.values();
    List<Verdict> verdicts = new ArrayList<>();
    int n = r.nextInt(30);
    for (int i = 0; i < n; i++) {
      List<Reason> reasons = new ArrayList<>();
      int k = 1 + r.nextInt(4);
      for (int j = 0; j < k; j++) {
        reasons.add(Reason.of(codes[r.nextInt(codes.length)], "d" + r.nextInt(5)));
      }
      verdicts.add(
          new Verdict(
              "s" + i, tiers[r.nextInt(tiers.length)], r.nextBoolean(), r.nextBoolean(), reasons));
    }
    Map<String, Long> s = parse(Metrics.openMetrics(verdicts));
    assertThat(s.get("kcshare_servers")).as("seed=%d", seed).isEqualTo((long) n);
    for (Strength t : tiers) {
      long expected = verdicts.stream().filter(v -> v.strength() == t).count();
      assertThat(s.get("kcshare_servers_by_strength{strength=" + t.json() + "}"))
          .as("seed=%d %s", seed, t)
          .isEqualTo(expected);
    }
    for (ReasonCode c : codes) {
      long expected = verdicts.stream().filter(v -> v.codes().contains(c)).count();
      assertThat(s.get("kcshare_servers_by_reason{code=" + c.code() + "}"))
          .as("seed=%d %s", seed, c)
          .isEqualTo(expected);
    }
    assertThat(s.get("kcshare_servers_recommend_stub"))
        .isEqualTo(verdicts.stream().filter(Verdict::recommendStub).count());
    assertThat(s.get("kcshare_servers_recommend_share"))
        .isEqualTo(verdicts.stream().filter(Verdict::recommendShare).count());
  }

  @Test
  void writeIsAtomicReadableByTheCollectorAndKeepsAnExistingMode() throws Exception {
    Path prom = dir.resolve("kcshare.prom");
    Metrics.write(prom, "a 1\n");
    assertThat(prom).hasContent("a 1");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(prom)))
        .isEqualTo("rw-r--r--");
    Files.setPosixFilePermissions(prom, PosixFilePermissions.fromString("rw-r-----"));
    Metrics.write(prom, "a 2\n");
    assertThat(prom).hasContent("a 2");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(prom)))
        .isEqualTo("rw-r-----");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("kcshare.prom");
    }
    assertThatThrownBy(() -> Metrics.write(dir.resolve("missing/kcshare.prom"), "a 1\n"))
        .isInstanceOf(NoSuchFileException.class);
    assertThat(dir.resolve("missing")).doesNotExist();
  }
}
