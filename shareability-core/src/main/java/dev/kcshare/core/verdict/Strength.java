package dev.kcshare.core.verdict;

import java.util.Locale;

/**
 * The six evidence tiers, declared weakest first so that {@link #compareTo} orders by strength.
 *
 * <p>Exactly {@link #REFUTED} and {@link #DISQUALIFIED} are evidence <em>against</em> sharing (see
 * {@link #isEvidenceAgainst()}); a UI warning must be driven by that, never by {@code
 * recommendShare == false}.
 */
public enum Strength {
  /** Nothing observed: no handshake has been seen. */
  UNKNOWN,
  /** Nothing disqualifying was found; the weakest useful verdict. */
  NO_OBJECTION,
  /** A two-identity pre-flight ran and the handshakes agreed. */
  MEASURED,
  /** The server advertises the caller-identity extension. */
  DECLARED,
  /** A config or transport fact rules the server out. */
  DISQUALIFIED,
  /** The hazard ledger saw this server misbehave while shared. */
  REFUTED;

  private final String json = name().toLowerCase(Locale.ROOT);

  /**
   * The JSON value of this tier, for example {@code "no_objection"}.
   *
   * @return the stable spelling
   */
  public String json() {
    return json;
  }

  /**
   * True for exactly {@code refuted} and {@code disqualified}.
   *
   * @return whether this tier is evidence against sharing
   */
  public boolean isEvidenceAgainst() {
    return this == REFUTED || this == DISQUALIFIED;
  }

  /**
   * Parses a JSON tier value.
   *
   * @param value a JSON tier value, for example {@code "no_objection"}
   * @return the tier
   * @throws IllegalArgumentException if {@code value} names no tier
   */
  public static Strength fromJson(String value) {
    for (Strength s : values()) {
      if (s.json().equals(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("not a strength: " + value);
  }
}
