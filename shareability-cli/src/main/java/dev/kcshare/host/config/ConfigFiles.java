package dev.kcshare.host.config;

import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Reads one configuration file as JSONC into plain JSON values, never throwing for bad files. */
final class ConfigFiles {
  /**
   * Larger files are refused rather than read into memory. {@code ~/.claude.json} keeps per-project
   * history and grows, so the bound is generous.
   */
  static final int MAX_BYTES = 256 * 1024 * 1024;

  private static final JsonReader READER = JsonReader.withDepthLimit(JsonReader.RECORD_DEPTH_LIMIT);

  /** A quoted token in a parser message: it may be a fragment of a secret the file holds. */
  private static final Pattern QUOTED_TOKEN = Pattern.compile("'[^'\\n]{2,}'");

  private ConfigFiles() {}

  /** What reading produced: a missing file, a problem (already worded), or the parsed root. */
  record Read(boolean missing, @Nullable String problem, @Nullable Object root) {
    static Read ofMissing() {
      return new Read(true, null, null);
    }

    static Read ofProblem(String problem) {
      return new Read(false, problem, null);
    }

    boolean ok() {
      return !missing && problem == null;
    }
  }

  static Read read(Path path) {
    byte[] bytes;
    try {
      if (Files.isDirectory(path)) {
        return Read.ofProblem("is a directory, expected a JSON file");
      }
      try (InputStream in = Files.newInputStream(path)) {
        bytes = in.readNBytes(MAX_BYTES + 1);
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return Read.ofMissing();
    } catch (AccessDeniedException e) {
      return Read.ofProblem("cannot read: permission denied");
    } catch (IOException | SecurityException e) {
      return Read.ofProblem("cannot read: " + e.getClass().getSimpleName());
    }
    if (bytes.length > MAX_BYTES) {
      return Read.ofProblem("larger than " + (MAX_BYTES >> 20) + " MiB");
    }
    return parse(bytes);
  }

  /** Parses JSONC bytes (UTF-8, an optional byte-order mark). */
  static Read parse(byte[] bytes) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      return Read.ofProblem("not valid JSON: not valid UTF-8");
    }
    try {
      // Plain JSON is its own JSONC form (it has no comments and no trailing commas outside
      // strings), so most files parse as they are and skip the blanking pass.
      return new Read(false, null, READER.parseText(text));
    } catch (JsonSyntaxException strict) {
      try {
        return new Read(false, null, READER.parseText(Jsonc.strip(text)));
      } catch (JsonSyntaxException e) {
        return Read.ofProblem("not valid JSON: " + redact(e.describe()));
      }
    }
  }

  /**
   * The parser quotes the token it choked on; in a config file that token may be an unquoted
   * secret, so quoted runs are replaced by an ellipsis. Line and column still locate the problem.
   */
  static String redact(String message) {
    return QUOTED_TOKEN.matcher(message).replaceAll("'…'");
  }
}
