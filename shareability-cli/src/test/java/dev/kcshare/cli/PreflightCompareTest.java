package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.json.JsonReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class PreflightCompareTest {
  @TempDir Path dir;

  private static final String INIT =
      "{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{\"tools\":{\"listChanged\":true}},"
          + "\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}";

  private static String capture(String tools) {
    return "{\"initialize\":" + INIT + ",\"toolsList\":{\"tools\":" + tools + "}}";
  }

  private static Object json(String text) throws Exception {
    return JsonReader.withDepthLimit(1000).parse(text);
  }

  private void write(String name, String content) throws Exception {
    Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  @Test
  void agreeingCapturesRanAndAreNotSensitive() throws Exception {
    write("a.json", capture("[{\"name\":\"x\"},{\"name\":\"y\"}]"));
    write("b.json", capture("[{\"name\":\"y\"},{\"name\":\"x\"}]"));
    CliRun r = CliRun.run(dir, "preflight", "compare", "a.json", "b.json");
    assertThat(r.exitCode()).isZero();
    assertThat(json(r.stdout()))
        .isEqualTo(json("{\"ran\":true,\"callerSensitive\":false,\"reasons\":[],\"detail\":\"\"}"));
  }

  @Test
  void differingToolSetIsSensitive() throws Exception {
    write("a.json", capture("[{\"name\":\"x\"}]"));
    write("b.json", capture("[{\"name\":\"x\"},{\"name\":\"admin\"}]"));
    CliRun r = CliRun.run(dir, "preflight", "compare", "a.json", "b.json");
    assertThat(json(r.stdout()))
        .isEqualTo(
            json(
                "{\"ran\":true,\"callerSensitive\":true,"
                    + "\"reasons\":[\"handshake_not_reproducible\"],\"detail\":\"tools_shape_differs\"}"));
  }

  @Test
  void malformedNamesCouldNotRun() throws Exception {
    write("a.json", capture("[{\"name\":123}]"));
    write("b.json", capture("[{\"name\":123}]"));
    CliRun r = CliRun.run(dir, "preflight", "compare", "a.json", "b.json");
    assertThat(json(r.stdout()))
        .isEqualTo(
            json(
                "{\"ran\":false,\"callerSensitive\":false,"
                    + "\"reasons\":[\"preflight_unavailable\"],\"detail\":\"malformed_tool_names\"}"));
  }

  @Test
  void batchPrintsAnArrayInOrder() throws Exception {
    String same = capture("[{\"name\":\"x\"}]");
    String other = capture("[]");
    write(
        "batch.json",
        "[{\"a\":" + same + ",\"b\":" + same + "},{\"a\":" + same + ",\"b\":" + other + "}]");
    CliRun r = CliRun.run(dir, "preflight", "compare", "--batch", "batch.json");
    assertThat(r.exitCode()).isZero();
    List<?> out = (List<?>) json(r.stdout());
    assertThat(out).hasSize(2);
    assertThat(((Map<?, ?>) out.get(0)).get("callerSensitive")).isEqualTo(false);
    assertThat(((Map<?, ?>) out.get(1)).get("callerSensitive")).isEqualTo(true);
  }

  @Test
  void badCaptureNamesFileAndPointer() throws Exception {
    write(
        "batch.json",
        "[{\"a\":" + capture("[]") + ",\"b\":{\"initialize\":null,\"toolsList\":{\"tools\":{}}}}]");
    CliRun r = CliRun.run(dir, "preflight", "compare", "--batch", "batch.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .contains("batch.json")
        .contains("/0/b/toolsList/tools")
        .contains("array");
  }

  @Test
  void batchPairMissingASideIsBadInput() throws Exception {
    write("batch.json", "[{\"a\":" + capture("[]") + "}]");
    CliRun r = CliRun.run(dir, "preflight", "compare", "--batch", "batch.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stderr()).contains("/0/b");
  }

  @Test
  void oneCaptureIsAUsageError() throws Exception {
    write("a.json", capture("[]"));
    CliRun r = CliRun.run(dir, "preflight", "compare", "a.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
  }

  @Test
  void shippedExampleCapturesDiverge() throws Exception {
    Path examples = Path.of(System.getProperty("kcshare.repo", "..")).resolve("examples/captures");
    CliRun r =
        CliRun.run(
            dir,
            "preflight",
            "compare",
            examples.resolve("a.json").toAbsolutePath().toString(),
            examples.resolve("b.json").toAbsolutePath().toString());
    assertThat(r.exitCode()).isZero();
    assertThat(((Map<?, ?>) json(r.stdout())).get("detail")).isEqualTo("tools_shape_differs");
  }
}
