package dev.kcshare.cli;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Captures;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.json.JsonInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcshare preflight}: the two-identity handshake comparison. */
@Command(
    name = "preflight",
    mixinStandardHelpOptions = true,
    description = "Pre-flight tools: compare two captured handshakes offline.",
    subcommands = {PreflightCommand.Compare.class})
final class PreflightCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
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
