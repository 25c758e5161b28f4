package dev.kcshare.embed;

import dev.kcshare.core.policy.Selection;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.host.config.ConfigFormat;
import dev.kcshare.host.config.ConfiguredDefinition;
import dev.kcshare.host.config.ConfiguredServer;
import dev.kcshare.host.evaluation.EvaluationRunner;
import dev.kcshare.host.evaluation.PassProgress;
import dev.kcshare.host.evaluation.PassResult;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.prober.ProcessPermits;
import dev.kcshare.host.prober.ServerDefinition;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.records.Fingerprints;
import dev.kcshare.host.records.LedgerStore;
import dev.kcshare.host.records.RecordReader;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.records.ServerIdentity;
import dev.kcshare.host.report.ServerVerdict;
import dev.kcshare.host.report.VerdictReport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;

/**
 * The embedding facade: one object per records directory that gives a Java MCP gateway the hazard
 * ledger, verdicts for its servers, and evaluation passes. See {@code docs/embedding.md}.
 *
 * <pre>{@code
 * Shareability kc = Shareability.builder(Path.of("/var/lib/gateway/records")).build();
 * LedgerStore ledger = kc.openLedger();                       // at start, before recording
 * String identity = kc.launchIdentity(definition);            // when spawning a backend (blocking)
 * ledger.record("files-mcp", "unroutable_server_request", identity); // routing path: cheap
 * ledger.flush();                                             // heartbeat thread: blocking I/O
 * List<ConfiguredServer> servers = kc.servers(definitions);   // off-loop: hashes files
 * List<ServerVerdict> rows = kc.verdicts(servers);            // reads each record file once
 * BackgroundPass pass = kc.startUncappedPass(servers);        // returns at once
 * }</pre>
 *
 * <p>Threading: {@link LedgerStore#record} and {@link BackgroundPass#progress()} are safe on an
 * event loop. Everything on this class does blocking I/O or spawns processes and belongs on a
 * worker thread. Instances are immutable and thread-safe; create one per records directory and
 * share it.
 */
public final class Shareability {
  private final RecordsDirectory records;
  private final Map<String, String> environment;
  private final Path workingDirectory;
  private final DoubleSupplier clock;
  private final HostProfile profile;
  private final Set<String> identityKeys;
  private final StdioProber prober;
  private final int workers;
  private final RecordReader reader;

  private Shareability(Builder b) {
    this.records = new RecordsDirectory(b.recordsDirectory, RecordsDirectory.Rule.OPTION);
    this.environment = Map.copyOf(b.environment);
    this.workingDirectory = b.workingDirectory.toAbsolutePath();
    this.clock = b.clock;
    this.profile = b.profile;
    this.identityKeys = Set.copyOf(b.identityKeys);
    this.prober =
        StdioProber.create(
            environment,
            workingDirectory,
            ProbeOptions.defaults().withTimeout(b.probeTimeout),
            ProcessPermits.of(b.processCeiling));
    this.workers = Math.max(1, b.processCeiling / 2);
    this.reader = b.reader;
  }

  /**
   * A builder for the records directory the gateway uses (where both record files live). kcshare
   * creates the directory (mode 0700) on its first write; nothing is created before.
   *
   * @param recordsDirectory the directory holding {@code observed-hazards.json} and {@code
   *     shareability-verdicts.json}; share it with the {@code kcshare} command ({@code
   *     --records-dir}) so both see the same records
   * @return a builder with every other setting at its default
   */
  public static Builder builder(Path recordsDirectory) {
    return new Builder(recordsDirectory);
  }

  /**
   * The records directory.
   *
   * @return the directory and its two file paths
   */
  public RecordsDirectory records() {
    return records;
  }

  /**
   * A ledger writer on this records directory, loaded from its file so a restart does not forget
   * what was observed. Record from the routing path (only for a SHARED backend), flush from a
   * heartbeat and once on shutdown. Create one per process, at start, before recording. Blocking:
   * reads the ledger file.
   *
   * @return the loaded ledger writer
   */
  public LedgerStore openLedger() {
    return new LedgerStore(records.ledgerFile(), clock);
  }

  /**
   * Turns the gateway's definitions into configured servers with their verdict-cache execution
   * identities (records spec §7.4). Definitions sharing a name are grouped in order; a name whose
   * definitions disagree on identity gets no pre-flight evidence. Blocking: hashes the command and
   * every file argument, so compute it off the event loop, when the configuration changes.
   *
   * @param definitions the gateway's server definitions, in its config order
   * @return one configured server per name, in order of first appearance
   */
  public List<ConfiguredServer> servers(List<ServerDefinition> definitions) {
    requireElements(definitions, "definitions");
    Fingerprints fingerprints = fingerprints();
    List<ConfiguredDefinition> configured = new ArrayList<>(definitions.size());
    for (int i = 0; i < definitions.size(); i++) {
      ServerDefinition d = definitions.get(i);
      String command = d.command();
      String identity =
          d.isStdio() && command != null
              ? ServerIdentity.cacheIdentity(command, d.args(), d.env(), fingerprints)
              : null;
      configured.add(
          new ConfiguredDefinition(
              d,
              "<embedded>",
              workingDirectory,
              "/" + i,
              ConfigFormat.EMBEDDED,
              identity,
              List.of()));
    }
    return ConfiguredServer.group(configured);
  }

