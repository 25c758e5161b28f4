package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged launcher against servers written with the real TypeScript SDK 2.x ({@code
 * src-it/servers/sdk2/server.mjs} on the pinned {@code @modelcontextprotocol/server}, installed by
 * {@code src-it/servers/install.sh}): era selection, what a modern exchange reads, and the
 * isolation self-test (docs/design.md#which-era-is-measured,
 * docs/verdicts.md#the-isolation-self-test). Skipped without the install, failed without it under
 * {@code CI=true}.
 */
final class ModernSdkIT {
  private static final String TIMEOUT = "60";

  @TempDir static Path work;

  private static Path config;
  private static Path records;

  @BeforeAll
  static void config() throws Exception {
    RealServers.require();
    Path script = RealServers.installDir().resolve("sdk2/server.mjs");
    if (!Files.isRegularFile(script)) {
      String message = script + " is missing; run src-it/servers/install.sh";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail("CI=true: " + message);
      }
      Assumptions.abort(message);
    }
    Map<String, Object> servers = new LinkedHashMap<>();
    for (String mode : List.of("dual", "modern-only", "isolating", "leaking")) {
      Map<String, Object> def = new LinkedHashMap<>();
      def.put("command", RealServers.nodeOnPath().orElseThrow().toString());
      def.put("args", List.of(script.toString(), mode));
      servers.put(mode, def);
    }
    config = work.resolve("mcp.json");
    Files.writeString(config, Json.write(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);
    records = work.resolve("records");
  }

  private static Kcshare.Result kcshare(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", config.toString()));
    if (!args[0].equals("preflight")) {
      all.addAll(List.of("--records-dir", records.toString()));
    }
    Kcshare.Result r = Kcshare.run(work, Map.of(), "", all.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    return r;
  }

  private static Map<String, Object> preflight(String name, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of("preflight", name, "--json", "--timeout", TIMEOUT));
    args.addAll(List.of(more));
    return Json.object(Json.parse(kcshare(args.toArray(String[]::new)).stdout()));
  }

  private static Map<String, Object> row(String name) throws Exception {
    Map<String, Object> cache =
        Json.object(Json.read(records.resolve("shareability-verdicts.json")));
    return Json.object(Json.object(cache.get("entries")).get(name));
  }

  @Test
  void aDualEraSdkServerIsMeasuredInTheEraTheChoiceSelects() throws Exception {
    Map<String, Object> auto = preflight("dual");
    assertThat(auto).containsEntry("ran", true).containsEntry("era", "legacy");
    Map<String, Object> modern = preflight("dual", "--era", "modern");
    assertThat(modern)
        .containsEntry("ran", true)
        .containsEntry("callerSensitive", false)
        .containsEntry("era", "modern")
        .doesNotContainKey("divergence");
    Map<String, Object> legacy = preflight("modern-only", "--era", "legacy");
    assertThat(legacy).containsEntry("ran", false);
  }

  @Test
  void aModernOnlySdkServerIsMeasuredAndItsCachingHintsAreKept() throws Exception {
    kcshare("measure", "modern-only", "--timeout", TIMEOUT);
    Map<String, Object> row = row("modern-only");
    assertThat(row).containsEntry("era", "modern");
    Map<String, Object> cache = Json.object(Json.object(row.get("handshake")).get("cache"));
    // The SDK's default: private, and a ttlMs of 0, on discover and on the one listing page.
    assertThat(Json.object(cache.get("discover"))).containsEntry("cacheScope", "private");
    assertThat(Json.array(cache.get("toolsList"))).hasSize(1);
    String assess = kcshare("assess", "modern-only").stdout();
    assertThat(assess)
        .startsWith("modern-only: measured")
        .contains("    modern_only: ")
        .doesNotContain("listing_public")
        .doesNotContain("degrades_when_shared");
  }

  @Test
  void theIsolationSelfTestTellsAnIsolatingSdkServerFromALeakingOne() throws Exception {
    Map<String, Object> isolating = preflight("isolating", "--era", "modern");
    assertThat(isolating).containsEntry("selfTest", "passed");
    assertThat(preflight("leaking")).containsEntry("selfTest", "failed");

    kcshare("measure", "isolating", "leaking", "--timeout", TIMEOUT);
    Map<String, Map<String, Object>> verdicts =
        Json.byName(Json.parse(kcshare("assess", "isolating", "leaking", "--json").stdout()));
    assertThat(verdicts.get("isolating"))
        .containsEntry("strength", "declared")
        .containsEntry("recommendShare", true);
    assertThat(codes(verdicts.get("isolating"))).contains("isolation_self_test_passed");
    assertThat(verdicts.get("leaking"))
        .containsEntry("strength", "declared")
        .containsEntry("recommendShare", false);
    assertThat(codes(verdicts.get("leaking"))).contains("isolation_self_test_failed");
  }

  private static List<Object> codes(Map<String, Object> verdict) {
    List<Object> codes = new ArrayList<>();
    for (Object reason : Json.array(verdict.get("reasons"))) {
      codes.add(Json.object(reason).get("code"));
    }
    return codes;
  }
}
