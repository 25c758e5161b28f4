package dev.kcshare.cli;

import dev.kcshare.host.BadInputException;
import dev.kcshare.host.RegularFiles;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Reads JSON documents the user names on the command line ({@code -} = standard input). A named
 * file is read only when it is a regular file up to {@link #MAX_INPUT_BYTES}, decided before it is
 * opened ({@link RegularFiles}): a named pipe or a device is refused at once (standard input is
 * read as a stream, up to the same bound).
 */
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
      RegularFiles.Found found = RegularFiles.examine(path, MAX_INPUT_BYTES);
      switch (found.kind()) {
        case MISSING, DANGLING_LINK -> throw new BadInputException(source + ": no such file");
        case DIRECTORY ->
            throw new BadInputException(source + ": is a directory, expected a JSON file");
        case TOO_LARGE -> throw tooLarge(source, found.size());
        case SPECIAL ->
            throw new BadInputException(
                source + ": not a regular file (" + found.description() + ")");
        case REGULAR -> {
          // read below
        }
      }
      try (InputStream in = RegularFiles.open(path, MAX_INPUT_BYTES)) {
        return in.readAllBytes();
      } catch (RegularFiles.TooLarge e) {
        throw tooLarge(source, -1);
      }
    } catch (NoSuchFileException e) {
      throw new BadInputException(source + ": no such file");
    } catch (IOException e) {
      throw new BadInputException(
          displayName(source) + ": cannot read: " + dev.kcshare.host.FileProblems.reason(e), e);
    }
  }

  private static BadInputException tooLarge(String source, long size) {
    return new BadInputException(
        displayName(source)
            + ": larger than "
            + (MAX_INPUT_BYTES >> 20)
            + " MiB"
            + (size >= 0 ? " (" + size + " bytes)" : ""));
  }

  private static byte[] readBounded(InputStream in, String source) throws IOException {
    byte[] bytes = in.readNBytes(MAX_INPUT_BYTES + 1);
    if (bytes.length > MAX_INPUT_BYTES) {
      throw tooLarge(source, -1);
    }
    return bytes;
  }
}
