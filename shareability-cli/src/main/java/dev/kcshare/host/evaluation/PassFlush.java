package dev.kcshare.host.evaluation;

import dev.kcshare.core.records.internal.FailedAttempts;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.FileProblem;
import dev.kcshare.host.FileProblems;
import dev.kcshare.host.records.AttemptStore;
import dev.kcshare.host.records.CacheStore;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * What a pass records at its end: the cache once, then kcshare's failed attempts beside it; and the
 * best-effort save of a pass that is being abandoned.
 */
final class PassFlush {
  private PassFlush() {}

  /**
   * The final write of a pass that ran: the cache, then the attempts.
   *
   * @throws InterruptedException when cancelled during the cache write, after saving what was
   *     measured
   * @throws IOException when the cache cannot be written (kcshare's own failure)
   */
  static void flush(CacheStore.Session session, Path attemptsFile, FailedAttempts attempts)
      throws IOException, InterruptedException {
    try {
      session.flush();
    } catch (ClosedByInterruptException e) {
      // Cancelled during the final write: the interrupt closed the file channel. Clear it, save
      // what was measured, then let the cancellation pass through
      // (docs/design.md#failure-isolation).
      Thread.interrupted();
      flushQuietly(session, attemptsFile, attempts);
      InterruptedException cancelled = new InterruptedException("cancelled while saving the pass");
      cancelled.initCause(e);
      throw cancelled;
    }
    flushAttempts(attemptsFile, attempts);
  }

  /**
   * Writes the failed attempts after the cache. They only steer later passes and what {@code
   * assess} shows, so a failed write is a warning, never the pass's failure.
   */
  static void flushAttempts(Path file, FailedAttempts attempts) {
    try {
      AttemptStore.flush(file, attempts);
    } catch (IOException | RuntimeException e) {
      PassLog.log()
          .warn(
              "could not record the failed pre-flights in {}: {}",
              Escaper.quoted(file.toString(), Escaper.LONG_LIMIT),
              Escaper.esc(String.valueOf(e.getMessage()), Escaper.LONG_LIMIT));
    }
  }

  /**
   * The best-effort flush of a pass that is being abandoned. A pending interrupt is set aside for
   * the write (an interrupted thread cannot use a file channel) and restored afterwards.
   */
  static void flushQuietly(
      CacheStore.Session session, @Nullable Path attemptsFile, @Nullable FailedAttempts attempts) {
    boolean interrupted = Thread.interrupted();
    try {
      session.flush();
    } catch (IOException | RuntimeException e) {
      PassLog.log()
          .warn(
              "could not save the verdicts measured before the interruption: {}",
              Escaper.esc(describe(e), Escaper.LONG_LIMIT));
    } finally {
      if (attemptsFile != null && attempts != null) {
        flushAttempts(attemptsFile, attempts);
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** An I/O failure in plain words (path and reason); anything else as it is (a defect). */
  private static String describe(Exception e) {
    if (e instanceof FileProblem problem) {
      return problem.getMessage();
    }
    if (e instanceof IOException) {
      String path = FileProblems.pathOf(e);
      return path == null ? FileProblems.reason(e) : path + ": " + FileProblems.reason(e);
    }
    return e.toString();
  }
}
