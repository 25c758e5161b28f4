package dev.kcshare.host.config;

import dev.kcshare.host.FileReads;
import dev.kcshare.host.RegularFiles;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Reads one configuration file (JSONC, TOML or YAML) into plain JSON values, never throwing for a
 * bad file: a problem is returned in words, with its line and column.
 */
final class ConfigFiles {
  /**
   * Larger files are refused rather than read into memory. {@code ~/.claude.json} keeps per-project
   * history and grows, so the bound is generous.
   */
  static final int MAX_BYTES = 256 * 1024 * 1024;

  private static final JsonReader READER = JsonReader.withDepthLimit(JsonReader.RECORD_DEPTH_LIMIT);

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

  /** Reads a JSON(C) file. */
  static Read read(Path path) {
    return read(path, FileSyntax.JSON);
  }

  /**
   * {@link #read(Path, FileSyntax)}, once per file and syntax in {@code reads}: a later call
   * returns what the first one read.
   */
  static Read read(FileReads reads, Path path, FileSyntax syntax) {
    // A string, not a record: a record's first hashCode links method handles (about 10 ms), and
    // the Kiro Crew configuration is read before a plain measure's first spawn.
    String key = syntax.name() + ':' + path.toAbsolutePath();
    return reads.once(key, () -> read(path, syntax));
  }

  /**
   * Reads a file written in {@code syntax}: only a regular file up to {@link #MAX_BYTES}, decided
   * before it is opened ({@link RegularFiles}), so a named pipe or a device is a problem at once.
   */
  static Read read(Path path, FileSyntax syntax) {
    byte[] bytes;
    try {
      bytes = RegularFiles.readAll(path, MAX_BYTES);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return Read.ofMissing();
    } catch (RegularFiles.Refused e) {
      return Read.ofProblem(refusal(e.found(), "a " + syntax.label() + " file", MAX_BYTES));
    } catch (AccessDeniedException e) {
      return Read.ofProblem("cannot read: permission denied");
    } catch (IOException | SecurityException e) {
      return Read.ofProblem("cannot read: " + reason(e));
    }
    return parse(bytes, syntax);
  }

  /**
   * Why a file {@link RegularFiles} refused is not read, in words: {@code is a directory, expected
   * a JSON file}, {@code not a regular file (a named pipe)}, {@code larger than 256 MiB (N bytes)}.
   */
  static String refusal(RegularFiles.Found found, String expected, long maxBytes) {
    return switch (found.kind()) {
      case DIRECTORY -> "is a directory, expected " + expected;
      case TOO_LARGE -> tooLarge(found.size(), maxBytes);
      default -> "not a regular file (" + found.description() + ")";
    };
  }

  /** {@code larger than 256 MiB}, with the size {@code stat} reported when it is known. */
  static String tooLarge(long size, long maxBytes) {
    return "larger than " + (maxBytes >> 20) + " MiB" + (size >= 0 ? " (" + size + " bytes)" : "");
  }

  /** Parses JSONC bytes (UTF-8, an optional byte-order mark). */
  static Read parse(byte[] bytes) {
    return parse(bytes, FileSyntax.JSON);
  }

  /** Parses UTF-8 bytes (an optional byte-order mark) written in {@code syntax}. */
  static Read parse(byte[] bytes, FileSyntax syntax) {
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
      return Read.ofProblem(SyntaxProblem.located(syntax, -1, -1, "not valid UTF-8 text"));
    }
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    String missing = ParserPresence.missing(syntax);
    if (missing != null) {
      return Read.ofProblem(missing);
    }
    return switch (syntax) {
      case JSON -> parseJson(text);
      // Named here only: the parsers' classes load when such a file is read, not before.
      case TOML -> TomlDocuments.parse(text);
      case YAML -> YamlDocuments.parse(text);
    };
  }

  private static Read parseJson(String text) {
    try {
      // Plain JSON is its own JSONC form (it has no comments and no trailing commas outside
      // strings), so most files parse as they are and skip the blanking pass.
      return new Read(false, null, READER.parseText(text));
    } catch (JsonSyntaxException strict) {
      try {
        return new Read(false, null, READER.parseText(Jsonc.strip(text)));
      } catch (JsonSyntaxException e) {
        return Read.ofProblem(
            SyntaxProblem.located(
                FileSyntax.JSON, e.line(), e.column(), SyntaxProblem.json(e.getMessage())));
      }
    }
  }

  /** An I/O failure in words, never a class name. */
  static String reason(Exception e) {
    String m = e.getMessage();
    if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    return m == null || m.isBlank() ? "an input/output error" : SyntaxProblem.redacted(m);
  }
}
