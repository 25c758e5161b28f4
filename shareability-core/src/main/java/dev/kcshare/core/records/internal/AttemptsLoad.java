package dev.kcshare.core.records.internal;

import dev.kcshare.core.json.internal.Maps;
import dev.kcshare.core.records.Dropped;
import java.util.List;
import java.util.SortedMap;

/**
 * What a tolerant read of {@code kcshare-attempts.json} produced.
 *
 * @param servers server name → its last failed attempt
 * @param newer the file declares a schema newer than this build understands: it read as "no
 *     attempts", and must not be replaced
 * @param dropped what was left out, and why
 */
public record AttemptsLoad(
    SortedMap<String, AttemptRecord> servers, boolean newer, List<Dropped> dropped) {
  /** Copies the collections. */
  public AttemptsLoad {
    servers = Maps.sortedCopy(servers);
    dropped = List.copyOf(dropped);
  }
}
