package dev.kcshare.core.handshake;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of the isolation self-test a declaring server designated
 * (docs/verdicts.md#the-isolation-self-test): three {@code tools/call}s of its {@code selfTest}
 * tool in one process, as callers A′, B′, A′, with a fresh marker. Absent (null) when the server
 * designated none.
 */
public enum SelfTest {
  /** The second caller did not see the marker and the first one got it back. */
  PASSED("passed"),
  /** The second caller saw the marker, or the first one lost it. */
  FAILED("failed"),
  /** A call failed, timed out, or the tool was not in the listing. */
  NOT_RUN("not_run"),
  /** The pass was asked not to run it ({@code --no-self-test}). */
  SKIPPED("skipped");

  private final String json;

  SelfTest(String json) {
    this.json = json;
  }

  /**
   * The stored spelling, for example {@code "not_run"}.
   *
   * @return the {@code selfTest} member's value
   */
  public String json() {
    return json;
  }

  /**
   * Reads a stored outcome; anything else is null (none).
   *
   * @param value the stored {@code selfTest} member, or null when absent
   * @return the outcome, or null
   */
  public static @Nullable SelfTest fromJsonLenient(@Nullable Object value) {
    for (SelfTest t : values()) {
      if (t.json.equals(value)) {
        return t;
      }
    }
    return null;
  }
}
