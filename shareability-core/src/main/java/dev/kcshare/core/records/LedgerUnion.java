package dev.kcshare.core.records;

import java.math.BigInteger;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The flat {@code codes} / {@code count} / {@code lastSeen} of one ledger server entry, derived
 * from its identity records (docs/formats.md#the-hazard-ledger--observed-hazardsjson): the sorted
 * union of the codes, the exact sum of the counts, the latest {@code lastSeen} ({@code 0.0} when
 * there is no record). The ledger file's writer and every view ({@code kcshare hazards list}) use
 * this one implementation, so the two can never disagree.
 *
 * <p>The sum is exact, as the Python gateway writes it (its integers are unbounded): a per-identity
 * count is at most 2^63−1 (the reader's bound, so every written count reads back), but two of them
 * add up beyond it, so the union holds a {@link BigInteger}. {@link #countValue()} is a {@link
 * Long} whenever the sum fits one, and JSON writers emit either as an integer literal.
 *
 * @param codes the union of the codes, in code-point order
 * @param count the exact sum of the counts
 * @param lastSeen the maximum {@code lastSeen}, with a non-finite time counted as {@code 0.0} (as
 *     it is written); {@code 0.0} when there is no record
 */
public record LedgerUnion(List<String> codes, BigInteger count, double lastSeen) {
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  /**
   * Copies the codes.
   *
   * @param codes the union of the codes, in code-point order
   * @param count the exact sum of the counts
   * @param lastSeen the maximum {@code lastSeen}, with a non-finite time counted as {@code 0.0} (as
   *     it is written); {@code 0.0} when there is no record
   */
  public LedgerUnion {
    codes = List.copyOf(codes);
    Objects.requireNonNull(count, "count");
  }

  /**
   * The union of some identity records.
   *
   * @param records the records of one server (any order)
   * @return their union
   */
  public static LedgerUnion of(Collection<HazardRecord> records) {
    Objects.requireNonNull(records, "records");
    int mask = 0;
    BigInteger sum = BigInteger.ZERO;
    long small = 0;
    double lastSeen = 0.0;
    boolean any = false;
    for (HazardRecord record : records) {
      mask |= record.mask();
      long next = small + record.count();
      if (next < 0) { // both are non-negative: the long sum overflowed
        sum = sum.add(BigInteger.valueOf(small));
        small = record.count();
      } else {
        small = next;
      }
      double seen = Double.isFinite(record.lastSeen()) ? record.lastSeen() : 0.0;
      lastSeen = any ? Math.max(lastSeen, seen) : seen;
      any = true;
    }
    return new LedgerUnion(HazardCodes.listOf(mask), sum.add(BigInteger.valueOf(small)), lastSeen);
  }

  /**
   * The count as a JSON value: a {@link Long} when it fits one, else the {@link BigInteger}.
   *
   * @return the count for a JSON document
   */
  public Number countValue() {
    return count.compareTo(LONG_MAX) <= 0 ? (Number) count.longValue() : count;
  }
}
