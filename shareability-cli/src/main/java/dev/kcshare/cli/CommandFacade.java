package dev.kcshare.cli;

import dev.kcshare.embed.Shareability;
import dev.kcshare.host.BadInputException;
import java.nio.file.Path;

/**
 * The embedding facade a command that reads the host's servers and their verdicts goes through,
 * built from the command's context: its environment, working directory and clock, and the records
 * directory {@code --records-dir} names. Close it when the command ends.
 */
final class CommandFacade {
  private CommandFacade() {}

  /** For a command that reads no records: the facade's records directory is never touched. */
  static Shareability of(CliContext ctx) {
    return build(ctx, ctx.cwd());
  }

  /**
   * For a command that reads the records: the directory the options name, resolved without the
   * trust warning, which the command's own {@link RecordsOptions#resolveForReading} still gives
   * where it always did. When the directory cannot be resolved yet (it comes from a Kiro Crew
   * configuration that cannot be read), the facade is over the working directory and reads no
   * records there: the command stops at its {@code resolveForReading} or earlier, with the message
   * it always gave.
   */
  static Shareability of(CliContext ctx, RecordsOptions records) {
    Path dir;
    try {
      dir = records.resolve(ctx).path();
    } catch (BadInputException e) {
      dir = ctx.cwd();
    }
    return build(ctx, dir);
  }

  private static Shareability build(CliContext ctx, Path records) {
    return Shareability.builder(records)
        .environment(ctx.env())
        .workingDirectory(ctx.cwd())
        .clock(ctx.clock())
        .build();
  }
}
