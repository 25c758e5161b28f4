package dev.kcshare.cli;

import dev.kcshare.core.json.JsonWriter;
import org.jspecify.annotations.Nullable;

/** Writes command results to stdout as JSON (the record-file style: 2-space indent, ASCII). */
final class Output {
  private Output() {}

  static void json(CliContext ctx, @Nullable Object value) {
    ctx.out().print(JsonWriter.pretty(value));
    ctx.out().flush();
  }
}
