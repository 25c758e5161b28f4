package dev.kcshare.core.policy.internal;

import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.records.internal.FailedAttempts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * When a server whose pre-flight keeps failing is tried again by a pass that measures what is due
 * ({@code measure --all}, a gateway's budgeted pass). After {@value #FREE_FAILURES} consecutive
 * failures under one execution identity the server is skipped for one hour, and for twice as long
 * after each further failure, at most {@value #MAX_DELAY_SECONDS} seconds (24 h): 2 failures → 1 h,
 * 3 → 2 h, 4 → 4 h, 5 → 8 h, 6 → 16 h, 7 and more → 24 h. A changed identity (an edited definition,
 * an upgraded command) is tried at once, and so is a server named explicitly.
 */
public final class Backoff {
  /** Consecutive failures that are retried on every pass; the next one starts the backoff. */
  public static final int FREE_FAILURES = 2;

  /** The first skip, in seconds. */
  public static final double FIRST_DELAY_SECONDS = 3600;

  /** The longest skip, in seconds. */
  public static final double MAX_DELAY_SECONDS = 24 * 3600;

  /**
   * An attempt stamped further than this in the future (the clock was set back) does not hold a
   * server back: otherwise a clock error could silence it for as long as the error.
   */
  public static final double CLOCK_SLACK_SECONDS = 300;

  private Backoff() {}

  /** How long a server with {@code failures} consecutive failures is skipped, in seconds. */
  public static double delaySeconds(int failures) {
    if (failures < FREE_FAILURES) {
      return 0;
    }
    int doublings = Math.min(failures - FREE_FAILURES, 16);
    return Math.min(MAX_DELAY_SECONDS, FIRST_DELAY_SECONDS * (1L << doublings));
  }

  /** The earliest time (epoch seconds) a pass of due servers tries the server again. */
  public static double retryAt(AttemptRecord attempt) {
    return attempt.at() + delaySeconds(attempt.failures());
  }

  /**
   * Whether a pass of due servers skips the server now.
   *
   * @param attempt its last failed attempt, or null when none is remembered
   * @param identity its current execution identity, or null when it has none
   * @param now epoch seconds
   */
  public static boolean holdsBack(
      @Nullable AttemptRecord attempt, @Nullable String identity, double now) {
    return attempt != null
        && identity != null
        && attempt.identity().equals(identity)
        && attempt.failures() >= FREE_FAILURES
        && attempt.at() <= now + CLOCK_SLACK_SECONDS
        && now < retryAt(attempt);
  }

  /**
   * The spawnable candidates a pass of due servers skips now, in the given order, each with the
   * time it will be tried again.
   */
  public static Map<String, Double> heldBack(
      List<Selection.Candidate> candidates, FailedAttempts attempts, double now) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (Selection.Candidate c : candidates) {
      AttemptRecord a = attempts.get(c.name());
      if (c.spawnable() && holdsBack(a, c.identity(), now)) {
        out.put(c.name(), retryAt(a));
      }
    }
    return out;
  }
}
