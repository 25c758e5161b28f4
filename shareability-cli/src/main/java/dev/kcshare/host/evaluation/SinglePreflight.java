package dev.kcshare.host.evaluation;

import dev.kcshare.api.PassResult;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.host.FileProblem;
import dev.kcshare.host.prober.CaptureFiles;
import dev.kcshare.host.prober.ProbeOutcome;
import dev.kcshare.host.prober.StdioProber;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * One definition's pre-flight outside any pass ({@code kcshare preflight}): spawned under the two
 * identities and compared, stored nowhere; no lock, no record file. Its raw answers may be saved
 * for {@code preflight compare}.
 */
public final class SinglePreflight {
  private SinglePreflight() {}

  /**
   * Runs the pre-flight of {@code definition}.
   *
   * @param captureRoot null, or where each identity's raw answers are saved ({@link CaptureFiles});
   *     prepared before anything is spawned
   * @return the result, not stored
   * @throws FileProblem when the captures cannot be written (nothing is spawned when their
   *     directory cannot be prepared)
   * @throws InterruptedException when cancelled; every process spawned is torn down first
   */
  public static PassResult.Measured run(
      StdioProber prober, ServerDefinition definition, @Nullable Path captureRoot)
      throws FileProblem, InterruptedException {
    String name = definition.name();
    if (captureRoot != null) {
      CaptureFiles.prepare(captureRoot, name); // fails before any spawn
    }
    ProbeOutcome outcome = prober.probe(definition, captureRoot != null);
    if (captureRoot != null) {
      CaptureFiles.write(captureRoot, name, outcome);
    }
    return PassRecords.unstored(name, outcome);
  }
}
