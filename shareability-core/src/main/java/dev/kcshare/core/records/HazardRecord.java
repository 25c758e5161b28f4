package dev.kcshare.core.records;

import java.util.Collection;
import java.util.SortedSet;

/**
 * The observations of one (server name, launch identity) pair in the ledger.
 *
 * @param codes hazard codes seen, from the closed vocabulary, in code-point order
 * @param count number of record calls that landed on this pair, repeats included
 * @param lastSeen wall-clock epoch seconds of the latest record call
 */
public record HazardRecord(SortedSet<String> codes, long count, double lastSeen) {

  /**
   * @param codes hazard codes seen, from the closed vocabulary, in code-point order
   * @param count number of record calls that landed on this pair, repeats included
   * @param lastSeen wall-clock epoch seconds of the latest record call
   * @throws IllegalArgumentException if a code is outside the closed vocabulary (an unknown code is
   *     refused on write) or {@code count} is negative
   */
  public HazardRecord {
    int mask = HazardCodes.mask(codes);
    if (mask < 0) {
      throw new IllegalArgumentException("not a known hazard code in " + codes);
    }
    if (count < 0) {
      throw new IllegalArgumentException("negative count " + count);
    }
    codes = HazardCodes.setOf(mask);
  }

  /**
   * A record of the given codes (any order, duplicates collapse).
   *
   * @param codes hazard codes seen, from the closed vocabulary, in code-point order
   * @param count number of record calls that landed on this pair, repeats included
   * @param lastSeen wall-clock epoch seconds of the latest record call
   * @return the record
   */
  public static HazardRecord of(Collection<String> codes, long count, double lastSeen) {
    int mask = HazardCodes.mask(codes);
    if (mask < 0) {
      throw new IllegalArgumentException("not a known hazard code in " + codes);
    }
    return new HazardRecord(HazardCodes.setOf(mask), count, lastSeen);
  }

  /** Builds from a mask the caller already validated. */
  static HazardRecord ofMask(int mask, long count, double lastSeen) {
    return new HazardRecord(HazardCodes.setOf(mask), count, lastSeen);
  }

  /** The codes as a bit mask. */
  int mask() {
    return HazardCodes.mask(codes);
  }
}
