package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README's rule for exit code 2: bad usage or bad input prints a message on stderr and nothing
 * on stdout, whatever the command and whether or not {@code --json} was asked for. Every subcommand
 * has at least one case here, so a new command cannot skip the rule.
 */
final class ExitTwoPrintsNothingTest {
  @TempDir Path root;

  private static final String MISSING = "/nonexistent-kcshare-test/mcp.json";

  /** Bad command lines, each run with and without {@code --json} where the command takes it. */
  static Stream<List<String>> badLines() {
    List<List<String>> lines = new ArrayList<>();
    for (String json : new String[] {null, "--json"}) {
      lines.add(withJson(json, "assess", "--all", "--config", MISSING));
      lines.add(withJson(json, "assess", "godo"));
      lines.add(withJson(json, "assess", "--evidence", "EVIDENCE"));
      lines.add(withJson(json, "measure", "--all", "--config", MISSING));
      lines.add(withJson(json, "measure", "godo"));
      lines.add(withJson(json, "cost", "--config", MISSING));
      lines.add(withJson(json, "cost", "--sessions", "0"));
      lines.add(withJson(json, "preflight", "godo"));
      lines.add(withJson(json, "preflight", "good", "--config", MISSING));
      lines.add(withJson(json, "records", "--no-such-option"));
      lines.add(withJson(json, "identity", "godo"));
      lines.add(withJson(json, "config", "--config", MISSING));
      lines.add(withJson(json, "seed", "--plan", "--config", MISSING));
      lines.add(withJson(json, "stub", "godo"));
      lines.add(withJson(json, "unstub", "godo"));
    }
    lines.add(List.of("hazards", "clear", "godo"));
    lines.add(List.of("hazards", "show", "--config", MISSING));
    lines.add(List.of("completion", "fish-and-chips"));
    lines.add(List.of("help", "no-such-command"));
    lines.add(List.of("no-such-command"));
    return lines.stream();
  }

  private static List<String> withJson(String json, String... args) {
    List<String> l = new ArrayList<>(List.of(args));
    if (json != null) {
      l.add(json);
    }
    return List.copyOf(l);
  }

  @ParameterizedTest
  @MethodSource("badLines")
  void exitTwoLeavesStdoutEmpty(List<String> line) throws Exception {
    OperatorFixture f = OperatorFixture.mixed(root);
    Path evidence = Files.writeString(root.resolve("evidence.json"), "{\"servers\": [\n");
    String[] args =
        line.stream()
            .map(a -> a.equals("EVIDENCE") ? evidence.toString() : a)
            .toArray(String[]::new);
    CliRun r = f.runPlain(args);
    assertThat(r.exitCode()).as("exit code of %s; stderr: %s", line, r.stderr()).isEqualTo(2);
    assertThat(r.stdout()).as("stdout of %s", line).isEmpty();
    assertThat(r.stderr()).as("stderr of %s", line).startsWith("kcshare: ");
  }

  @Test
  void everySubcommandHasACase() {
    Set<String> covered = new HashSet<>();
    badLines().forEach(l -> covered.add(l.get(0)));
    assertThat(covered).containsAll(KcshareCommand.SUBCOMMANDS.keySet());
  }
}
