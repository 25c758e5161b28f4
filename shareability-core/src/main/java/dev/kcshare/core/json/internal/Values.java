package dev.kcshare.core.json.internal;

import dev.kcshare.core.text.Escaper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** Type tests on decoded JSON values shared by the two record codecs. */
public final class Values {
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private Values() {}

  /** Whether the value is an integral JSON number (never a fraction or exponent literal). */
  public static boolean isIntegral(@Nullable Object value) {
    return value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger;
  }

  /** A non-negative integer literal that fits a long, or -1. */
  public static long nonNegativeLong(@Nullable Object value) {
    if (value instanceof BigInteger big) {
      return big.signum() >= 0 && big.compareTo(LONG_MAX) <= 0 ? big.longValue() : -1;
    }
    if (isIntegral(value)) {
      long v = ((Number) value).longValue();
      return v >= 0 ? v : -1;
    }
    return -1;
  }

  /** Whether the value is a number whose double value is finite (booleans are not numbers). */
  public static boolean isFiniteNumber(@Nullable Object value) {
    return value instanceof Number n && Double.isFinite(n.doubleValue());
  }

  /** The value as a double if it is a finite number, else the fallback. */
  public static double finiteOr(@Nullable Object value, double fallback) {
    return isFiniteNumber(value) ? ((Number) value).doubleValue() : fallback;
  }

  /** Whether the value is numerically exactly one: {@code 1} or {@code 1.0}, never {@code true}. */
  public static boolean isOne(@Nullable Object value) {
    if (value instanceof BigInteger big) {
      return big.equals(BigInteger.ONE);
    }
    if (value instanceof BigDecimal dec) {
      return dec.compareTo(BigDecimal.ONE) == 0;
    }
    if (isIntegral(value)) {
      return ((Number) value).longValue() == 1;
    }
    return (value instanceof Double || value instanceof Float)
        && ((Number) value).doubleValue() == 1.0;
  }

  /**
   * Whether the value is a number with an integral value above {@code bound} ({@code 2}, {@code
   * 2.0}, a huge integer), never a boolean or a fraction.
   */
  public static boolean isIntegerAbove(@Nullable Object value, long bound) {
    if (value instanceof BigInteger big) {
      return big.compareTo(BigInteger.valueOf(bound)) > 0;
    }
    if (isIntegral(value)) {
      return ((Number) value).longValue() > bound;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return Double.isFinite(d) && d == Math.rint(d) && d > bound;
    }
    return false;
  }

  /** A number as plain decimal text (integral doubles without a fraction), bounded. */
  public static String plain(@Nullable Object value) {
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isFinite(d)) {
        return Escaper.esc(
            new BigDecimal(d).stripTrailingZeros().toPlainString(), Escaper.SHORT_LIMIT);
      }
    }
    return Escaper.esc(String.valueOf(value), Escaper.SHORT_LIMIT);
  }

  /** A short human description of a value for load notes: its type and, for scalars, the value. */
  public static String describe(@Nullable Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Boolean b) {
      return b.toString();
    }
    if (value instanceof String s) {
      return "string " + Escaper.quoted(s, Escaper.SHORT_LIMIT);
    }
    if (value instanceof Number n) {
      return "number " + Escaper.esc(n.toString(), Escaper.SHORT_LIMIT);
    }
    if (value instanceof Map<?, ?>) {
      return "object";
    }
    if (value instanceof List<?>) {
      return "array";
    }
    return Escaper.esc(value.getClass().getSimpleName(), Escaper.SHORT_LIMIT);
  }

  /** A server name as it appears in a load note's path. */
  public static String name(String s) {
    return Escaper.esc(s, Escaper.SHORT_LIMIT);
  }

  /** An identity string (which contains NULs) as it appears in a load note's path. */
  public static String identity(String s) {
    return Escaper.esc(s, Escaper.LONG_LIMIT);
  }

  /**
   * Runs {@code decode}; when it fails on a value it did not expect, notes that with {@code note}
   * and returns {@code empty} instead, so that no document makes its reader throw.
   *
   * @param decode the decoder, adding to the notes it is given
   * @param empty what to return, with the notes so far, when {@code decode} fails
   * @param notes the notes to add to
   * @param note makes a note from its text
   * @param <T> what is decoded
   * @param <N> the type of a note
   * @return what was decoded, or {@code empty}'s answer
   */
  public static <T, N> T tolerantly(
      Function<List<N>, T> decode,
      Function<List<N>, T> empty,
      List<N> notes,
      Function<String, N> note) {
    try {
      return decode.apply(notes);
    } catch (RuntimeException e) {
      notes.add(note.apply("unexpected value (" + e.getClass().getSimpleName() + "); ignored"));
      return empty.apply(notes);
    }
  }
}
