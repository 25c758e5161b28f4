package dev.kcshare.cli;

import dev.kcshare.host.BadInputException;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** Reads JSON documents the user names on the command line ({@code -} = standard input). */
final class InputFiles {
  /** Larger inputs are refused rather than read into memory. */
  static final int MAX_INPUT_BYTES = 256 * 1024 * 1024;

  /**
   * Nesting limit for user-supplied documents. The reader and everything downstream are iterative,
   * so this only bounds memory; it is far above any real handshake.
   */
  static final int INPUT_DEPTH_LIMIT = 200_000;

  private static final JsonReader READER = JsonReader.withDepthLimit(INPUT_DEPTH_LIMIT);

  private InputFiles() {}

  /** How a source is named in messages: the path as given, or {@code <stdin>}. */
  static String displayName(String source) {
    return "-".equals(source) ? "<stdin>" : source;
  }

  /**
   * Reads and parses one JSON document.
   *
   * @throws BadInputException naming the source when it cannot be read or is not JSON
   */
  static @Nullable Object readJson(CliContext ctx, String source) {
    byte[] bytes = readBytes(ctx, source);
    try {
      // Through the validating scanner, which words every problem itself (with line and column):
      // a parser library's own message never reaches the operator.
      return READER.parse(new ByteArrayInputStream(bytes));
    } catch (JsonSyntaxException e) {
      throw new BadInputException(displayName(source) + ": not valid JSON: " + e.describe());
    } catch (IOException e) {
      throw new IllegalStateException("reading bytes already in memory", e);
    }
  }

  private static byte[] readBytes(CliContext ctx, String source) {
    try {
      if ("-".equals(source)) {
        return readBounded(ctx.in(), source);
      }
      Path path = ctx.resolve(source);
      if (Files.isDirectory(path)) {
        throw new BadInputException(source + ": is a directory, expected a JSON file");
      }
      try (InputStream in = Files.newInputStream(path)) {
        return readBounded(in, source);
      }
    } catch (NoSuchFileException e) {
      throw new BadInputException(source + ": no such file");
    } catch (IOException e) {
      throw new BadInputException(
          displayName(source) + ": cannot read: " + dev.kcshare.host.FileProblems.reason(e), e);
    }
  }

  private static byte[] readBounded(InputStream in, String source) throws IOException {
    byte[] bytes = in.readNBytes(MAX_INPUT_BYTES + 1);
    if (bytes.length > MAX_INPUT_BYTES) {
      throw new BadInputException(
          displayName(source) + ": larger than " + (MAX_INPUT_BYTES >> 20) + " MiB");
    }
    return bytes;
  }
}
