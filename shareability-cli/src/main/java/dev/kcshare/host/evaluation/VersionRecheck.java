package dev.kcshare.host.evaluation;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.policy.internal.RuntimeResolved;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.KcshareThreads;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The version re-check of docs/design.md#version-re-check: for every runtime-resolved server with a
 * stored hit, one identity-A exchange; its reported version becomes the current version, and its
 * answer refreshes the handshake of a row it does not invalidate. Its failure changes nothing.
 */
final class VersionRecheck {
  private VersionRecheck() {}

  /**
   * Re-checks the due servers, at most {@code workers} at once, on threads of {@code threads}.
   *
   * @return the versions reported, by name (none for a server whose re-check failed)
   * @throws InterruptedException when cancelled, after the exchanges were stopped
   */
  static Map<String, String> run(
      Iterable<ConfiguredServer> servers,
      VerdictCache cache,
      Preflights prober,
      int workers,
      EraChoice era,
      KcshareThreads threads)
      throws InterruptedException {
    List<ConfiguredServer> due = new ArrayList<>();
    for (ConfiguredServer s : servers) {
      ServerDefinition def = s.first().definition();
      if (s.refusal() == null
          && RuntimeResolved.isRuntimeResolved(Objects.requireNonNull(def.command()), def.args())
          && cache.get(s.name(), Objects.requireNonNull(s.commonIdentity()), "", era).isHit()) {
        due.add(s);
      }
    }
    Map<String, String> versions = new LinkedHashMap<>();
    if (due.isEmpty()) {
      return versions;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(workers, due.size())), threads.pool("kcshare-recheck"));
    try {
      Map<String, Future<Optional<Answer>>> futures = new LinkedHashMap<>();
      for (ConfiguredServer s : due) {
        ServerDefinition def = s.first().definition();
        futures.put(s.name(), pool.submit(() -> prober.probeOnce(def)));
      }
      for (Map.Entry<String, Future<Optional<Answer>>> f : futures.entrySet()) {
        Optional<Answer> answer;
        try {
          answer = f.getValue().get();
        } catch (ExecutionException e) {
          PassLog.log()
              .debug(
                  "version re-check of {} failed",
                  Escaper.quoted(f.getKey(), Escaper.SHORT_LIMIT),
                  e.getCause());
          continue;
        }
        if (answer.isEmpty()) {
          continue;
        }
        String version = answer.get().reportedVersion();
        if (!version.isEmpty()) {
          versions.put(f.getKey(), version);
        }
        refreshHandshake(cache, f.getKey(), version, answer.get(), era);
      }
    } catch (InterruptedException | RuntimeException | Error e) {
      PassPool.stopAndAwait(pool);
      throw e;
    } finally {
      pool.shutdownNow();
    }
    return versions;
  }

  /**
   * A row the fresh answer does not invalidate (same version, or either side unknown) keeps its
   * measurement; its handshake is refreshed from the answer.
   */
  private static void refreshHandshake(
      VerdictCache cache, String name, String version, Answer answer, EraChoice era) {
    CacheRow row = cache.getByName(name);
    // Only the row's own measurement, and only from an answer of its era: a modern measurement
    // kept beside a legacy row is not refreshed by a re-check.
    if (row == null
        || row.forChoice(era) != row
        || answer.era() != row.era()
        || (!row.reportedVersion().isEmpty()
            && !version.isEmpty()
            && !row.reportedVersion().equals(version))) {
      return;
    }
    StoredHandshake fresh = StoredHandshake.of(answer);
    if (fresh.equals(row.handshake())) {
      return;
    }
    cache.put(name, row.withHandshake(fresh)); // a re-check is not a measurement: cost kept
  }
}
