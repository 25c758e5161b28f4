package dev.kcshare.host.evaluation;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassOptions;
import dev.kcshare.core.policy.internal.Backoff;
import dev.kcshare.core.policy.internal.Selection;
import dev.kcshare.core.records.CacheLookup;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.records.internal.FailedAttempts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * What a pass measures: the servers never spawned (and why), and, under the cache lock, the servers
 * due by the core selection policy with the backoff of failing servers applied, or every server of
 * a {@link PassOptions.Kind#NAMED} pass.
 *
 * @param due the names to measure, in order
 * @param selection the core policy's selection (stored hits, skipped servers)
 */
record PassSelection(List<String> due, Selection selection) {

  /**
   * Selects what is due among {@code servers} (unique names, config order).
   *
   * @param versions the versions the re-check found, by name
   */
  static PassSelection of(
      Collection<ConfiguredServer> servers,
      Map<String, String> versions,
      VerdictCache cache,
      FailedAttempts attempts,
      PassOptions options,
      DoubleSupplier clock) {
    List<Selection.Candidate> candidates = new ArrayList<>();
    for (ConfiguredServer s : servers) {
      candidates.add(candidate(s, versions.getOrDefault(s.name(), "")));
    }
    PassOptions.Kind mode = options.kind();
    Map<String, Double> heldBack =
        mode == PassOptions.Kind.NAMED || options.retryFailed() || attempts.all().isEmpty()
            ? Map.of()
            : Backoff.heldBack(candidates, attempts, clock.getAsDouble());
    Selection selection =
        Selection.select(
            candidates,
            cache,
            mode == PassOptions.Kind.BUDGETED ? options.budget() : Selection.UNCAPPED,
            heldBack,
            options.era());
    for (Map.Entry<String, CacheLookup> drop : selection.versionDrops().entrySet()) {
      PassLog.log().info(drop.getValue().versionDropMessage(drop.getKey()));
    }
    List<String> due = selection.due();
    if (mode == PassOptions.Kind.NAMED) {
      due = new ArrayList<>();
      for (ConfiguredServer s : servers) {
        due.add(s.name());
      }
    }
    return new PassSelection(List.copyOf(due), selection);
  }

  /** The servers by name, the first of each name kept, in order. */
  static Map<String, ConfiguredServer> byName(List<ConfiguredServer> servers) {
    Map<String, ConfiguredServer> byName = new LinkedHashMap<>();
    for (ConfiguredServer s : servers) {
      byName.putIfAbsent(s.name(), s);
    }
    return byName;
  }

  private static Selection.Candidate candidate(ConfiguredServer s, String version) {
    return new Selection.Candidate(s.name(), s.commonIdentity(), version, s.refusal() == null);
  }
}
