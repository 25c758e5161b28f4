package dev.kcshare.core.bench;

import dev.kcshare.core.verdict.Assessor;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.IdentityKeys;
import dev.kcshare.core.verdict.Verdict;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Throughput of {@link Assessor#assess} on typical evidence. The target is at least 1,000,000 calls
 * per second on one core, so a report over thousands of servers is never bounded by the engine.
 *
 * <p>Run: {@code ./mvnw -B -ntp -Pbench -pl shareability-core verify -DskipTests -Djmh.args="-f 1
 * -wi 2 -i 3 -w 2s -r 2s -t 1 AssessBenchmark"}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AssessBenchmark {
  private final Evidence measured;
  private final Evidence declared;
  private final Evidence refuted;
  private final Set<String> identityKeys;

  /** Builds the evidence once per trial, outside the measured calls. */
  public AssessBenchmark() {
    Map<String, Object> capabilities =
        Map.of(
            "tools", Map.of("listChanged", true),
            "resources", Map.of("subscribe", true),
            "logging", Map.of());
    List<Object> annotations =
        List.of(
            Map.of("readOnlyHint", true, "title", "search"),
            Map.of("readOnlyHint", true),
            Map.of("readOnlyHint", false, "destructiveHint", true));
    measured =
        Evidence.builder()
            .name("github-mcp")
            .probeOk(true)
            .capabilities(capabilities)
            .protocolVersion("2025-06-18")
            .toolAnnotations(annotations)
            .hasTools(true)
            .declaredEnvNames(List.of("GITHUB_API_URL", "GITHUB_TOKEN", "OAUTH_REFRESH_TOKEN"))
            .preflightRan(true)
            .build();
    declared =
        Evidence.builder()
            .name("notes-mcp")
            .probeOk(true)
            .capabilities(
                Map.of(
                    "tools",
                    Map.of(),
                    "experimental",
                    Map.of("kirocrew.caller-identity", Map.of())))
            .protocolVersion("2024-11-05")
            .toolAnnotations(List.of(Map.of("readOnlyHint", true), Map.of("readOnlyHint", true)))
            .hasTools(true)
            .declaredEnvNames(List.of("NOTES_DIR", "OAUTH_TOKEN"))
            .preflightRan(true)
            .build();
    refuted =
        measured.toBuilder()
            .observedHazards(List.of("unattributable_notification", "unroutable_server_request"))
            .build();
    identityKeys = IdentityKeys.resolve(List.of("OAUTH_TOKEN", "AWS_SECRET_ACCESS_KEY"));
  }

  @Benchmark
  public Verdict measured() {
    return Assessor.assess(measured, identityKeys);
  }

  @Benchmark
  public Verdict declared() {
    return Assessor.assess(declared, identityKeys);
  }

  @Benchmark
  public Verdict refuted() {
    return Assessor.assess(refuted, identityKeys);
  }
}
