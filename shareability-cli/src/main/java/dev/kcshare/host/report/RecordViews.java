package dev.kcshare.host.report;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.records.LedgerView;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.records.internal.AttemptsCodec;
import dev.kcshare.core.records.internal.AttemptsLoad;
import dev.kcshare.core.text.Secrets;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.host.config.Definitions;
import dev.kcshare.host.prober.SpawnRegistry;
import dev.kcshare.host.records.AttemptStore;
import dev.kcshare.host.records.RecordFile;
import dev.kcshare.host.records.RecordReader;
import dev.kcshare.host.records.RecordsDirectory;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The records directory's files as they are now, each read once and tolerantly, for display and for
 * decisions made from the files rather than from a live ledger: {@code kcshare hazards list},
 * {@code kcshare records}, {@code kcshare assess}'s "could not run", {@code kcshare seed --gateway}
 * and {@code kcshare stub --resolve-eligibility}. A bad file never throws: it reads as nothing
 * observed, or not measured, and says why. Blocking: file I/O. Immutable.
 */
public final class RecordViews {
  private static final String NEWER = "was written by a newer version";

  private final RecordsDirectory records;
  private final RecordReader reader;

  /**
   * The views of one records directory.
   *
   * @param records the records directory, as the command or the facade resolved it
   * @param reader how the two record files are read ({@link RecordReader#FILES} but in tests)
   */
  public RecordViews(RecordsDirectory records, RecordReader reader) {
    this.records = Objects.requireNonNull(records, "records");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /**
   * The hazard ledger file: every server's observations by launch identity, the clear markers and
   * what was dropped on read.
   *
   * @return the file as read
   */
  public RecordFileRead<LedgerLoad> readLedger() {
    RecordFile.Loaded<LedgerLoad> read = RecordFile.readLedger(records.ledgerFile());
    return fileRead(records.ledgerFile(), read, read.value().refusal());
  }

  /**
   * Every file of the records directory: what each holds, why one could not be used, and every row
   * dropped on read.
   *
   * @return the snapshot
   */
  public RecordsSnapshot readRecords() {
    RecordFileRead<LedgerLoad> ledgerRead = readLedger();
    RecordFile.Loaded<CacheLoad> cache = RecordFile.readCache(records.cacheFile());
    RecordFile.Read attemptsRead = RecordFile.read(records.attemptsFile());
    AttemptsLoad attempts = AttemptsCodec.decode(attemptsRead.root());
    Path registry = SpawnRegistry.fileIn(records.path());
    return new RecordsSnapshot(
        records.path(),
        ledgerRead,
        fileRead(records.cacheFile(), cache, cache.value().refusal()),
        new RecordFileRead<>(
            records.attemptsFile(),
            attemptsRead.exists(),
            attemptsRead.state() == RecordFile.State.MISSING
                || attemptsRead.state() == RecordFile.State.PARSED,
            Optional.ofNullable(attemptsRead.problem()),
            attempts.newer() ? Optional.of(NEWER) : Optional.empty(),
            List.copyOf(attempts.servers().keySet())),
        registry,
        Files.exists(registry, LinkOption.NOFOLLOW_LINKS),
        SpawnRegistry.recordedCount(records.path()));
  }

  /**
   * The last failed pre-flight of each row's server under its current execution identity, from
   * {@code kcshare-attempts.json} (a bad file reads as no failures), masked with the server's
   * secrets: what {@code kcshare assess} and {@code kcshare seed --plan} show as "could not run". A
   * server without one is absent.
   *
   * @param rows the verdict rows
   * @return by server name, in the rows' order
   */
  public Map<String, AttemptRecord> failedPreflights(List<ServerVerdict> rows) {
    AttemptsLoad attempts = AttemptStore.read(records.attemptsFile());
    Map<String, AttemptRecord> out = new LinkedHashMap<>();
    for (ServerVerdict row : rows) {
      AttemptRecord a = attempts.servers().get(row.name());
      String identity = row.server().first().identity();
      if (a == null || !a.identity().equals(identity) || out.containsKey(row.name())) {
        continue;
      }
      Secrets secrets = Definitions.secrets(row.server().first().definition());
      out.put(
          row.name(),
          new AttemptRecord(
              a.at(),
              a.identity(),
              secrets.mask(a.detail()),
              a.exitStatus(),
              secrets.mask(a.stderrTail()),
              a.failures()));
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * The ledger and the cache file, read once each (the ledger first), for a caller that assesses
   * verdicts of servers it describes itself ({@code kcshare seed --gateway}).
   *
   * @return the records as read
   */
  public VerdictRecords readVerdictRecords() {
    LedgerView ledger =
        HazardLedger.of(reader.ledger(records.ledgerFile(), name -> true).value()).readOnly();
    return new VerdictRecords(
        ledger, VerdictCache.of(reader.cache(records.cacheFile(), name -> true).value()));
  }

  /**
   * Bulk-stub eligibility from the record files, for a process that does not hold the gateway's
   * ledger writer ({@code kcshare stub --resolve-eligibility}), with the ledger file and the cache
   * file read once each. Call it inside the config lock, with the servers read under it.
   *
   * @param requested the names asked to stub
   * @param settings the gateway's effective settings
   * @param servers the config facts of every loaded server, by name
   * @return the stubbed names and the skipped ones with their reasons
   */
  public Eligibility.Result eligibility(
      List<String> requested, Eligibility.Settings settings, Map<String, ServerFacts> servers) {
    VerdictRecords read = readVerdictRecords();
    return Eligibility.resolve(
        List.copyOf(requested),
        settings,
        Map.copyOf(servers),
        read.ledger()::codesForName,
        read.cache());
  }

  /**
   * The verdicts of {@code servers} over records already read ({@link #readVerdictRecords}, or what
   * a seed is handed under the cache lock), under the given host profile and identity keys: the
   * rows the facade's {@code verdicts} gives, with no I/O, so a caller that holds a lock decides
   * over exactly the records it read.
   *
   * @param servers the servers, in the order wanted
   * @param records the ledger and cache read
   * @param profile the host profile in force
   * @param identityKeys the gateway's caller-identity keys
   * @return one row per server, in the given order
   */
  public static List<ServerVerdict> verdicts(
      List<ConfiguredServer> servers,
      VerdictRecords records,
      HostProfile profile,
      Set<String> identityKeys) {
    return VerdictReport.of(records.ledger(), records.cache())
        .verdicts(List.copyOf(servers), profile, Set.copyOf(identityKeys));
  }

  private static <T> RecordFileRead<T> fileRead(
      Path file, RecordFile.Loaded<T> read, @Nullable String refusal) {
    return new RecordFileRead<>(
        file,
        read.exists(),
        read.state() == RecordFile.State.MISSING || read.state() == RecordFile.State.PARSED,
        Optional.ofNullable(read.problem()),
        Optional.ofNullable(refusal),
        read.value());
  }
}
