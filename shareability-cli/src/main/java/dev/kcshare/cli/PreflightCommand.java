package dev.kcshare.cli;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Captures;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.json.JsonInputException;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.embed.ServerDefinition;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.prober.CaptureFiles;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.prober.ProbeOutcome;
import dev.kcshare.host.prober.ProcessPermits;
import dev.kcshare.host.prober.StdioProber;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      description = "Deadline of each awaited response, 5 to 120 (default: 15).")
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
    ServerDefinition definition = find(server);
    StdioProber prober =
        StdioProber.create(
            ctx.host(),
            ProbeOptions.defaults().withTimeout(Duration.ofSeconds(timeoutSeconds)),
            ProcessPermits.defaults());
    if (capture != null) {
      CaptureFiles.prepare(ctx.resolve(capture), definition.name()); // fails before any spawn
    }
    ProbeOutcome outcome = prober.probe(definition, capture != null);
    if (capture != null) {
      CaptureFiles.write(ctx.resolve(capture), definition.name(), outcome);
    }
    if (json) {
      Map<String, @Nullable Object> report = new LinkedHashMap<>();
      report.put("name", definition.name());
      report.putAll(outcome.result().toReportJson());
      if (!outcome.result().ran()) {
        report.put("stderrTail", Escaper.unescape(outcome.lastStderrTail()));
        report.put("exitStatus", outcome.lastExitStatus());
      }
      Output.json(ctx, report);
    } else {
      for (String line : outcome.humanLines(definition.name())) {
        ctx.out().println(line);
      }
      ctx.out().flush();
    }
    return Main.EXIT_OK;
  }

  private ServerDefinition find(String name) {
    HostConfig host = config.load(ctx).requireValid();
    return host.require(List.of(name)).get(0).first().definition();
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
