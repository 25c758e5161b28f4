package dev.kcshare.host.report;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.policy.EvidenceAssembly;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.LedgerView;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.Assessor;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.records.RecordReader;
import dev.kcshare.host.records.RecordsDirectory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Both record files loaded ONCE, then every server's verdict built from them with no I/O per row,
 * so all verdicts of one report agree about the files (docs/design.md#evidence-assembly). Never
 * spawns anything.
 *
 * <pre>{@code
 * VerdictReport report = VerdictReport.load(records);   // two file reads, off the event loop
 * for (ServerVerdict row : report.verdicts(servers, HostProfile.empty(), Set.of())) {
 *   render(row.verdict());                               // pure: no I/O per row
 * }
 * }</pre>
 */
public final class VerdictReport {
  private final LedgerView ledger;
  private final VerdictCache cache;

  private VerdictReport(LedgerView ledger, VerdictCache cache) {
    this.ledger = ledger;
    this.cache = cache;
  }

  /**
   * Reads both record files of a records directory, each exactly once, tolerantly (a missing or
   * corrupt file reads as empty). Blocking file I/O.
   */
  public static VerdictReport load(RecordsDirectory dir) {
    return load(dir, RecordReader.FILES, name -> true);
  }

  /**
   * As {@link #load(RecordsDirectory)}, keeping only the records of the given servers: the others
   * are skipped as the files are read, so a report over a few servers costs little however many
   * rows the files hold. Only {@link #verdicts} of these servers is meaningful on the result.
   */
  public static VerdictReport load(RecordsDirectory dir, List<ConfiguredServer> servers) {
    return load(dir, RecordReader.FILES, namesOf(servers));
  }

  /**
   * As {@link #load(RecordsDirectory)}, reading each file exactly once through {@code reader} (an
   * instrumentation seam: the default is {@link RecordReader#FILES}) and keeping only the records
   * whose server names {@code names} accepts.
   */
  public static VerdictReport load(
      RecordsDirectory dir, RecordReader reader, Predicate<String> names) {
    return of(
        HazardLedger.of(reader.ledger(dir.ledgerFile(), names).value()).readOnly(),
        VerdictCache.of(reader.cache(dir.cacheFile(), names).value()));
  }

  /**
   * A report over a live in-memory ledger (so a hazard recorded a moment ago counts before it is
   * flushed) and the cache file, read exactly once through {@code reader} keeping the rows {@code
   * names} accepts; the ledger file is not read.
   */
  public static VerdictReport live(
      LedgerView ledger, RecordsDirectory dir, RecordReader reader, Predicate<String> names) {
    return of(ledger, VerdictCache.of(reader.cache(dir.cacheFile(), names).value()));
  }

  /** A predicate accepting exactly the names of {@code servers}. */
  public static Predicate<String> namesOf(List<ConfiguredServer> servers) {
    Set<String> names = new HashSet<>();
    for (ConfiguredServer s : servers) {
      names.add(s.name());
    }
    return names::contains;
  }

  /** A report over records already in memory (a gateway's live ledger, a pass's cache). */
  public static VerdictReport of(LedgerView ledger, VerdictCache cache) {
    return new VerdictReport(
        Objects.requireNonNull(ledger, "ledger"), Objects.requireNonNull(cache, "cache"));
  }

  /** The loaded ledger. */
  public LedgerView ledger() {
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

  /** The verdicts of the given servers, in the given order (unmodifiable). */
  public List<ServerVerdict> verdicts(
      List<ConfiguredServer> servers, HostProfile profile, Set<String> identityKeys) {
    List<ServerVerdict> out = new ArrayList<>(servers.size());
    for (ConfiguredServer server : servers) {
      out.add(verdict(server, profile, identityKeys));
    }
    return Collections.unmodifiableList(out);
  }

  /** One server's verdict. */
  public ServerVerdict verdict(
      ConfiguredServer server, HostProfile profile, Set<String> identityKeys) {
    EvidenceAssembly.Assembled a =
        EvidenceAssembly.assemble(
            server.facts(), profile, ledger.codesForName(server.name()), cache);
    Verdict v = Assessor.assess(a.evidence(), identityKeys);
    CacheRow row = a.row();
    return new Results.ServerVerdict(
        server,
        v,
        a.evidence(),
        row == null ? Optional.empty() : Optional.of(EpochSeconds.instant(row.evaluatedAt())),
        row == null ? Optional.empty() : Optional.ofNullable(row.cost()),
        a.identitiesAgree());
  }
}
