package dev.kcshare.core.records;

import java.util.List;
import java.util.SortedMap;

/**
 * Read-only access to a hazard ledger's in-memory state ({@link HazardLedger#readOnly()}): what it
 * answers changes as its owner records, clears and flushes, but nothing done through it changes the
 * ledger. Every answer is an unmodifiable copy.
 */
public interface LedgerView {
  /**
   * The sorted codes of exactly (name, identity); empty if none.
   *
   * @param name the server name
   * @param identity the launch identity
   * @return the codes
   */
  List<String> codesFor(String name, String identity);

  /**
   * The sorted union of the codes over every identity of {@code name}.
   *
   * @param name the server name
   * @return the codes
   */
  List<String> codesForName(String name);

  /**
   * Name to union of codes, for every name with at least one code, in code-point order.
   *
   * @return the names and their codes
   */
  SortedMap<String, List<String>> all();

  /**
   * The ledger's own clear markers: name to epoch seconds, in code-point order.
   *
   * @return the markers
   */
  SortedMap<String, Double> clearedMarkers();

  /**
   * A stable copy of everything the ledger holds and its markers.
   *
   * @return the snapshot
   */
  LedgerSnapshot snapshot();

  /**
   * Whether something changed since the ledger's last successful write.
   *
   * @return true when a flush has something to write
   */
  boolean isDirty();

  /**
   * The ledger's generation: incremented after every change.
   *
   * @return the generation
   */
  long generation();
}
