package dev.kcshare.cli.report;

import dev.kcshare.cli.config.ConfiguredDefinition;
import dev.kcshare.cli.config.ConfiguredServer;
import dev.kcshare.cli.config.HostConfig;
import dev.kcshare.cli.preflight.ServerDefinition;
import dev.kcshare.cli.records.CacheStore;
import dev.kcshare.cli.records.LedgerStore;
import dev.kcshare.cli.records.RecordsDirectory;
import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.core.policy.EvidenceAssembly;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.Assessor;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Both record files loaded ONCE, then every server's verdict built from them with no I/O per row,
 * so all verdicts of one report agree about the files (engine spec §8). Never spawns anything.
 */
public final class VerdictReport {
  private final HazardLedger ledger;
  private final VerdictCache cache;

  private VerdictReport(HazardLedger ledger, VerdictCache cache) {
    this.ledger = ledger;
    this.cache = cache;
  }

  /** Reads both record files of a records directory (each exactly once). */
  public static VerdictReport load(RecordsDirectory dir) {
    return of(
        HazardLedger.of(LedgerStore.read(dir.ledgerFile())),
        VerdictCache.of(CacheStore.read(dir.cacheFile())));
  }

  /** A report over records already in memory (a gateway's live ledger, a pass's cache). */
  public static VerdictReport of(HazardLedger ledger, VerdictCache cache) {
    return new VerdictReport(
        Objects.requireNonNull(ledger, "ledger"), Objects.requireNonNull(cache, "cache"));
  }

  /** The loaded ledger. */
  public HazardLedger ledger() {
    return ledger;
  }

  /** The loaded cache. */
  public VerdictCache cache() {
    return cache;
  }

  /** Every server's verdict, in config order. */
  public List<ServerVerdict> verdicts(HostConfig config) {
    return verdicts(config.servers(), config.hostProfile(), config.identityKeys());
  }

  /** The verdicts of the given servers, in the given order. */
  public List<ServerVerdict> verdicts(
      List<ConfiguredServer> servers, HostProfile profile, Set<String> identityKeys) {
    List<ServerVerdict> out = new ArrayList<>(servers.size());
    for (ConfiguredServer server : servers) {
      out.add(verdict(server, profile, identityKeys));
    }
    return out;
  }

  /** One server's verdict. */
  public ServerVerdict verdict(
      ConfiguredServer server, HostProfile profile, Set<String> identityKeys) {
    EvidenceAssembly.Assembled a =
        EvidenceAssembly.assemble(
            facts(server), profile, ledger.codesForName(server.name()), cache);
    Verdict v = Assessor.assess(a.evidence(), identityKeys);
    return ServerVerdict.of(server, a, v);
  }

  /** The policy view of a configured server. */
  public static ServerFacts facts(ConfiguredServer server) {
    List<DefinitionFacts> defs = new ArrayList<>();
    for (ConfiguredDefinition cd : server.definitions()) {
      ServerDefinition d = cd.definition();
      boolean commandNonEmpty = cd.stdio() && d.command() != null && !d.command().isEmpty();
      defs.add(
          new DefinitionFacts(
              cd.stdio(),
              commandNonEmpty,
              d.disabled(),
              new ArrayList<>(d.env().keySet()),
              cd.identity()));
    }
    return new ServerFacts(server.name(), defs);
  }
}
