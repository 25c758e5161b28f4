package dev.kcshare.core.records;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The closed hazard-code vocabulary of the observed-hazard ledger
 * (docs/formats.md#the-hazard-ledger--observed-hazardsjson). A UI contract shared with the Kiro
 * Crew gateway: codes are never renamed, unknown codes are dropped on read and refused on write, so
 * a typo can never become a permanent hazard nobody can explain.
 */
public final class HazardCodes {
  /**
   * A server-initiated request arrived on a shared backend with no {@code relatedRequestId} mapping
   * it to a pending call; unroutable without a cross-tenant leak.
   */
  public static final String UNROUTABLE_SERVER_REQUEST = "unroutable_server_request";

  /**
   * A request-scoped notification on a shared backend could not be attributed to a pending call and
   * is not a global broadcast, so it was dropped.
   */
  public static final String UNATTRIBUTABLE_NOTIFICATION = "unattributable_notification";

  /** Every known code, in code-point order. */
  public static final List<String> ALL =
      List.of(UNATTRIBUTABLE_NOTIFICATION, UNROUTABLE_SERVER_REQUEST);

  /** Bit per code, in {@link #ALL} order, so a set of codes is an int. */
  private static final int UNATTRIBUTABLE_BIT = 1;

  private static final int UNROUTABLE_BIT = 2;
  private static final int ALL_BITS = UNATTRIBUTABLE_BIT | UNROUTABLE_BIT;

  /** Shared immutable code sets and lists, indexed by bit mask: reads never allocate. */
  private static final List<SortedSet<String>> SETS;

  private static final List<List<String>> LISTS;

  static {
    List<SortedSet<String>> sets = new ArrayList<>();
    List<List<String>> lists = new ArrayList<>();
    for (int mask = 0; mask <= ALL_BITS; mask++) {
      TreeSet<String> set = new TreeSet<>();
      for (int i = 0; i < ALL.size(); i++) {
        if ((mask & (1 << i)) != 0) {
          set.add(ALL.get(i));
        }
      }
      sets.add(Collections.unmodifiableSortedSet(set));
      lists.add(List.copyOf(set));
    }
    SETS = List.copyOf(sets);
    LISTS = List.copyOf(lists);
  }

  private HazardCodes() {}

  /**
   * Whether the value is a string in the closed vocabulary.
   *
   * @param code any value, for example a parsed JSON element
   * @return true iff it is a known hazard code
   */
  public static boolean isKnown(@Nullable Object code) {
    return code instanceof String s && bit(s) != 0;
  }

  /** The code's bit, 0 for anything outside the vocabulary. Never allocates. */
  static int bit(String code) {
    if (UNROUTABLE_SERVER_REQUEST.equals(code)) {
      return UNROUTABLE_BIT;
    }
    if (UNATTRIBUTABLE_NOTIFICATION.equals(code)) {
      return UNATTRIBUTABLE_BIT;
    }
    return 0;
  }

  /** The bit mask of a collection of codes, or -1 if any element is not a known code. */
  static int mask(Collection<?> codes) {
    int mask = 0;
    for (Object code : codes) {
      int bit = code instanceof String s ? bit(s) : 0;
      if (bit == 0) {
        return -1;
      }
      mask |= bit;
    }
    return mask;
  }

  /** The shared immutable sorted set for a mask. */
  static SortedSet<String> setOf(int mask) {
    return SETS.get(mask);
  }

  /** The shared immutable sorted list for a mask. */
  static List<String> listOf(int mask) {
    return LISTS.get(mask);
  }
}
