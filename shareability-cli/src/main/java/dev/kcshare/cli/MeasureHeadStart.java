package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.config.HostConfig;
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
 * spawned, each in its own process group, with the pass's shutdown hook installed first; the cache
 * is read while they start, and a cache file the pass would have to leave as it is ends the head
 * start (its processes torn down, the lock released) before the ordinary path reports it. {@link
 * MeasureCommand} takes it over when its own reading of the command line is the same; otherwise
 * {@link #close()} ends it: the pre-flight is stopped and its processes torn down, the lock
 * released.
 */
final class MeasureHeadStart implements AutoCloseable {
  private final MeasureLine line;
  private final HostConfig host;
  private final RecordsDirectory dir;
  private final Shareability facade;
  private final PassHook hook;
  private boolean taken;

  private MeasureHeadStart(
      MeasureLine line, HostConfig host, RecordsDirectory dir, Shareability facade, PassHook hook) {
    this.line = line;
    this.host = host;
    this.dir = dir;
    this.facade = facade;
    this.hook = hook;
  }

  /** The pre-flight of a plain {@code measure SERVER} line, begun; null for any other line. */
  static @Nullable MeasureHeadStart begin(CliContext ctx, String... args) {
    MeasureLine line = MeasureLine.parse(args);
    if (line == null) {
      return null;
    }
    PassHook hook = null;
    Shareability facade = null;
    try {
      RecordsOptions records = new RecordsOptions();
      records.recordsDir = line.recordsDir();
      RecordsDirectory dir = records.resolve(ctx);
      facade = CommandFacade.forPasses(ctx, dir, line.timeoutSeconds(), line.jobs());
      HostConfig host = HostConfig.of(facade.hostServers(line.config())).requireValid();
      ConfiguredServer server = host.require(List.of(line.name())).get(0);
      if (server.isConflicting()) {
        end(facade, null);
        return null;
      }
      hook = PassHook.install();
      if (!facade.beginPass(server, MeasureCommand.options(false, line.noWait(), false))) {
        end(facade, hook);
        return null;
      }
      return new MeasureHeadStart(line, host, dir, facade, hook);
    } catch (IOException | RuntimeException e) {
      // The ordinary path meets the same problem and reports it in its own words.
      end(facade, hook);
      return null;
    } catch (InterruptedException e) {
      end(facade, hook);
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static void end(@Nullable Shareability facade, @Nullable PassHook hook) {
    if (facade != null) {
      facade.close();
    }
    if (hook != null) {
      hook.ended();
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

  /** The facade the pre-flight was begun on; its next pass of this line continues it. */
  Shareability facade() {
    return facade;
  }

  PassHook hook() {
    return hook;
  }

  /**
   * Ends the head start, once the command is done with it: closes its facade, so a pre-flight
   * nobody awaited (the command did not take it, or failed before its pass) is stopped and torn
   * down, and a lock no pass took over is released; after a pass that continued it, nothing else is
   * left to do.
   */
  @Override
  public void close() {
    end(facade, hook);
  }
}