  /**
   * The ledger launch identity (records spec §7.5) of a backend spawned from {@code definition}:
   * the command resolved on the configured {@code PATH} to an absolute path (kept as given when the
   * lookup fails) with its arguments, the declared env hashed WITH the identity keys, and the
   * fingerprint of the command only. Blocking: hashes the command's binary. Compute it once when
   * the backend is spawned and keep it with the backend, so the routing path stamps it without I/O.
   *
   * <pre>{@code
   * String identity = kc.launchIdentity(definition);   // at spawn, on a worker thread
   * // later, on the routing path, for a shared backend only:
   * ledger.record(definition.name(), HazardCodes.UNROUTABLE_SERVER_REQUEST, identity);
   * }</pre>
   *
   * @param definition a stdio definition (one with a command)
   * @return {@code command_args_hash NUL env_hash NUL binary_version}
   * @throws IllegalArgumentException if the definition has no command
   */
  public String launchIdentity(ServerDefinition definition) {
    Objects.requireNonNull(definition, "definition");
    String command = definition.command();
    if (command == null) {
      throw new IllegalArgumentException("not a stdio definition: " + definition.name());
    }
    return ServerIdentity.launchIdentity(
        command, definition.args(), definition.env(), identityKeys, fingerprints());
  }

  /**
   * Every server's verdict from config and the record files (engine spec §8): reads each record
   * file exactly once per call, then builds every row with no further I/O, so the rows of one call
   * agree about the files. Never spawns. Blocking: call it off the event loop and hand the rows to
   * the renderer.
   *
   * @param servers the configured servers ({@link #servers})
   * @return one row per server, in the given order
   */
  public List<ServerVerdict> verdicts(List<ConfiguredServer> servers) {
    requireElements(servers, "servers");
    return VerdictReport.load(records, reader, VerdictReport.namesOf(servers))
        .verdicts(servers, profile, identityKeys);
  }

  /**
   * As {@link #verdicts(List)}, over a live ledger's in-memory state instead of the ledger file, so
   * a hazard recorded a moment ago counts before it is flushed. Reads only the cache file, exactly
   * once.
   *
   * @param servers the configured servers
   * @param liveLedger the gateway's ledger writer ({@link #openLedger()})
   * @return one row per server, in the given order
   */
  public List<ServerVerdict> verdicts(List<ConfiguredServer> servers, LedgerStore liveLedger) {
    requireElements(servers, "servers");
    Objects.requireNonNull(liveLedger, "liveLedger");
    return VerdictReport.live(liveLedger.ledger(), records, reader, VerdictReport.namesOf(servers))
        .verdicts(servers, profile, identityKeys);
  }

  /**
   * A budgeted pass for a request path (engine spec §10.5, §10.7): measures at most {@link
   * Selection#MAX_EVALUATIONS_PER_PASS} due servers and NEVER waits for another pass — when one is
   * running it measures nothing and returns {@link PassResult.Outcome#YIELDED} with the stored rows
   * read by name. It does spawn and wait for the servers it measures, so call it from a worker
   * thread, and swallow (log) its failures: the request's own answer must not be lost to a
   * shareability problem.
   *
   * @param servers the configured servers, in config order
   * @return what the pass did: {@code RAN} or {@code YIELDED}
   * @throws IOException when the lock or the final write fails (kcshare's own failure)
   * @throws InterruptedException when the calling thread is interrupted; the rows measured so far
   *     are saved first
   */
  public PassResult budgetedPass(List<ConfiguredServer> servers)
      throws IOException, InterruptedException {
    requireElements(servers, "servers");
    return runner()
        .run(
            servers,
            records.cacheFile(),
            EvaluationRunner.Options.budgeted(Selection.MAX_EVALUATIONS_PER_PASS),
            p -> {});
  }

  /**
   * Starts an uncapped pass (the operator's "measure all") on a new daemon thread and returns its
   * handle at once. The pass waits for any pass already running on this records directory, in this
   * process or another, then measures every due server under the process ceiling and flushes once.
   *
   * @param servers the configured servers, in config order (copied)
   * @return the handle: progress, cancel, await
   */
  public BackgroundPass startUncappedPass(List<ConfiguredServer> servers) {
    return startUncappedPass(servers, p -> {});
  }

  /**
   * As {@link #startUncappedPass(List)}, also reporting each progress step to {@code listener}.
   *
   * @param servers the configured servers, in config order (copied)
   * @param listener called on the pass's thread after each completed server and once at the end; it
   *     must not block, and a failing listener is ignored
   * @return the handle: progress, cancel, await
   */
  public BackgroundPass startUncappedPass(
      List<ConfiguredServer> servers, PassProgress.Listener listener) {
    requireElements(servers, "servers");
    Objects.requireNonNull(listener, "listener");
    List<ConfiguredServer> snapshot = List.copyOf(servers);
    AtomicReference<PassProgress> progress = new AtomicReference<>(new PassProgress(true, 0, 0, 0));
    return BackgroundPass.start(
        progress,
        () ->
            runner()
                .run(
                    snapshot,
                    records.cacheFile(),
                    EvaluationRunner.Options.uncapped(true),
                    p -> {
                      progress.set(p);
                      listener.onProgress(p);
                    }),
        "kcshare-uncapped-pass");
  }

