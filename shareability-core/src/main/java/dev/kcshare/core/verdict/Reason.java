package dev.kcshare.core.verdict;

import java.util.Objects;

/**
 * One reason of a verdict: a stable {@code code} and a verbatim {@code detail} (an env name, a
 * hazard code, a protocol version; {@code ""} when there is none). Details are host-local
 * observations and are never exported.
 *
 * @param code the stable code
 * @param detail the verbatim observation, never null
 */
public record Reason(ReasonCode code, String detail) {
  /**
   * Validates.
   *
   * @param code the stable code
   * @param detail the verbatim observation, never null
   * @throws NullPointerException if {@code code} or {@code detail} is null
   */
  public Reason {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(detail, "detail");
  }

  /**
   * A reason with no detail.
   *
   * @param code the code
   * @return {@code new Reason(code, "")}
   */
  public static Reason of(ReasonCode code) {
    return new Reason(code, "");
  }

  /**
   * A reason with a detail.
   *
   * @param code the code
   * @param detail the verbatim observation
   * @return the reason
   */
  public static Reason of(ReasonCode code, String detail) {
    return new Reason(code, detail);
  }
}
