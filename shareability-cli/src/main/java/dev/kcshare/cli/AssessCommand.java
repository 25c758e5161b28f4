package dev.kcshare.cli;

import dev.kcshare.core.json.JsonInputException;
import dev.kcshare.core.verdict.EvidenceDocument;
import dev.kcshare.core.verdict.EvidenceInput;
import dev.kcshare.core.verdict.EvidenceJson;
import dev.kcshare.core.verdict.VerdictJson;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kcshare assess}: verdicts from evidence. */
@Command(
    name = "assess",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the verdict for each server described in an evidence file.",
      "",
      "The evidence is one JSON object or an array of them, with the camelCase members name,"
          + " stdio, sessionBoundByConstruction, probeOk, capabilities, protocolVersion,"
          + " toolAnnotations, hasTools, declaredEnvNames, observedHazards, preflightRan,"
          + " preflightCallerSensitive and identityKeys (all optional; see docs/verdicts.md).",
      "Output: one verdict object {name, strength, recommendStub, recommendShare, reasons}, or"
          + " an array of them in input order.",
      ""
    })
final class AssessCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Option(
      names = "--evidence",
      required = true,
      paramLabel = "FILE",
      description = "Evidence JSON file; '-' reads standard input.")
  String evidence;

  AssessCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    Object root = InputFiles.readJson(ctx, evidence);
    EvidenceDocument document;
    try {
      document = EvidenceJson.fromDocument(root);
    } catch (JsonInputException e) {
      throw new BadInputException(InputFiles.displayName(evidence) + ": " + e.getMessage(), e);
    }
    List<Object> verdicts = new ArrayList<>(document.inputs().size());
    for (EvidenceInput input : document.inputs()) {
      verdicts.add(VerdictJson.toJson(input.assess()));
    }
    Output.json(ctx, document.isArray() ? verdicts : verdicts.get(0));
    return Main.EXIT_OK;
  }
}
