package dev.kcshare.core.records;

import dev.kcshare.core.json.internal.Maps;
import java.util.Map;
import java.util.SortedMap;

/**
 * A stable copy of a {@link HazardLedger}'s state, ready to be encoded and written.
 *
 * @param generation the ledger generation captured BEFORE the state was read, so that after a
 *     successful write of a flush plan's snapshot ({@link HazardLedger#flushed}) an observation
 *     racing the flush either is in the snapshot or leaves the ledger dirty
 * @param servers name → launch identity → record, in code-point order
 * @param cleared the ledger's clear markers: name → epoch seconds
 */
public record LedgerSnapshot(
    long generation,
    SortedMap<String, SortedMap<String, HazardRecord>> servers,
    SortedMap<String, Double> cleared) {

  /**
   * Copies the maps.
   *
   * @param generation the ledger generation captured BEFORE the state was read, so that after a
   *     successful write of a flush plan's snapshot ({@link HazardLedger#flushed}) an observation
   *     racing the flush either is in the snapshot or leaves the ledger dirty
   * @param servers name → launch identity → record, in code-point order
   * @param cleared the ledger's clear markers: name → epoch seconds
   */
  public LedgerSnapshot {
    servers = Maps.nestedCopy(servers);
    cleared = Maps.sortedCopy(cleared);
  }

  /**
   * The file document for this snapshot ({@link LedgerCodec#encode(LedgerSnapshot)}).
   *
   * @return the document as plain values
   */
  public Map<String, Object> toDocument() {
    return LedgerCodec.encode(this);
  }
}
