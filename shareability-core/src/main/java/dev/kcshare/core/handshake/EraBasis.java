package dev.kcshare.core.handshake;

import org.jspecify.annotations.Nullable;

/**
 * How a pre-flight came to measure the era it measured (docs/design.md#which-era-is-measured). It
 * tells a pass of another {@link EraChoice} whether a stored row is the measurement it would make
 * ({@link EraChoice#accepts}).
 */
public enum EraBasis {
  /** Legacy: {@code initialize} was answered (it was sent first). */
  INITIALIZE(Era.LEGACY, "initialize"),
  /**
   * Modern: {@code initialize} was rejected and {@code server/discover} identified a modern server.
   */
  INITIALIZE_REJECTED(Era.MODERN, "initialize_rejected"),
  /** Modern: {@code server/discover} was sent first and answered; {@code initialize} never sent. */
  DISCOVER(Era.MODERN, "discover"),
  /**
   * Legacy: {@code server/discover} was sent first and rejected, then {@code initialize} answered.
   */
  DISCOVER_REJECTED(Era.LEGACY, "discover_rejected");

  private final Era era;
  private final String json;

  EraBasis(Era era, String json) {
    this.era = era;
    this.json = json;
  }

  /**
   * The era measured this way.
   *
   * @return the era a row of this basis measured
   */
  public Era era() {
    return era;
  }

  /**
   * The stored spelling, for example {@code "discover_rejected"}.
   *
   * @return the {@code eraBasis} member's value
   */
  public String json() {
    return json;
  }

  /**
   * How a row that does not say came to its era: a legacy row answered {@code initialize}, a modern
   * row was found after {@code initialize} was rejected (the only way to a modern row before the
   * era choice existed).
   *
   * @param era the row's era
   * @return {@link #INITIALIZE} for a legacy row, {@link #INITIALIZE_REJECTED} for a modern one
   */
  public static EraBasis defaultFor(Era era) {
    return era == Era.MODERN ? INITIALIZE_REJECTED : INITIALIZE;
  }

  /**
   * Reads a stored basis: a known spelling of the row's era, else {@link #defaultFor} the era.
   *
   * @param value the stored {@code eraBasis} member, or null when absent
   * @param era the row's era
   * @return the basis; never null
   */
  public static EraBasis fromJsonLenient(@Nullable Object value, Era era) {
    for (EraBasis b : values()) {
      if (b.json.equals(value) && b.era == era) {
        return b;
      }
    }
    return defaultFor(era);
  }
}
