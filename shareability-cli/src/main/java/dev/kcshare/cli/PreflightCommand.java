package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.api.PassResult;
import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.handshake.internal.Captures;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.report.ReasonText;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kcshare preflight}: runs the two-identity handshake comparison of one configured server
 * and prints it without storing anything; {@code preflight compare} decides from captures offline.
 */
@Command(
    name = "preflight",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Spawns one configured stdio MCP server under two client identities, compares their"
          + " handshakes and prints the result. Nothing is stored.",
      "",
      "The server runs with kcshare's environment plus its declared env, in its declared"
          + " working directory (else the current one). A disabled server, or one without a"
          + " command, is never spawned.",
      "Output with --json: {\"name\", \"ran\", \"callerSensitive\", \"reasons\", \"detail\","
          + " \"era\", \"reportedVersion\"}, plus \"stderrTail\" (its last stderr, secrets masked) and \"exitStatus\""
          + " when the server could not run.",
      "Exit code 0 whether or not the server could run; 2 for an unknown server or a bad config.",
      ""
    },
    subcommands = {PreflightCommand.Compare.class})
final class PreflightCommand implements Callable<Integer> {
  private final CliContext ctx;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..1",
      paramLabel = "SERVER",
      description = "The configured server name (see kcshare config).",
      completionCandidates = ServerNames.class)
  @Nullable String server;

  @Mixin ConfigOptions config = new ConfigOptions();

  @Option(names = "--timeout", paramLabel = "SECONDS", description = MeasureCommand.TIMEOUT_HELP)
  int timeoutSeconds = (int) ProbeOptions.DEFAULT_TIMEOUT.toSeconds();

  @Option(
      names = "--capture",
      paramLabel = "DIR",
      description =
          "Also save each identity's raw answers as DIR/<server>/a.json and b.json (for"
              + " 'preflight compare'). They may contain tool descriptions and schemas.")
  @Nullable String capture;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Option(names = "--no-self-test", description = MeasureCommand.NO_SELF_TEST_HELP)
  boolean noSelfTest;

  @Option(
      names = "--era",
      paramLabel = "ERA",
      completionCandidates = MeasureCommand.EraNames.class,
      description = MeasureCommand.ERA_HELP)
  String era = "auto";

  PreflightCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() throws InterruptedException, IOException {
    if (server == null) {
      throw usage("missing SERVER (or the subcommand 'compare')");
    }
    if (timeoutSeconds < 5 || timeoutSeconds > 120) {
      throw usage("--timeout must be between 5 and 120 seconds, got " + timeoutSeconds);
    }
    EraChoice eraChoice = MeasureCommand.eraChoice(era, this::usage);
    HostConfig host = config.load(ctx).requireValid();
    ConfiguredServer configured = host.require(List.of(server)).get(0);
    // A pre-flight touches no record file: the facade's records directory is never used.
    PassResult.Measured result;
    try (Shareability facade =
        Shareability.builder(ctx.cwd())
            .environment(ctx.env())
            .workingDirectory(ctx.cwd())
            .clock(ctx.clock())
            .probeTimeout(Duration.ofSeconds(timeoutSeconds))
            .build()) {
      result =
          facade.preflight(
              configured,
              capture == null ? null : ctx.resolve(capture),
              PassOptions.named().era(eraChoice).selfTest(!noSelfTest));
    }
    if (json) {
      Map<String, @Nullable Object> report = new LinkedHashMap<>();
      report.put("name", result.name());
      report.putAll(result.result().toReportJson());
      if (!result.result().ran()) {
        report.put("stderrTail", Escaper.unescape(result.stderrTail()));
        report.put("exitStatus", result.exitStatus());
      }
      Output.json(ctx, report);
    } else {
      for (String line : humanLines(result)) {
        ctx.out().println(line);
      }
      ctx.out().flush();
    }
    return Main.EXIT_OK;
  }

  /** The result in words: measured (caller-sensitive or not), or why it could not run. */
  static List<String> humanLines(PassResult.Measured measured) {
    PreflightResult result = measured.result();
    List<String> lines = new ArrayList<>();
    String name = "server \"" + Escaper.esc(measured.name(), Escaper.SHORT_LIMIT) + "\"";
    String context =
        " (era "
            + (result.era() == null ? "unknown" : result.era().json())
            + ", reported version \""
            + Escaper.esc(result.reportedVersion(), Escaper.SHORT_LIMIT)
            + "\")";
    if (result.ran()) {
      lines.add(
          name
              + (result.callerSensitive()
                  ? ": measured, caller-sensitive: "
                      + Escaper.esc(result.detail(), Escaper.LONG_LIMIT)
                  : ": measured, not caller-sensitive")
              + context);
      String kind = result.divergence();
      if (kind != null) {
        lines.add("  " + kind + ": " + ReasonText.divergence(kind));
      }
      if (result.selfTest() != null) {
        lines.add("  isolation self-test: " + result.selfTest().json());
      }
      return lines;
    }
    lines.add(name + ": could not run: " + Escaper.esc(result.detail(), Escaper.LONG_LIMIT));
    for (PassResult.Spawn spawn : measured.processes()) {
      if (spawn.status() == PassResult.Spawn.Status.FAILED) {
        lines.add(
            "  identity "
                + spawn.label()
                + ": "
                + Escaper.esc(Objects.requireNonNullElse(spawn.failure(), ""), Escaper.LONG_LIMIT)
                + (spawn.stderrTail().isEmpty()
                    ? " (no stderr)"
                    : "; stderr tail: \"" + spawn.stderrTail() + "\""));
      }
    }
    return lines;
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /** {@code kcshare preflight compare}. */
  @Command(
      name = "compare",
      mixinStandardHelpOptions = true,
      description = {
        "Decides a pre-flight from two captures (identity A and identity B) without spawning"
            + " anything.",
        "",
        "A capture is {\"era\"?, \"clientInfo\"?, \"initialize\": <raw initialize result or null>"
            + " | \"discover\": <raw server/discover result>, \"toolsList\": {\"tools\": [...]}},"
            + " the format `--capture` saves.",
        "Output: {\"ran\", \"callerSensitive\", \"reasons\", \"detail\"}; with --batch an array"
            + " of them in input order.",
        ""
      })
  static final class Compare implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(
        arity = "0..2",
        paramLabel = "CAPTURE",
        description = "Identity A's and identity B's capture files ('-' = standard input, once).")
    List<String> captures = new ArrayList<>();

    @Option(
        names = "--batch",
        paramLabel = "FILE",
        description = "A JSON array of {\"a\": capture, \"b\": capture} pairs.")
    String batch;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    Compare(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      if (batch != null) {
        if (!captures.isEmpty()) {
          throw usage("give either --batch FILE or two capture files, not both");
        }
        Output.json(ctx, compareBatch());
      } else {
        if (captures.size() != 2) {
          throw usage("expected two capture files (A and B), or --batch FILE");
        }
        if ("-".equals(captures.get(0)) && "-".equals(captures.get(1))) {
          throw usage("standard input ('-') can supply only one of the two captures");
        }
        Answer a = answer(captures.get(0), InputFiles.readJson(ctx, captures.get(0)), "");
        Answer b = answer(captures.get(1), InputFiles.readJson(ctx, captures.get(1)), "");
        Output.json(ctx, PreflightResult.decide(a, b).toJson());
      }
      return Main.EXIT_OK;
    }

    private List<Object> compareBatch() {
      Object root = InputFiles.readJson(ctx, batch);
      if (!(root instanceof List<?> pairs)) {
        throw new BadInputException(
            InputFiles.displayName(batch)
                + ": (root): expected an array of {\"a\", \"b\"} pairs, got "
                + JsonInputException.typeName(root));
      }
      List<Object> results = new ArrayList<>(pairs.size());
      for (int i = 0; i < pairs.size(); i++) {
        String at = "/" + i;
        if (!(pairs.get(i) instanceof Map<?, ?> pair)) {
          throw new BadInputException(
              InputFiles.displayName(batch)
                  + ": "
                  + at
                  + ": expected an object with members \"a\" and \"b\", got "
                  + JsonInputException.typeName(pairs.get(i)));
        }
        for (String side : List.of("a", "b")) {
          if (!pair.containsKey(side)) {
            throw new BadInputException(
                InputFiles.displayName(batch) + ": " + at + "/" + side + ": missing capture");
          }
        }
        Answer a = answer(batch, pair.get("a"), at + "/a");
        Answer b = answer(batch, pair.get("b"), at + "/b");
        results.add(PreflightResult.decide(a, b).toJson());
      }
      return results;
    }

    private static Answer answer(String source, Object capture, String pointer) {
      try {
        return Captures.toAnswer(capture, pointer);
      } catch (JsonInputException e) {
        throw new BadInputException(InputFiles.displayName(source) + ": " + e.getMessage(), e);
      }
    }

    private CommandLine.ParameterException usage(String message) {
      return new CommandLine.ParameterException(spec.commandLine(), message);
    }
  }
}
