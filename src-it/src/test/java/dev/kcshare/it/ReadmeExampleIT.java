package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's example output is what its first set-up command prints: the example fleet measured,
 * then assessed. The MEMORY column is the one value that depends on the machine (what the fixture
 * servers' Node.js takes here), so it is compared only as "a size" or "-".
 */
final class ReadmeExampleIT {
  @TempDir Path dir;

  @Test
  void theReadmeShowsWhatTheExamplePrints() throws Exception {
    String records = dir.resolve("example-records").toString();
    Kcshare.Result measure =
        Kcshare.run(
            Kcshare.repo(),
            Map.of(),
            "",
            "measure",
            "--all",
            "--config",
            "examples/fleet.json",
            "--records-dir",
            records);
    assertThat(measure.exitCode()).as(measure.stderr()).isZero();
    Kcshare.Result assess =
        Kcshare.run(
            Kcshare.repo(),
            Map.of(),
            "",
            "assess",
            "--all",
            "--config",
            "examples/fleet.json",
            "--records-dir",
            records);
    assertThat(assess.exitCode()).as(assess.stderr()).isZero();
    assertThat(normalized(assess.stdout().lines().toList())).isEqualTo(normalized(readmeExample()));
  }

  /** The lines of the README's block that follows "The example fleet gives:". */
  private static List<String> readmeExample() throws Exception {
    List<String> readme =
        Files.readAllLines(Kcshare.repo().resolve("README.md"), StandardCharsets.UTF_8);
    int at = readme.indexOf("The example fleet gives:");
    assertThat(at).as("the README's example").isNotNegative();
    int open = at + 1;
    while (!readme.get(open).startsWith("```")) {
      open++;
    }
    List<String> block = new ArrayList<>();
    for (int i = open + 1; !readme.get(i).startsWith("```"); i++) {
      block.add(readme.get(i));
    }
    return block;
  }

  /** Columns split where two or more spaces stand; the MEMORY column as its kind only. */
  private static List<List<String>> normalized(List<String> lines) {
    List<List<String>> rows = new ArrayList<>();
    for (String line : lines) {
      List<String> cells = new ArrayList<>(List.of(line.trim().split(" {2,}")));
      if (cells.size() == 7 && !cells.get(0).equals("SERVER")) {
        cells.set(4, cells.get(4).matches("\\d+(\\.\\d+)? [KMG]?i?B") ? "<size>" : cells.get(4));
      }
      rows.add(cells);
    }
    return rows;
  }
}
