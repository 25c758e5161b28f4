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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packaged launcher against real, pinned npm MCP servers (installed by {@code
 * src-it/servers/install.sh}): one {@code measure --all} pass, then {@code assess} over its records
 * and a second, independent {@code preflight} per server. Skipped without the install, failed
 * without it under {@code CI=true}.
 */
final class RealServersIT {
  /** Per-response timeout: generous, since the test machine may be busy (answers take < 2 s). */
  private static final String TIMEOUT = "60";

  @TempDir static Path work;

  private static Path config;
  private static Path records;
  private static Map<String, Map<String, Object>> measured;
  private static List<String> leftovers;

  @BeforeAll
  static void measureAll() throws Exception {
    RealServers.require();
    Path allowed = Files.createDirectories(work.resolve("allowed"));
    Files.writeString(allowed.resolve("note.txt"), "hello", StandardCharsets.UTF_8);
    Map<String, Object> servers = new LinkedHashMap<>();
    for (String name : RealServers.PACKAGES.keySet()) {
      Map<String, Object> def = new LinkedHashMap<>();
      def.put("command", RealServers.bin(name).toString());
      if (name.equals("filesystem")) {
        def.put("args", List.of(allowed.toString()));
      }
      if (name.equals("memory")) {
        def.put("env", Map.of("MEMORY_FILE_PATH", work.resolve("memory.jsonl").toString()));
      }
      servers.put(name, def);
    }
    config = work.resolve("mcp.json");
    Files.writeString(config, Json.write(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);
    records = work.resolve("records");

    Kcshare.Result r = kcshare("measure", "--all", "--json", "--timeout", TIMEOUT);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    measured = Json.byName(Json.parse(r.stdout()));
    leftovers = processesMentioning(allowed.toString());
  }

  private static Kcshare.Result kcshare(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", config.toString()));
    if (!args[0].equals("preflight")) { // preflight stores nothing: it has no records directory
      all.addAll(List.of("--records-dir", records.toString()));
    }
    return Kcshare.run(work, Map.of(), "", all.toArray(String[]::new));
  }

  static Stream<String> servers() {
    return RealServers.PACKAGES.keySet().stream();
  }

  @Test
  void everyServerRanAndAnsweredBothCallersAlike() {
    assertThat(measured).containsOnlyKeys(RealServers.PACKAGES.keySet());
    measured.forEach(
        (name, r) -> {
          assertThat(r).as(name).containsEntry("ran", true).containsEntry("callerSensitive", false);
          assertThat(r).as(name).containsEntry("stored", true).containsEntry("detail", "");
          assertThat(r).as(name).containsEntry("reasons", List.of()).containsEntry("era", "legacy");
          assertThat((String) r.get("reportedVersion")).as(name).isNotEmpty();
        });
  }

  @Test
  void noServerProcessOutlivesThePass() {
    // filesystem is the server whose command line names the temp directory.
    assertThat(leftovers).isEmpty();
  }

  @Test
  void storedRowsRoundTripThroughAssess() throws Exception {
    Kcshare.Result r = kcshare("assess", "--all", "--json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Map<String, Object>> verdicts = Json.byName(Json.parse(r.stdout()));
    assertThat(verdicts).containsOnlyKeys(RealServers.PACKAGES.keySet());
    verdicts.forEach(
        (name, v) -> {
          assertThat(v.get("strength")).as(name + ": %s", v).isIn("measured", "declared");
          assertThat(v).as(name).containsEntry("recommendStub", true);
          assertThat(v.get("measuredAt")).as(name).isNotNull();
          List<Object> codes = new ArrayList<>();
          for (Object reason : Json.array(v.get("reasons"))) {
            codes.add(Json.object(reason).get("code"));
          }
          assertThat(codes).as(name).contains("preflight_passed");
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("servers")
  void storedHandshakeIsWhatASecondPreflightSees(String name) throws Exception {
    Map<String, Object> row =
        Json.object(
            Json.object(
                    Json.object(Json.read(records.resolve("shareability-verdicts.json")))
                        .get("entries"))
                .get(name));
    Map<String, Object> handshake = Json.object(row.get("handshake"));
    assertThat(row).containsEntry("ran", true).containsEntry("callerSensitive", false);
    assertThat(row).containsEntry("era", "legacy");
    assertThat(row.get("reportedVersion")).isEqualTo(measured.get(name).get("reportedVersion"));
    assertThat(Json.object(handshake.get("serverInfo")).get("version"))
        .isEqualTo(row.get("reportedVersion"));

    Path capture = work.resolve("capture-" + name);
    Kcshare.Result r =
        kcshare("preflight", name, "--json", "--timeout", TIMEOUT, "--capture", capture.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Object> again = Json.object(Json.parse(r.stdout()));
    assertThat(again).containsEntry("ran", true).containsEntry("callerSensitive", false);
    assertThat(again).containsEntry("era", row.get("era"));
    assertThat(again).containsEntry("reportedVersion", row.get("reportedVersion"));

    // Identity A's raw answers, normalised per docs/design.md#normalising-answers, equal the stored
    // handshake.
    Map<String, Object> a = Json.object(Json.read(capture.resolve(name).resolve("a.json")));
    Map<String, Object> init = Json.object(a.get("initialize"));
    assertThat(handshake.get("protocolVersion")).isEqualTo(init.get("protocolVersion"));
    assertThat(handshake.get("serverInfo")).isEqualTo(init.get("serverInfo"));
    assertThat(handshake.get("capabilities")).isEqualTo(init.get("capabilities"));
    List<Object> annotations = new ArrayList<>();
    List<Object> tools = Json.array(Json.object(a.get("toolsList")).get("tools"));
    for (Object tool : tools) {
      if (tool instanceof Map<?, ?> t && t.get("annotations") instanceof Map<?, ?> ann) {
        annotations.add(ann);
      }
    }
    assertThat(handshake.get("toolAnnotations")).isEqualTo(annotations);
    assertThat(handshake.get("hasTools")).isEqualTo(!tools.isEmpty());
  }

  private static List<String> processesMentioning(String text) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(c -> c.contains(text)).orElse(false))
        .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
        .toList();
  }
}
