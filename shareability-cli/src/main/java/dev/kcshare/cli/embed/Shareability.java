package dev.kcshare.cli.embed;

import dev.kcshare.cli.config.ConfigFormat;
import dev.kcshare.cli.config.ConfiguredDefinition;
import dev.kcshare.cli.config.ConfiguredServer;
import dev.kcshare.cli.evaluate.EvaluationRunner;
import dev.kcshare.cli.evaluate.PassProgress;
import dev.kcshare.cli.evaluate.PassResult;
import dev.kcshare.cli.preflight.ProbeOptions;
import dev.kcshare.cli.preflight.ProcessPermits;
import dev.kcshare.cli.preflight.ServerDefinition;
import dev.kcshare.cli.preflight.StdioProber;
import dev.kcshare.cli.records.Fingerprints;
import dev.kcshare.cli.records.LedgerStore;
import dev.kcshare.cli.records.RecordsDirectory;
import dev.kcshare.cli.records.ServerIdentity;
import dev.kcshare.cli.report.ServerVerdict;
import dev.kcshare.cli.report.VerdictReport;
import dev.kcshare.core.policy.Selection;
import dev.kcshare.core.verdict.HostProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;

/**
 * The embedding facade: one object per records directory that gives a Java MCP gateway the hazard
 * ledger, verdicts for its servers, and evaluation passes.
 *
 * <pre>{@code
 * Shareability kc = Shareability.builder(Path.of("/var/lib/gateway/records")).build();
 * LedgerStore ledger = kc.openLedger();            // at start, before recording
 * ledger.record("files-mcp", "unroutable_server_request", launchIdentity); // event loop: cheap
 * ledger.flush();                                   // heartbeat thread: blocking I/O
 * List<ConfiguredServer> servers = kc.servers(definitions);   // off-loop: hashes files
 * List<ServerVerdict> rows = kc.verdicts(servers);  // reads each record file once
 * BackgroundPass pass = kc.startUncappedPass(servers);
 * }</pre>
 *
 * <p>Threading: {@link LedgerStore#record} and {@link BackgroundPass#progress()} are safe on an
 * event loop. Everything else here does blocking I/O or spawns processes and belongs on a worker
 * thread. Instances are thread-safe.
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

  private Shareability(Builder b) {
    this.records = new RecordsDirectory(b.recordsDirectory, RecordsDirectory.Rule.OPTION);
    this.environment = Map.copyOf(b.environment);
    this.workingDirectory = b.workingDirectory;
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
  }

  /** A builder for the records directory the gateway uses (where both record files live). */
  public static Builder builder(Path recordsDirectory) {
    return new Builder(recordsDirectory);
  }

  /** The records directory. */
  public RecordsDirectory records() {
    return records;
  }

  /**
   * A ledger writer on this records directory, loaded from its file: record from the routing path,
   * flush from a heartbeat and once on shutdown. Create one per process.
   */
  public LedgerStore openLedger() {
    LedgerStore store = new LedgerStore(records.ledgerFile(), clock);
    store.load();
    return store;
  }

  /**
   * Turns the gateway's definitions into configured servers with their execution identities
   * (blocking: hashes the command and file arguments). Definitions sharing a name are grouped in
   * order; a name whose definitions disagree on identity gets no pre-flight evidence.
   */
  public List<ConfiguredServer> servers(List<ServerDefinition> definitions) {
    Fingerprints fingerprints = new Fingerprints(environment.get("PATH"), workingDirectory);
    Map<String, List<ConfiguredDefinition>> byName = new LinkedHashMap<>();
    for (int i = 0; i < definitions.size(); i++) {
      ServerDefinition d = definitions.get(i);
      String command = d.command();
      String identity =
          d.isStdio() && command != null
              ? ServerIdentity.cacheIdentity(command, d.args(), d.env(), fingerprints)
              : null;
      byName
          .computeIfAbsent(d.name(), k -> new ArrayList<>())
          .add(
              new ConfiguredDefinition(
                  d,
                  "<embedded>",
                  workingDirectory,
                  "/" + i,
                  ConfigFormat.EMBEDDED,
                  d.isStdio(),
                  identity,
                  List.of()));
    }
    List<ConfiguredServer> out = new ArrayList<>();
    for (Map.Entry<String, List<ConfiguredDefinition>> e : byName.entrySet()) {
      out.add(new ConfiguredServer(e.getKey(), e.getValue()));
    }
    return out;
  }

  /**
   * Every server's verdict from config and records: reads each record file exactly once per call,
   * then builds every row with no further I/O. Never spawns.
   */
  public List<ServerVerdict> verdicts(List<ConfiguredServer> servers) {
    return VerdictReport.load(records).verdicts(servers, profile, identityKeys);
  }

  /**
   * The same, over a live ledger's in-memory state (so a hazard recorded a moment ago counts before
   * it is flushed) and the cache file.
   */
  public List<ServerVerdict> verdicts(List<ConfiguredServer> servers, LedgerStore liveLedger) {
    return VerdictReport.of(liveLedger.ledger(), VerdictReport.load(records).cache())
        .verdicts(servers, profile, identityKeys);
  }

  /**
   * A budgeted pass for a request path: measures at most {@link Selection#MAX_EVALUATIONS_PER_PASS}
   * servers and NEVER waits for another pass — when one is running it measures nothing and returns
   * the stored rows. It does spawn and wait for the servers it measures, so call it from a worker
   * thread.
   */
  public PassResult budgetedPass(List<ConfiguredServer> servers)
      throws IOException, InterruptedException {
    return runner()
        .run(
            servers,
            records.cacheFile(),
            EvaluationRunner.Options.budgeted(Selection.MAX_EVALUATIONS_PER_PASS),
            p -> {});
  }

  /**
   * Starts an uncapped pass on a new daemon thread and returns its handle at once. The pass waits
   * for any pass already running on this records directory (in this or another process).
   */
  public BackgroundPass startUncappedPass(List<ConfiguredServer> servers) {
    return startUncappedPass(servers, p -> {});
  }

  /** As {@link #startUncappedPass(List)}, also reporting each progress step to {@code listener}. */
  public BackgroundPass startUncappedPass(
      List<ConfiguredServer> servers, PassProgress.Listener listener) {
    List<ConfiguredServer> snapshot = List.copyOf(servers);
    AtomicReference<PassProgress> progress = new AtomicReference<>(new PassProgress(true, 0, 0, 0));
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread t = new Thread(task, "kcshare-uncapped-pass");
              t.setDaemon(true);
              return t;
            });
    Future<PassResult> future =
        thread.submit(
            () ->
                runner()
                    .run(
                        snapshot,
                        records.cacheFile(),
                        EvaluationRunner.Options.uncapped(true),
                        p -> {
                          progress.set(p);
                          listener.onProgress(p);
                        }));
    thread.shutdown();
    return new BackgroundPass(progress, future);
  }

  private EvaluationRunner runner() {
    return new EvaluationRunner(prober, workers, clock);
  }

  /** Configures a {@link Shareability}; every setting has a default except the directory. */
  public static final class Builder {
    private final Path recordsDirectory;
    private Map<String, String> environment = System.getenv();
    private Path workingDirectory = Path.of("").toAbsolutePath();
    private DoubleSupplier clock = () -> System.currentTimeMillis() / 1000.0;
    private HostProfile profile = HostProfile.empty();
    private Set<String> identityKeys = Set.of();
    private int processCeiling = ProcessPermits.DEFAULT_CEILING;
    private Duration probeTimeout = ProbeOptions.DEFAULT_TIMEOUT;

    private Builder(Path recordsDirectory) {
      this.recordsDirectory = Objects.requireNonNull(recordsDirectory, "recordsDirectory");
    }

    /** The environment servers inherit under their declared env, and whose PATH finds commands. */
    public Builder environment(Map<String, String> environment) {
      this.environment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    /** Where relative commands and file arguments resolve. */
    public Builder workingDirectory(Path workingDirectory) {
      this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
      return this;
    }

    /** Wall-clock epoch seconds (injectable for tests). */
    public Builder clock(DoubleSupplier clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The host profile (managed-server classification); empty by default. */
    public Builder hostProfile(HostProfile profile) {
      this.profile = Objects.requireNonNull(profile, "profile");
      return this;
    }

    /**
     * The resolved {@code pool_identity_env} names (see {@link
     * dev.kcshare.core.verdict.IdentityKeys#resolve}).
     */
    public Builder identityKeys(Set<String> identityKeys) {
      this.identityKeys = Objects.requireNonNull(identityKeys, "identityKeys");
      return this;
    }

    /** Most live server processes across a pass (default 8). */
    public Builder processCeiling(int processCeiling) {
      if (processCeiling < 1) {
        throw new IllegalArgumentException("processCeiling must be at least 1: " + processCeiling);
      }
      this.processCeiling = processCeiling;
      return this;
    }

    /** The per-response pre-flight timeout, 5 to 120 seconds (default 15). */
    public Builder probeTimeout(Duration probeTimeout) {
      this.probeTimeout = Objects.requireNonNull(probeTimeout, "probeTimeout");
      return this;
    }

    public Shareability build() {
      return new Shareability(this);
    }
  }
}