  /** Checks a list argument and its elements at the call, naming the parameter. */
  private static void requireElements(List<?> list, String parameter) {
    Objects.requireNonNull(list, parameter);
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == null) {
        throw new NullPointerException(parameter + "[" + i + "]");
      }
    }
  }

  private EvaluationRunner runner() {
    return new EvaluationRunner(prober, workers, clock);
  }

  private Fingerprints fingerprints() {
    return new Fingerprints(environment.get("PATH"), workingDirectory);
  }

  /**
   * Configures a {@link Shareability}; every setting has a default except the directory.
   *
   * <pre>{@code
   * Shareability kc =
   *     Shareability.builder(recordsDir)
   *         .hostProfile(HostProfile.empty())
   *         .identityKeys(IdentityKeys.resolve(section.get("pool_identity_env")))
   *         .processCeiling(8)
   *         .build();
   * }</pre>
   */
  public static final class Builder {
    private final Path recordsDirectory;
    private Map<String, String> environment = System.getenv();
    private Path workingDirectory = Path.of("").toAbsolutePath();
    private DoubleSupplier clock = () -> System.currentTimeMillis() / 1000.0;
    private HostProfile profile = HostProfile.empty();
    private Set<String> identityKeys = Set.of();
    private int processCeiling = ProcessPermits.DEFAULT_CEILING;
    private Duration probeTimeout = ProbeOptions.DEFAULT_TIMEOUT;
    private RecordReader reader = RecordReader.FILES;

    private Builder(Path recordsDirectory) {
      this.recordsDirectory = Objects.requireNonNull(recordsDirectory, "recordsDirectory");
    }

    /**
     * The environment servers inherit under their declared env, and whose {@code PATH} finds
     * commands (default: this process's environment).
     *
     * @param environment the base environment (copied)
     * @return this builder
     */
    public Builder environment(Map<String, String> environment) {
      Objects.requireNonNull(environment, "environment");
      environment.forEach(
          (k, v) -> {
            if (k == null || v == null) {
              throw new NullPointerException("environment entry");
            }
          });
      this.environment = environment;
      return this;
    }

    /**
     * Where relative commands and file arguments resolve (default: this process's current
     * directory).
     *
     * @param workingDirectory the directory
     * @return this builder
     */
    public Builder workingDirectory(Path workingDirectory) {
      this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
      return this;
    }

    /**
     * Wall-clock epoch seconds, for {@code lastSeen}, clear markers and {@code evaluatedAt}
     * (injectable for tests).
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(DoubleSupplier clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The host profile (managed-server classification, engine spec §7); empty by default, which
     * claims no name either way.
     *
     * @param profile the profile
     * @return this builder
     */
    public Builder hostProfile(HostProfile profile) {
      this.profile = Objects.requireNonNull(profile, "profile");
      return this;
    }

    /**
     * The resolved {@code pool_identity_env} names (see {@link
     * dev.kcshare.core.verdict.IdentityKeys#resolve}); empty by default.
     *
     * @param identityKeys the names (copied)
     * @return this builder
     */
    public Builder identityKeys(Set<String> identityKeys) {
      Objects.requireNonNull(identityKeys, "identityKeys");
      for (String key : identityKeys) {
        Objects.requireNonNull(key, "identityKeys element");
      }
      this.identityKeys = identityKeys;
      return this;
    }

    /**
     * Most live server processes across a pass (default 8); each measured server needs two at once.
     *
     * @param processCeiling at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code processCeiling} is below 1
     */
    public Builder processCeiling(int processCeiling) {
      if (processCeiling < 1) {
        throw new IllegalArgumentException("processCeiling must be at least 1: " + processCeiling);
      }
      this.processCeiling = processCeiling;
      return this;
    }

    /**
     * The per-response pre-flight timeout (default 15 s).
     *
     * @param probeTimeout 5 to 120 seconds
     * @return this builder
     * @throws IllegalArgumentException if {@code probeTimeout} is outside 5 to 120 seconds
     */
    public Builder probeTimeout(Duration probeTimeout) {
      Objects.requireNonNull(probeTimeout, "probeTimeout");
      ProbeOptions.defaults().withTimeout(probeTimeout); // refuses a value outside 5 to 120 s now
      this.probeTimeout = probeTimeout;
      return this;
    }

    /** How record files are read; an instrumentation seam for tests. */
    Builder recordReader(RecordReader reader) {
      this.reader = Objects.requireNonNull(reader, "reader");
      return this;
    }

    /**
     * Builds the facade. Creates nothing on disk and spawns nothing.
     *
     * @return the facade
     * @throws IllegalArgumentException if the probe timeout is outside 5 to 120 seconds
     */
    public Shareability build() {
      return new Shareability(this);
    }
  }
}
