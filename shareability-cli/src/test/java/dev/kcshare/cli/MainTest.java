package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

final class MainTest {
  @TempDir Path dir;

  @Test
  void helpListsCommandsAndExitCodes() {
    CliRun r = CliRun.run(dir, "--help");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).contains("assess", "preflight", "Exit codes:", "bad usage or bad input");
    assertThat(r.stderr()).isEmpty();
  }

  @Test
  void versionNamesTheProgram() {
    CliRun r = CliRun.run(dir, "--version");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).startsWith("kcshare ");
  }

  @Test
  void unknownOptionIsAUsageError() {
    CliRun r = CliRun.run(dir, "assess", "--evidence", "e.json", "--no-such-option");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("--no-such-option").contains("kcshare assess --help");
  }

  @Test
  void noCommandIsAUsageError() {
    CliRun r = CliRun.run(dir);
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("missing command");
  }

  @Test
  void unknownCommandIsAUsageError() {
    CliRun r = CliRun.run(dir, "frobnicate");
    assertThat(r.exitCode()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.stdout()).isEmpty();
  }

  private CliContext context() {
    return new CliContext(
        new ByteArrayInputStream(new byte[0]),
        new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()),
        Map.of(),
        dir);
  }

  @Test
  void theSubcommandTableNamesEachCommandAsItsAnnotationDoes() {
    List<String> annotated = new ArrayList<>();
    for (Class<?> c : KcshareCommand.SUBCOMMANDS.values()) {
      CommandLine.Command command = c.getAnnotation(CommandLine.Command.class);
      assertThat(command.aliases()).as("%s has aliases the table does not know", c).isEmpty();
      annotated.add(command.name());
    }
    assertThat(annotated).containsExactlyElementsOf(KcshareCommand.SUBCOMMANDS.keySet());
    assertThat(Main.commandLine(context()).getSubcommands().keySet())
        .containsExactlyElementsOf(KcshareCommand.SUBCOMMANDS.keySet());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      nullValues = "-",
      value = {
        "assess --all, assess",
        "-v assess --all, assess",
        "-vvq --verbose --quiet measure --all, measure",
        "hazards list, hazards",
        "--version, -",
        "--help assess, -",
        "-h, -",
        "help assess, -",
        "completion bash, -",
        "asess --all, -",
        "@args.txt, -",
        "-x assess, -",
        "'', -",
      })
  void onlyAPlainlyNamedSubcommandGetsATreeOfItsOwn(String line, String expected) {
    String[] args = line.isEmpty() ? new String[0] : line.split(" ");
    assertThat(KcshareCommand.plainlyNamedSubcommand(args)).isEqualTo(expected);
  }

  @Test
  void aTreeBuiltForOneSubcommandParsesAndReportsErrorsAsTheFullTreeDoes() {
    CliRun lazy = CliRun.run(dir, "assess", "--evidence", "e.json", "--no-such-option");
    StringWriter err = new StringWriter();
    CliContext ctx =
        new CliContext(
            new ByteArrayInputStream(new byte[0]),
            new PrintWriter(new StringWriter()),
            new PrintWriter(err),
            Map.of(),
            dir);
    int code = Main.commandLine(ctx).execute("assess", "--evidence", "e.json", "--no-such-option");
    assertThat(lazy.exitCode()).isEqualTo(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(lazy.stderr()).isEqualTo(err.toString());
    assertThat(Main.commandLine(context(), Set.of("assess")).getSubcommands().keySet())
        .containsExactly("assess");
  }

  @ParameterizedTest(name = "kcshare {0} -V")
  @CsvSource({
    "assess",
    "measure",
    "preflight",
    "preflight compare",
    "hazards",
    "hazards list",
    "hazards clear",
    "records",
    "identity",
    "config",
    "seed",
    "stub",
    "unstub",
    "completion"
  })
  void everyCommandPrintsTheVersionOnDashCapitalV(String command) {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.add("-V");
    CliRun r = CliRun.run(dir, args.toArray(new String[0]));
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).startsWith("kcshare ").isEqualTo(CliRun.run(dir, "--version").stdout());
  }

  @ParameterizedTest(name = "kcshare {0}")
  @CsvSource({
    "assess --help",
    "measure --help",
    "preflight --help",
    "preflight compare --help",
    "hazards --help",
    "hazards list --help",
    "hazards clear --help",
    "records --help",
    "identity --help",
    "config --help",
    "seed --help",
    "stub --help",
    "unstub --help",
    "assess --no-such-option",
    "hazards frobnicate",
    "measure --jobs x",
    "seed --plan --apply"
  })
  void aCommandReadsTheSameFromItsOwnTreeAndFromTheFullOne(String line) {
    String[] args = line.split(" ");
    assertThat(KcshareCommand.plainlyNamedSubcommand(args)).isNotNull();
    CliRun lazy = CliRun.run(dir, args);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliContext ctx =
        new CliContext(
            new ByteArrayInputStream(new byte[0]),
            new PrintWriter(out),
            new PrintWriter(err),
            Map.of(),
            dir);
    CommandLine full = Main.commandLine(ctx);
    int code = full.execute(args);
    full.getOut().flush();
    full.getErr().flush();
    assertThat(lazy.exitCode()).isEqualTo(code);
    assertThat(lazy.stdout()).isEqualTo(out.toString());
    assertThat(lazy.stderr()).isEqualTo(err.toString());
    assertThat(lazy.stdout() + lazy.stderr()).isNotEmpty();
  }

  @Test
  void noOptionNeedsAConverterThatStartUpLeavesOut() {
    assertThat(Main.UNUSED_CONVERTERS).isEqualTo(".*");
    // The types picocli 4.7 registers converters for by reflection, all left out at start-up.
    Pattern unused = Pattern.compile("java\\.(sql|time)\\..*|java\\.nio\\.file\\.Path");
    List<String> offenders = new ArrayList<>();
    List<CommandLine> pending = new ArrayList<>(List.of(Main.commandLine(context())));
    while (!pending.isEmpty()) {
      CommandLine cl = pending.remove(pending.size() - 1);
      pending.addAll(cl.getSubcommands().values());
      for (CommandLine.Model.ArgSpec arg : cl.getCommandSpec().args()) {
        List<Class<?>> types = new ArrayList<>(List.of(arg.auxiliaryTypes()));
        types.add(arg.type());
        for (Class<?> t : types) {
          if (unused.matcher(t.getName()).matches()) {
            offenders.add(cl.getCommandName() + " " + arg.paramLabel() + ": " + t.getName());
          }
        }
      }
    }
    assertThat(offenders).as("option types picocli.converters.excludes leaves out").isEmpty();
  }
}
