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

final class AssessCommandTest {
  @TempDir Path dir;

  private static Object json(String text) throws Exception {
    return JsonReader.withDepthLimit(1000).parse(text);
  }

  private Path write(String name, String content) throws Exception {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  @Test
  void singleObjectGivesSingleVerdict() throws Exception {
    write(
        "e.json",
        "{\"name\":\"fs\",\"probeOk\":true,\"capabilities\":{\"tools\":{}},"
            + "\"toolAnnotations\":[{\"readOnlyHint\":true}],\"hasTools\":true,\"preflightRan\":true}");
    CliRun r = CliRun.run(dir, "assess", "--evidence", "e.json");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(json(r.stdout()))
        .isEqualTo(
            json(
                "{\"name\":\"fs\",\"strength\":\"measured\",\"recommendStub\":true,"
                    + "\"recommendShare\":false,\"reasons\":[{\"code\":\"preflight_passed\","
                    + "\"detail\":\"\"},{\"code\":\"all_tools_read_only\",\"detail\":\"\"}]}"));
    // Members appear in the documented order.
    assertThat(r.stdout())
        .containsSubsequence(
            "\"name\"", "\"strength\"", "\"recommendStub\"", "\"recommendShare\"", "\"reasons\"");
  }

  @Test
  void arrayGivesVerdictsInInputOrder() throws Exception {
    write("e.json", "[{\"name\":\"b\",\"stdio\":false},{\"name\":\"a\"},{}]");
    CliRun r = CliRun.run(dir, "assess", "--evidence", "e.json");
    assertThat(r.exitCode()).isZero();
    List<?> verdicts = (List<?>) json(r.stdout());
    assertThat(verdicts).hasSize(3);
    assertThat(verdicts.get(0))
        .extracting(v -> ((Map<?, ?>) v).get("strength"))
        .isEqualTo("disqualified");
    assertThat(verdicts.get(1)).extracting(v -> ((Map<?, ?>) v).get("name")).isEqualTo("a");
    assertThat(verdicts.get(2))
        .isEqualTo(
            json(
                "{\"name\":\"\",\"strength\":\"unknown\",\"recommendStub\":false,"
                    + "\"recommendShare\":false,\"reasons\":[{\"code\":\"not_probed\",\"detail\":\"\"}]}"));
  }

  @Test
  void readsStandardInput() throws Exception {
    CliRun r =
        CliRun.run(
            dir,
            "{\"name\":\"x\",\"observedHazards\":[\"unroutable_server_request\"]}",
            Map.of(),
            "assess",
            "--evidence",
            "-");
    assertThat(r.exitCode()).isZero();
    assertThat(((Map<?, ?>) json(r.stdout())).get("strength")).isEqualTo("refuted");
  }

  @Test
  void wrongTypeNamesThePointerAndExitsTwo() throws Exception {
    write("e.json", "[{\"name\":\"ok\"},{\"name\":\"bad\",\"stdio\":\"yes\"}]");
    CliRun r = CliRun.run(dir, "assess", "--evidence", "e.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("e.json").contains("/1/stdio").contains("boolean");
  }

  @Test
  void notJsonExitsTwoWithNothingOnStdout() throws Exception {
    write("e.json", "{\"name\": ");
    CliRun r = CliRun.run(dir, "assess", "--evidence", "e.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("e.json").contains("not valid JSON");
  }

  @Test
  void notJsonIsWordedByKcshareWithLineAndColumn() throws Exception {
    write("e.json", "{\"servers\": [\n{\"name\": \"a\nb\"}]}");
    CliRun r = CliRun.run(dir, "assess", "--evidence", "e.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stderr())
        .isEqualTo(
            "kcshare: e.json: not valid JSON: unescaped control character in a string (line 2,"
                + " column 12)\n")
        .doesNotContain("CTRL-CHAR");
  }

  @Test
  void missingFileExitsTwo() {
    CliRun r = CliRun.run(dir, "assess", "--evidence", "nope.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("nope.json").contains("no such file");
  }

  @Test
  void nonObjectEvidenceExitsTwo() throws Exception {
    write("e.json", "[1]");
    CliRun r = CliRun.run(dir, "assess", "--evidence", "e.json");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stderr()).contains("/0").contains("object");
  }

  @Test
  void missingEvidenceOptionIsAUsageError() {
    CliRun r = CliRun.run(dir, "assess");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
  }
}
