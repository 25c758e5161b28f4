package dev.kcshare.core.handshake;

import java.util.Locale;

/**
 * Which era a pre-flight measures (docs/design.md#which-era-is-measured): the {@code --era} option
 * of the pre-flight commands and the era option of an embedder's pass.
 */
public enum EraChoice {
  /**
   * {@code initialize} first, exactly as a legacy gateway opens; after an {@code initialize} error
   * of any code, one {@code server/discover} on the same process before failing.
   */
  AUTO,
  /**
   * {@code server/discover} first, as a client of both eras opens on stdio; {@code initialize} on
   * the same process when discover fails with an error that is not a modern one or is not answered
   * in time.
   */
  MODERN,
  /** {@code initialize} only; an {@code initialize} error is a failure. */
  LEGACY;

  private final String json = name().toLowerCase(Locale.ROOT);

  /**
   * {@code "auto"}, {@code "modern"} or {@code "legacy"}.
   *
   * @return the lower-case spelling
   */
  public String json() {
    return json;
  }

  /**
   * Parses {@code auto}, {@code modern} or {@code legacy} (case-insensitive).
   *
   * @param text the option's value
   * @return the choice
   * @throws IllegalArgumentException for anything else
   */
  public static EraChoice parse(String text) {
    for (EraChoice c : values()) {
      if (c.json.equalsIgnoreCase(text)) {
        return c;
      }
    }
    throw new IllegalArgumentException("not an era choice (auto, modern, legacy): " + text);
  }

  /**
   * Whether a row measured by way of {@code basis} is the measurement this choice would make of the
   * same server (docs/design.md#rows-of-two-era-choices): {@link #AUTO} measures legacy when {@code
   * initialize} is answered and modern when it is rejected; {@link #MODERN} measures modern when
   * discover is answered and legacy when it is rejected; {@link #LEGACY} measures legacy only.
   *
   * @param basis how the row reached its era
   * @return true iff a pass of this choice would have made that measurement
   */
  public boolean accepts(EraBasis basis) {
    return switch (this) {
      case AUTO -> basis != EraBasis.DISCOVER;
      case MODERN -> basis != EraBasis.INITIALIZE;
      case LEGACY -> basis == EraBasis.INITIALIZE || basis == EraBasis.DISCOVER_REJECTED;
    };
  }
}
