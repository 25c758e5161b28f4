package dev.kcshare.cli;

import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.config.KiroCrewConfig;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.records.RecordsTrust;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The {@code --records-dir} option shared by every command that touches the record files. */
final class RecordsOptions {
  @Option(
      names = "--records-dir",
      paramLabel = "DIR",
      description =
          "Where observed-hazards.json and shareability-verdicts.json live. Default:"
              + " $KCSHARE_RECORDS_DIR, else the parent of mcp_gateway.socket_path in the Kiro"
              + " Crew config, else $KIROCREW_HOME/mcp-gateway, else ~/.kiro/crew/mcp-gateway.")
  @Nullable String recordsDir;

  /** The directory as this command resolved it (a command resolves it once), or null. */
  private @Nullable RecordsDirectory resolved;

  /**
   * The records directory: {@code --records-dir}, else the defaults in order. Resolved once per
   * command: a later call returns the same directory without reading the Kiro Crew configuration
   * again, so every step of the command uses the same one.
   *
   * @throws dev.kcshare.host.BadInputException when the Kiro Crew configuration that names it
   *     cannot be read (not remembered: each call says so)
   */
  RecordsDirectory resolve(CliContext ctx) {
    RecordsDirectory dir = resolved;
    if (dir == null) {
      RecordsDirectory lexical = resolveLexically(ctx);
      dir =
          new RecordsDirectory(
              RecordsDirectory.withoutDotSegments(ctx.cwd().resolve(lexical.path())),
              lexical.rule());
      resolved = dir;
    }
    return dir;
  }

  /**
   * {@link #resolve} for a command that only reads the records: when kcshare would refuse to write
   * the directory (docs/formats.md#who-may-write-the-records-directory), it says so in one warning
   * and reads it all the same.
   */
  RecordsDirectory resolveForReading(CliContext ctx) {
    RecordsDirectory dir = resolve(ctx);
    String refusal = RecordsTrust.readWarningOnce(dir.path());
    if (refusal != null) {
      ctx.err()
          .println(
              "kcshare: warning: "
                  + Escaper.esc(refusal, Escaper.LONG_LIMIT)
                  + " (read anyway; nothing is written there until then)");
      ctx.err().flush();
    }
    return dir;
  }

  private RecordsDirectory resolveLexically(CliContext ctx) {
    String socket = null;
    boolean overridden =
        (recordsDir != null && !recordsDir.isEmpty())
            || !ctx.env().getOrDefault("KCSHARE_RECORDS_DIR", "").isEmpty();
    if (!overridden) {
      socket = KiroCrewConfig.socketPath(ctx.reads(), KiroCrewConfig.configFile(ctx.env()));
    }
    return RecordsDirectory.resolve(
        recordsDir, ctx.env(), socket, KiroCrewConfig.userHome(ctx.env()));
  }
}
