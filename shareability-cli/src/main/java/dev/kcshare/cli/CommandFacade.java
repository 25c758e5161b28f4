package dev.kcshare.cli;

import dev.kcshare.embed.Shareability;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.records.RecordReader;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.report.RecordViews;
import dev.kcshare.host.seeding.SeedService;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The embedding facade every command goes through, built in one place from the command's context:
 * its environment, working directory and clock, the records directory {@code --records-dir} (or its
 * defaults) names, and for a pass {@code --jobs} and {@code --timeout}. The command closes it when
 * it ends.
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

  /**
   * For a command that reads or writes the records in {@code dir}, resolved by {@link
   * RecordsOptions} (with its trust warning where the command reads).
   */
  static Shareability of(CliContext ctx, RecordsDirectory dir) {
    return builder(ctx, dir.path()).build();
  }

  /** For a pass: {@code --jobs} is the process ceiling and {@code --timeout} the probe timeout. */
  static Shareability forPasses(
      CliContext ctx, RecordsDirectory dir, int timeoutSeconds, int jobs) {
    return builder(ctx, dir.path())
        .processCeiling(jobs)
        .probeTimeout(Duration.ofSeconds(timeoutSeconds))
        .build();
  }

  /** The record files' views of the command's records directory. */
  static RecordViews views(RecordsDirectory dir) {
    return new RecordViews(dir, RecordReader.FILES);
  }

  /** Seeding over the command's records directory. */
  static SeedService seeds(RecordsDirectory dir) {
    return new SeedService(dir, RecordReader.FILES);
  }

  private static Shareability build(CliContext ctx, Path records) {
    return builder(ctx, records).build();
  }

  private static Shareability.Builder builder(CliContext ctx, Path records) {
    return Shareability.builder(records)
        .environment(ctx.env())
        .workingDirectory(ctx.cwd())
        .clock(ctx.clock());
  }
}
