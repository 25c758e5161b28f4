package dev.kcshare.core.records;

import dev.kcshare.core.text.Escaper;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of an identity-checked cache read ({@link VerdictCache#get}).
 *
 * @param outcome hit, or why not
 * @param row the row on a hit; null on every miss
 * @param storedVersion on {@link Outcome#VERSION_CHANGED}, the dropped row's reported version;
 *     otherwise {@code ""}
 * @param currentVersion on {@link Outcome#VERSION_CHANGED}, the caller's current version; otherwise
 *     {@code ""}
 */
public record CacheLookup(
    Outcome outcome, @Nullable CacheRow row, String storedVersion, String currentVersion) {

  /** Why a lookup hit or missed (docs/design.md#cache-validity). */
  public enum Outcome {
    /** Identity equal and no version difference. */
    HIT,
    /** No row for the name. */
    NO_ROW,
    /**
     * The row's identity differs from the caller's; the row is KEPT, because a fingerprint can read
     * {@code unknown} transiently.
     */
    IDENTITY_MISMATCH,
    /**
     * Identity equal, both reported versions non-empty and different: the row was DELETED (the
     * cache is dirty), because the code behind an unchanged launch was replaced.
     */
    VERSION_CHANGED,
    /**
     * Identity equal, but the row holds no measurement the pass's era choice would have made
     * (docs/design.md#rows-of-two-era-choices): the row is KEPT for the passes it serves.
     */
    OTHER_ERA
  }

  /**
   * Validates.
   *
   * @param outcome hit, or why not
   * @param row the row on a hit; null on every miss
   * @param storedVersion the dropped row's reported version, or {@code ""}
   * @param currentVersion the caller's current version, or {@code ""}
   * @throws NullPointerException if {@code outcome}, {@code storedVersion} or {@code
   *     currentVersion} is null
   * @throws IllegalArgumentException if a row is given on a miss, or missing on a hit
   */
  public CacheLookup {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(storedVersion, "storedVersion");
    Objects.requireNonNull(currentVersion, "currentVersion");
    if ((outcome == Outcome.HIT) != (row != null)) {
      throw new IllegalArgumentException("a row is present exactly on a hit");
    }
  }

  static CacheLookup hit(CacheRow row) {
    return new CacheLookup(Outcome.HIT, row, "", "");
  }

  static CacheLookup miss(Outcome outcome) {
    return new CacheLookup(outcome, null, "", "");
  }

  static CacheLookup versionChanged(String storedVersion, String currentVersion) {
    return new CacheLookup(Outcome.VERSION_CHANGED, null, storedVersion, currentVersion);
  }

  /**
   * Whether the lookup hit.
   *
   * @return true iff the outcome is {@link Outcome#HIT}
   */
  public boolean isHit() {
    return outcome == Outcome.HIT;
  }

  /**
   * The info-level log line for a version drop (docs/design.md#escaping), every value escaped and
   * bounded, for example {@code dropping verdict row "files-mcp": reported version changed "0.6.3"
   * -> "0.7.0"}.
   *
   * @param name the server name
   * @param storedVersion the dropped row's reported version
   * @param currentVersion the version the server reports now
   * @return the log line
   */
  public static String versionDropMessage(
      String name, String storedVersion, String currentVersion) {
    return "dropping verdict row "
        + Escaper.quoted(name, Escaper.SHORT_LIMIT)
        + ": reported version changed "
        + Escaper.quoted(storedVersion, Escaper.SHORT_LIMIT)
        + " -> "
        + Escaper.quoted(currentVersion, Escaper.SHORT_LIMIT);
  }

  /**
   * {@link #versionDropMessage(String, String, String)} for this lookup's versions.
   *
   * @param name the server name
   * @return the log line
   */
  public String versionDropMessage(String name) {
    return versionDropMessage(name, storedVersion, currentVersion);
  }
}
