package dev.kcshare.host.evaluation;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The logger of evaluation passes: every type of a pass logs under {@link EvaluationRunner}. */
final class PassLog {
  private PassLog() {}

  /**
   * Looked up when there is something to log, not in a static field: a pass that logs nothing never
   * starts the logging backend (docs/performance.md).
   */
  static Logger log() {
    return LoggerFactory.getLogger(EvaluationRunner.class);
  }
}
