package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@link MeasureLine} reads a command line only when picocli would read it the same way: a head
 * start spawns servers before picocli has looked at the command line, so a line it misread would
 * spawn what the command then refuses, or something else.
 */
class MeasureLineTest {
  private static final Path CWD = Path.of("/tmp");

  @Test
  void readsThePlainForms() {
    MeasureLine line =
        MeasureLine.parse(
            "measure",
            "memory",
            "--config",
            "a.json",
            "--config=b.json",
            "--records-dir",
            "r",
            "--timeout=30",
            "-j",
            "4",
            "--json",
            "--no-wait",
            "--discover",
            "--profile",
            "default");
    assertThat(line).isNotNull();
    assertThat(line.name()).isEqualTo("memory");
    assertThat(line.config().configFiles()).containsExactly("a.json", "b.json");
    assertThat(line.config().discover()).isTrue();
    assertThat(line.config().profile()).isEqualTo("default");
    assertThat(line.recordsDir()).isEqualTo("r");
    assertThat(line.timeoutSeconds()).isEqualTo(30);
    assertThat(line.jobs()).isEqualTo(4);
    assertThat(line.json()).isTrue();
    assertThat(line.noWait()).isTrue();
    agreesWithPicocli(line.toString(), args(line));
    assertThat(MeasureLine.parse("measure", "memory")).isNotNull();
    assertThat(MeasureLine.parse("measure", "--config", "c.json", "memory")).isNotNull();
  }

  @Test
  void leavesEverythingElseToPicocli() {
    for (String[] args :
        List.of(
            new String[] {"measure"},
            new String[] {"assess", "memory"},
            new String[] {"-v", "measure", "memory"},
            new String[] {"measure", "memory", "-q"},
            new String[] {"measure", "--all"},
            new String[] {"measure", "a", "b"},
            new String[] {"measure", "memory", "--help"},
            new String[] {"measure", "memory", "-V"},
            new String[] {"measure", "@args"},
            new String[] {"measure", "--", "memory"},
            new String[] {"measure", "memory", "--retry-failed"},
            new String[] {"measure", "memory", "--timeout", "4"},
            new String[] {"measure", "memory", "--timeout", "121"},
            new String[] {"measure", "memory", "--timeout", "010"},
            new String[] {"measure", "memory", "--jobs", "0"},
            new String[] {"measure", "memory", "-j4"},
            new String[] {"measure", "memory", "--json", "--json"},
            new String[] {"measure", "memory", "--records-dir", "a", "--records-dir", "b"},
            new String[] {"measure", "memory", "--config"},
            new String[] {"measure", "memory", "--config", "--json"},
            new String[] {"measure", "memory", "--json=true"})) {
      assertThat(MeasureLine.parse(args)).as(Arrays.toString(args)).isNull();
    }
  }

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261201L);
    return LongStream.range(base, base + 20);
  }

  /** Random command lines: whatever MeasureLine reads, picocli reads to the same values. */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void agreesWithPicocliOnRandomCommandLines(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int read = 0;
    for (int n = 0; n < 150; n++) {
      String[] args = randomLine(random);
      if (MeasureLine.parse(args) != null) {
        read++;
      }
      agreesWithPicocli("seed=" + seed, args);
    }
    assertThat(read).as("seed=%d: some random lines are plain", seed).isPositive();
  }

  private static final String[] TOKENS = {
    "memory",
    "a b",
    "x=y",
    "-",
    "",
    "@f",
    "--",
    "-v",
    "-q",
    "-vv",
    "--verbose",
    "--all",
    "-h",
    "--help",
    "-V",
    "--retry-failed",
    "--json",
    "--no-wait",
    "--discover",
    "--json=",
    "--bogus",
    "help",
    "measure"
  };
  private static final String[] VALUED = {
    "--config", "--profile", "--records-dir", "--timeout", "--jobs", "-j"
  };
  private static final String[] VALUES = {
    "f.json", "", "-x", "@f", "=", "a=b", "7", "007", "5", "15", "120", "121", "4", "0", "-1",
    "0x10", "+5", "1_0", " 5", "99999", "default", "2"
  };

  private static String[] randomLine(SplittableRandom r) {
    List<String> args = new ArrayList<>();
    args.add(r.nextInt(10) == 0 ? "assess" : "measure");
    if (r.nextInt(3) > 0) {
      args.add("memory");
    }
    int extra = r.nextInt(5);
    for (int i = 0; i < extra; i++) {
      int kind = r.nextInt(10);
      if (kind < 2) {
        args.add(TOKENS[r.nextInt(TOKENS.length)]);
      } else {
        String option = VALUED[r.nextInt(VALUED.length)];
        String value = VALUES[r.nextInt(VALUES.length)];
        if (kind < 6 || option.equals("-j")) {
          args.add(option);
          args.add(value);
        } else {
          args.add(option + "=" + value);
        }
      }
    }
    if (args.size() > 2 && r.nextInt(4) == 0) { // the last token somewhere after "measure"
      String last = args.remove(args.size() - 1);
      args.add(1 + r.nextInt(args.size() - 1), last);
    }
    return args.toArray(new String[0]);
  }

  private static String[] args(MeasureLine line) {
    List<String> args = new ArrayList<>(List.of("measure", line.name()));
    for (String f : line.config().configFiles()) {
      args.add("--config");
      args.add(f);
    }
    if (line.config().discover()) {
      args.add("--discover");
    }
    if (line.config().profile() != null) {
      args.add("--profile=" + line.config().profile());
    }
    if (line.recordsDir() != null) {
      args.add("--records-dir");
      args.add(line.recordsDir());
    }
    args.add("--timeout");
    args.add(Integer.toString(line.timeoutSeconds()));
    args.add("--jobs=" + line.jobs());
    if (line.json()) {
      args.add("--json");
    }
    if (line.noWait()) {
      args.add("--no-wait");
    }
    return args.toArray(new String[0]);
  }

  /** When MeasureLine reads {@code args}, picocli parses them to the same values, no help. */
  private static void agreesWithPicocli(String what, String[] args) {
    MeasureLine line = MeasureLine.parse(args);
    if (line == null) {
      return;
    }
    CommandLine cli = Main.commandLine(CliRun.context(CWD), Set.of("measure"));
    CommandLine.ParseResult parsed;
    try {
      parsed = cli.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      fail("%s: MeasureLine read %s, picocli refused it: %s", what, Arrays.toString(args), e);
      return;
    }
    String as = what + " " + Arrays.toString(args);
    assertThat(parsed.isUsageHelpRequested() || parsed.isVersionHelpRequested()).as(as).isFalse();
    assertThat(parsed.subcommand()).as(as).isNotNull();
    assertThat(parsed.subcommand().isUsageHelpRequested()).as(as).isFalse();
    assertThat(parsed.subcommand().isVersionHelpRequested()).as(as).isFalse();
    assertThat(KcshareCommand.verbosityOf(parsed)).as(as).isZero();
    MeasureCommand m = (MeasureCommand) parsed.subcommand().commandSpec().userObject();
    assertThat(m.all).as(as).isFalse();
    assertThat(m.retryFailed).as(as).isFalse();
    assertThat(m.asLine()).as(as).isEqualTo(line);
  }
}
