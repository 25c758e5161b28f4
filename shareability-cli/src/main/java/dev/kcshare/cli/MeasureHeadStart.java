package dev.kcshare.cli;

import dev.kcshare.embed.ConfiguredServer;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.HostConfigLoader;
import dev.kcshare.host.evaluation.EvaluationRunner;
import dev.kcshare.host.prober.StdioProber;
import dev.kcshare.host.records.RecordsDirectory;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code kcshare measure SERVER}, begun before picocli has built its command model: the JVM's own
 * start-up then overlaps the server's instead of coming before it (docs/performance.md).
 *
 * <p>Only a plain command line is begun ({@link MeasureLine}), and only when the command would
 * spawn the server at once: the configuration is valid, the server is configured, its definitions
 * do not conflict and it may be spawned, the records directory resolves and the cache lock is free
 * now. Everything else — a bad configuration, an unknown or refused server, another pass holding
 * the lock — takes the ordinary path, which then fails, reports, waits or refuses exactly as it
 * always did, having spawned nothing early. What is begun is what the ordinary path does first:
 * leftovers of a killed pass reaped, the lock taken, the spawn registry opened, both identities
 * spawned, each in its own process group, with the pass's shutdown hook installed first. {@link
 * MeasureCommand} takes it over when its own reading of the command line is the same; otherwise
 * {@link #close()} ends it: the pre-flight is stopped and its processes torn down, the lock
 * released.
 */
final class MeasureHeadStart implements AutoCloseable {
  private final MeasureLine line;
  private final HostConfig host;
  private final RecordsDirectory dir;
  private final EvaluationRunner runner;
  private final EvaluationRunner.HeadStart head;
  private final PassHook hook;
  private boolean taken;

  private MeasureHeadStart(
      MeasureLine line,
      HostConfig host,
      RecordsDirectory dir,
      EvaluationRunner runner,
      EvaluationRunner.HeadStart head,
      PassHook hook) {
    this.line = line;
    this.host = host;
    this.dir = dir;
    this.runner = runner;
    this.head = head;
    this.hook = hook;
  }

  /** The pre-flight of a plain {@code measure SERVER} line, begun; null for any other line. */
  static @Nullable MeasureHeadStart begin(CliContext ctx, String... args) {
    MeasureLine line = MeasureLine.parse(args);
    if (line == null) {
      return null;
    }
    PassHook hook = null;
    try {
      HostConfig host = HostConfigLoader.load(ctx.host(), line.config()).requireValid();
      ConfiguredServer server = host.require(List.of(line.name())).get(0);
      if (server.isConflicting()) {
        return null;
      }
      RecordsOptions records = new RecordsOptions();
      records.recordsDir = line.recordsDir();
      RecordsDirectory dir = records.resolve(ctx);
      StdioProber prober = MeasureCommand.prober(ctx, line.timeoutSeconds(), line.jobs());
      EvaluationRunner runner = MeasureCommand.runner(ctx, prober, line.jobs());
      hook = PassHook.install();
      EvaluationRunner.HeadStart head =
          runner.startEarly(
              server, dir.cacheFile(), MeasureCommand.options(false, line.noWait(), false));
      if (head == null) {
        hook.ended();
        return null;
      }
      return new MeasureHeadStart(line, host, dir, runner, head, hook);
    } catch (IOException | RuntimeException e) {
      // The ordinary path meets the same problem and reports it in its own words.
      if (hook != null) {
        hook.ended();
      }
      return null;
    } catch (InterruptedException e) {
      if (hook != null) {
        hook.ended();
      }
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /**
   * This head start, for the command that read its command line as {@code parsed}: the same line
   * (else null, and {@link #close()} ends it). Taken once.
   */
  @Nullable MeasureHeadStart takeFor(@Nullable MeasureLine parsed) {
    if (taken || !line.equals(parsed)) {
      return null;
    }
    taken = true;
    return this;
  }

  /** The command line read. */
  MeasureLine line() {
    return line;
  }

  /** The configuration loaded for the line (warnings not yet shown). */
  HostConfig host() {
    return host;
  }

  /** The records directory resolved for the line. */
  RecordsDirectory dir() {
    return dir;
  }

  EvaluationRunner runner() {
    return runner;
  }

  EvaluationRunner.HeadStart head() {
    return head;
  }

  PassHook hook() {
    return hook;
  }

  /**
   * Ends the head start, once the command is done with it: a pre-flight nobody awaited (the command
   * did not take it, or failed before its pass) is stopped and torn down, and a lock no pass took
   * over is released; after a pass that continued it, nothing is left to do.
   */
  @Override
  public void close() {
    head.close();
    hook.ended();
  }
}
