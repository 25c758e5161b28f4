package dev.kcshare.host.seeding;

import dev.kcshare.api.RecordsException;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.internal.GatewaySeeding;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.LedgerView;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileProblems;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.FileLock;
import dev.kcshare.host.records.LedgerStore;
import dev.kcshare.host.records.RecordReader;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.records.RecordsTrust;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeding, implemented once (docs/seeding.md): the Kiro Crew config's {@code stub_overrides}, under
 * the verdict cache's lock with its "already seeded" markers, and the other gateways' files, under
 * the lock of their markers file in the records directory. The embedding facade's {@code seed} and
 * the {@code kcshare seed} command both call it. Blocking: file I/O.
 */
public final class SeedService {
  private final RecordsDirectory records;
  private final RecordReader reader;

  /**
   * Seeding for one records directory.
   *
   * @param records the records directory, as the command or the facade resolved it
   * @param reader how the two record files are read for a plan ({@link RecordReader#FILES} but in
   *     tests)
   */
  public SeedService(RecordsDirectory records, RecordReader reader) {
    this.records = Objects.requireNonNull(records, "records");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  private static Logger log() {
    return LoggerFactory.getLogger(SeedService.class);
  }

  /**
   * Writes the gateway's configuration file, inside the cache lock, with the section it changed.
   *
   * @param <E> what the write may throw
   */
  @FunctionalInterface
  public interface SectionWriter<E extends Exception> {
    /**
     * Writes the section.
     *
     * @param section the changed {@code mcp_gateway} section
     * @throws E if it could not be written (then nothing is marked seeded)
     */
    void write(Map<String, Object> section) throws E;
  }

  /**
   * The verdicts a seed plans from, computed from the records as the seed read them, so the
   * verdicts and the "already seeded" markers agree.
   */
  @FunctionalInterface
  public interface SeedVerdicts {
    /**
     * The verdicts of the servers the gateway fronts; an {@code unknown} one is left for a later
     * seed ({@link Seeding#recommendations}).
     *
     * @param ledger the hazard ledger file as read (read-only)
     * @param cache the verdict cache as read, with its "already seeded" markers
     * @return the verdicts, one per server
     */
    List<Verdict> of(LedgerView ledger, VerdictCache cache);
  }

  /**
   * Edits another gateway's file and says what it seeded.
   *
   * @param <E> what the edit may throw
   */
  @FunctionalInterface
  public interface GatewayEdit<E extends Exception> {
    /**
     * Plans from the markers ({@link GatewaySeeding#plan}) and writes the gateway's file.
     *
     * @param seeded the names already seeded, as the markers file holds them under its lock
     * @return the plan applied: its {@code markSeeded} names are recorded
     * @throws E if the file could not be edited (then nothing is recorded)
     */
    GatewaySeeding.Plan edit(Set<String> seeded) throws E;
  }

  /**
   * What {@link #applySeed} would do now: reads the ledger and the cache file once each (without a
   * lock), computes the verdicts from them and plans from the cache's "already seeded" markers;
   * changes and writes nothing ({@code kcshare seed --plan}).
   *
   * @param section the {@code mcp_gateway} section (only read: its effective stub set)
   * @param verdicts computes the verdicts from the records read
   * @return the plan
   */
  public Seeding.SeedPlan planSeed(Map<String, ?> section, SeedVerdicts verdicts) {
    LedgerView ledger =
        HazardLedger.of(reader.ledger(records.ledgerFile(), name -> true).value()).readOnly();
    VerdictCache cache = VerdictCache.of(reader.cache(records.cacheFile(), name -> true).value());
    List<Verdict> rows = List.copyOf(verdicts.of(ledger, cache));
    return Seeding.plan(
        cache.applied(), Seeding.recommendations(rows), Seeding.effectiveStubSet(section));
  }

  /**
   * Seeds the section with the verdicts computed under the cache lock, from the records as they are
   * then: takes the cache lock (when an evaluation pass holds it, says so in the log at INFO and
   * waits), reads the ledger file, plans, applies the plan to {@code section}, has {@code writer}
   * write it when it changed, then marks the servers seeded. A server whose verdict is {@code
   * unknown} is neither seeded nor marked. Never turns the global sharing switch on.
   *
   * @param <E> what {@code writer} may throw
   * @param section the gateway's in-memory {@code mcp_gateway} section (changed in place)
   * @param verdicts computes the verdicts from the records under the lock
   * @param writer writes the section when it changed
   * @return what the seed did
   * @throws RecordsException if the cache lock or file cannot be used (nothing is marked)
   * @throws InterruptedException if interrupted while waiting for the cache lock
   * @throws E what {@code writer} threw (nothing is marked)
   */
  public <E extends Exception> SeedResult applySeed(
      Map<String, Object> section, SeedVerdicts verdicts, SectionWriter<E> writer)
      throws RecordsException, InterruptedException, E {
    return seedUnderLock(
        section,
        cache ->
            verdicts.of(HazardLedger.of(LedgerStore.read(records.ledgerFile())).readOnly(), cache),
        writer);
  }

  /**
   * As {@link #applySeed}, with verdicts the caller computed before (the facade's {@code seed},
   * from the gateway's own verdict rows).
   *
   * @param <E> what {@code writer} may throw
   * @param section the gateway's in-memory {@code mcp_gateway} section (changed in place)
   * @param verdicts the verdicts, one per server
   * @param writer writes the section when it changed
   * @return what the seed did
   * @throws RecordsException if the cache lock or file cannot be used (nothing is marked)
   * @throws InterruptedException if interrupted while waiting for the cache lock
   * @throws E what {@code writer} threw (nothing is marked)
   */
  public <E extends Exception> SeedResult seed(
      Map<String, Object> section, List<Verdict> verdicts, SectionWriter<E> writer)
      throws RecordsException, InterruptedException, E {
    List<Verdict> rows = List.copyOf(verdicts);
    return seedUnderLock(section, cache -> rows, writer);
  }

  private <E extends Exception> SeedResult seedUnderLock(
      Map<String, Object> section,
      Function<VerdictCache, List<Verdict>> verdicts,
      SectionWriter<E> writer)
      throws RecordsException, InterruptedException, E {
    Path file = records.cacheFile();
    CacheStore.Session markers = openCacheWaiting(file);
    SeedResult result;
    boolean marked = false;
    try {
      VerdictCache cache = markers.cache();
      List<Verdict> rows = List.copyOf(verdicts.apply(cache));
      Seeding.SeedPlan plan =
          Seeding.plan(
              cache.applied(),
              Seeding.recommendations(rows), // an unknown verdict is left for a later seed
              Seeding.effectiveStubSet(section));
      List<String> roster = Seeding.roster(section);
      Map<String, Boolean> before = Seeding.validOverrides(section);
      List<String> added = new ArrayList<>();
      List<String> kept = new ArrayList<>();
      for (String name : plan.addStub()) {
        (!roster.contains(name) && !before.containsKey(name) ? added : kept).add(name);
      }
      boolean changed = Seeding.apply(plan, section, cache::markApplied);
      if (changed) {
        writer.write(section); // what the gateway's own write throws passes as it is
      }
      boolean flushed;
      try {
        flushed = markers.flush();
      } catch (IOException e) {
        throw FileProblems.asRecordsException(e, file);
      }
      marked = true;
      result = new SeedResult(plan, changed ? added : List.of(), kept, changed, flushed);
    } finally {
      if (!marked) {
        closeQuietly(markers);
      }
    }
    try {
      markers.close();
    } catch (IOException e) {
      throw FileProblems.asRecordsException(e, file);
    }
    return result;
  }

  /**
   * The names already seeded into another gateway's file, as its markers file in the records
   * directory holds them; none without a file. For a plan.
   *
   * @param gateway the gateway
   * @return the names, in code-point order
   * @throws RecordsException if the markers file cannot be read, or is not a markers file (then it
   *     is {@linkplain RecordsException#isRefused() refused}: move it aside)
   */
  public Set<String> gatewaySeeded(GatewaySeeding.Gateway gateway) throws RecordsException {
    return new TreeSet<>(readMarkers(SeedMarkers.fileFor(records.path(), gateway)).seeded());
  }

  /**
   * Seeds another gateway's file: under the lock of its markers file in the records directory,
   * hands the markers to {@code edit} and records the names of the plan it applied. The records
   * directory is written only where nobody else can write
   * (docs/security.md#who-may-write-the-records-directory).
   *
   * @param <E> what {@code edit} may throw
   * @param gateway the gateway
   * @param edit plans and writes the gateway's file
   * @return whether new markers were written
   * @throws RecordsException if the records directory or the markers file cannot be used (nothing
   *     is recorded)
   * @throws InterruptedException if interrupted while waiting for the markers lock
   * @throws E what {@code edit} threw (nothing is recorded)
   */
  public <E extends Exception> boolean applyGatewaySeed(
      GatewaySeeding.Gateway gateway, GatewayEdit<E> edit)
      throws RecordsException, InterruptedException, E {
    Path given = SeedMarkers.fileFor(records.path(), gateway);
    Path file = given;
    FileLock lock;
    try {
      file = RecordsTrust.requireWritableFile(given);
      lock = FileLock.acquire(file);
    } catch (IOException e) {
      throw FileProblems.asRecordsException(e, file);
    }
    boolean marked;
    try {
      SeedMarkers markers = readMarkers(file);
      GatewaySeeding.Plan plan = Objects.requireNonNull(edit.edit(markers.seeded()), "plan");
      try {
        marked = markers.mark(plan.markSeeded());
      } catch (IOException e) {
        throw FileProblems.asRecordsException(e, file);
      }
    } finally {
      try {
        lock.close();
      } catch (IOException e) {
        log().debug("cannot release the markers lock", e);
      }
    }
    return marked;
  }

  private static SeedMarkers readMarkers(Path file) throws RecordsException {
    try {
      return SeedMarkers.read(file);
    } catch (BadInputException e) {
      throw new RecordsException(file, String.valueOf(e.getMessage()), false, true, null);
    } catch (IOException e) {
      throw FileProblems.asRecordsException(e, file);
    }
  }

  /** Takes the cache lock, saying so when an evaluation pass holds it. */
  private static CacheStore.Session openCacheWaiting(Path file)
      throws RecordsException, InterruptedException {
    try {
      CacheStore.Session session = CacheStore.open(file, Duration.ZERO);
      if (session == null) {
        log().info("waiting for the verdict cache lock (an evaluation pass is running)");
        session = CacheStore.open(file);
      }
      return session;
    } catch (IOException e) {
      throw FileProblems.asRecordsException(e, file);
    }
  }

  private static void closeQuietly(CacheStore.Session session) {
    try {
      session.close();
    } catch (IOException e) {
      log().debug("cannot release the cache lock", e);
    }
  }
}
