package dev.kcshare.cli;

import dev.kcshare.core.verdict.Verdict;
import java.util.List;

/** Placeholder wiring for --metrics; replaced by the report package's Metrics writer. */
final class Metrics {
  private Metrics() {}

  static void writeFor(CliContext ctx, String file, List<Verdict> verdicts) {
    throw new BadInputException("--metrics is not available in this build");
  }
}
