package dev.kcshare.cli;

import dev.kcshare.cli.config.KiroCrewConfig;
import dev.kcshare.cli.records.RecordsDirectory;
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

  RecordsDirectory resolve(CliContext ctx) {
    RecordsDirectory dir = resolveLexically(ctx);
    return new RecordsDirectory(ctx.cwd().resolve(dir.path()).normalize(), dir.rule());
  }

  private RecordsDirectory resolveLexically(CliContext ctx) {
    String socket = null;
    boolean overridden =
        (recordsDir != null && !recordsDir.isEmpty())
            || !ctx.env().getOrDefault("KCSHARE_RECORDS_DIR", "").isEmpty();
    if (!overridden) {
      socket = KiroCrewConfig.socketPath(KiroCrewConfig.configFile(ctx.env()));
    }
    return RecordsDirectory.resolve(
        recordsDir, ctx.env(), socket, KiroCrewConfig.userHome(ctx.env()));
  }
}
