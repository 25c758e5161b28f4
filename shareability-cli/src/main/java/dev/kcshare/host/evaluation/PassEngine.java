package dev.kcshare.host.evaluation;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.internal.Results;
import dev.kcshare.host.KcshareThreads;
import dev.kcshare.host.config.ConfigFormat;
import dev.kcshare.host.prober.ProbeOptions;
import dev.kcshare.host.prober.ProcessPermits;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.records.Fingerprints;
import dev.kcshare.host.records.ServerIdentity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What the passes of one embedding facade run on: the environment and working directory servers are
 * spawned with, the stdio prober (made by the first pass that needs it, under the process ceiling)
 * and the pass runner over it, and the identities of the servers an embedder describes itself.
 * Every thread its passes start comes from the facade's {@link KcshareThreads}. Thread-safe.
 */
public final class PassEngine implements AutoCloseable {
  private final Map<String, String> environment;
  private final Path workingDirectory;
  private final @Nullable Duration probeTimeout;
  private final int processCeiling;
  private final DoubleSupplier clock;
  private final KcshareThreads threads;
  private @Nullable StdioProber prober; // guarded by this
  private @Nullable EvaluationRunner runner; // guarded by this

  /**
   * An engine that has spawned nothing yet.
   *
   * @param environment the environment servers are spawned with
   * @param workingDirectory the directory they are spawned in, absolute
   * @param probeTimeout the handshake timeout, or null for the prober's default
   * @param processCeiling the most server processes alive at once
   * @param clock epoch seconds, as the record files keep them
   * @param threads makes every thread the passes start
   */
  public PassEngine(
      Map<String, String> environment,
      Path workingDirectory,
      @Nullable Duration probeTimeout,
      int processCeiling,
      DoubleSupplier clock,
      KcshareThreads threads) {
    this.environment = Map.copyOf(environment);
    this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
    this.probeTimeout = probeTimeout;
    this.processCeiling = processCeiling;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.threads = Objects.requireNonNull(threads, "threads");
  }

  /**
   * The pass runner, two processes per server at once.
   *
   * @return the runner, made on first use
   */
  public synchronized EvaluationRunner runner() {
    EvaluationRunner r = runner;
    if (r == null) {
      r = new EvaluationRunner(prober(), Math.max(1, processCeiling / 2), clock);
      runner = r;
    }
    return r;
  }

  /**
   * The stdio prober.
   *
   * @return the prober, made on first use
   */
  public synchronized StdioProber prober() {
    StdioProber p = prober;
    if (p == null) {
      ProbeOptions options = ProbeOptions.defaults();
      p =
          StdioProber.create(
              environment,
              workingDirectory,
              probeTimeout == null ? options : options.withTimeout(probeTimeout),
              ProcessPermits.of(processCeiling),
              threads);
      prober = p;
    }
    return p;
  }

  /**
   * The servers an embedder describes, with the cache identity of each stdio definition; the
   * definitions are named {@code <embedded>}, pointer {@code /N}, format {@code embedded}.
   * Blocking: hashes the command and every file argument.
   *
   * @param definitions the definitions, in the gateway's config order
   * @return one configured server per name, in order of first appearance
   */
  public List<ConfiguredServer> servers(List<ServerDefinition> definitions) {
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
          new Results.ConfiguredDefinition(
              d,
              "<embedded>",
              workingDirectory,
              "/" + i,
              ConfigFormat.EMBEDDED.id(),
              ConfigFormat.EMBEDDED.client(),
              identity,
              List.of()));
    }
    return ConfiguredServer.group(configured);
  }

  /**
   * The ledger launch identity of a backend spawned from a stdio definition
   * (docs/design.md#launch-identity). Blocking: hashes the command's binary.
   *
   * @param definition a stdio definition
   * @param identityKeys the gateway's caller-identity keys
   * @return {@code command_args_hash NUL env_hash NUL binary_version}
   * @throws IllegalArgumentException if the definition is not a stdio server
   */
  public String launchIdentity(ServerDefinition definition, Set<String> identityKeys) {
    String command = definition.command();
    if (command == null || !definition.isStdio()) {
      throw new IllegalArgumentException("not a stdio definition: " + definition.name());
    }
    return ServerIdentity.launchIdentity(
        command, definition.args(), definition.env(), identityKeys, fingerprints());
  }

  private Fingerprints fingerprints() {
    return new Fingerprints(environment.get("PATH"), workingDirectory);
  }

  /** Closes the prober if one was made: every process it spawned is torn down. */
  @Override
  public void close() {
    StdioProber made;
    synchronized (this) {
      made = prober;
    }
    if (made != null) {
      made.close();
    }
  }
}
