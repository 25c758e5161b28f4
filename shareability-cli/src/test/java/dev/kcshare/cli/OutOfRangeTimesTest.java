package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A verdict-cache row whose {@code evaluatedAt} is any finite number a Python writer can store
 * reads like any other row: every command over it finishes normally (docs/formats.md, "How kcshare
 * reads"). Before, one row beyond an instant's range made {@code assess --all} and {@code seed}
 * exit 1 with an internal error.
 */
final class OutOfRangeTimesTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(doubles = {1.7976931348623157e308, 1e300, -1e300, 5e-324, -0.0, -86400.0})
  void aRowMeasuredAtAnyStoredTimeIsReadByEveryCommand(double evaluatedAt) {
    OperatorFixture f = OperatorFixture.create(dir);
    f.cache(Map.of("x", f.measured("x", evaluatedAt)), List.of());

    for (List<String> args :
        List.of(
            List.of("assess", "--all"),
            List.of("assess", "--all", "--json"),
            List.of("assess", "x"),
            List.of("seed", "--plan"),
            List.of("seed", "--plan", "--json"),
            List.of("cost"))) {
      CliRun r = f.run(args.toArray(String[]::new));
      assertThat(r.exitCode()).as("%s: %s", args, r.stderr()).isZero();
      assertThat(r.stderr()).as("%s", args).doesNotContain("internal error", "Exception");
    }
    CliRun assess = f.run("assess", "x", "--json");
    assertThat(assess.stdout()).contains("\"strength\": \"measured\"");
  }

  @ParameterizedTest
  @ValueSource(doubles = {1.7976931348623157e308, 1e300, -1e300, 5e-324, -0.0, -86400.0})
  void aHazardSeenAtAnyStoredTimeIsReadByEveryCommand(double lastSeen) {
    OperatorFixture f = OperatorFixture.create(dir);
    f.hazards("unroutable_server_request", Map.of("x", lastSeen));
    Path prom = dir.resolve("kcshare.prom");

    for (List<String> args :
        List.of(
            List.of("hazards", "list"),
            List.of("hazards", "list", "--json"),
            List.of("assess", "x"),
            List.of("assess", "--all", "--json", "--metrics", prom.toString()),
            List.of("records"))) {
      CliRun r = f.run(args.toArray(String[]::new));
      assertThat(r.exitCode()).as("%s: %s", args, r.stderr()).isZero();
      assertThat(r.stderr()).as("%s", args).doesNotContain("internal error", "Exception");
    }
    assertThat(f.run("assess", "x", "--json").stdout()).contains("\"strength\": \"refuted\"");
  }
}
