package dev.kcshare.host.records;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes one record file. Reading never throws (docs/design.md#read-tolerance): a missing
 * file is silently empty, and an unreadable, non-UTF-8, non-JSON or too-deep file reads as empty
 * with a warning. The codecs then apply the per-file tolerance rules to whatever parsed.
 */
public final class RecordFile {
  /**
   * Looked up when there is something to report, so that reading healthy record files never starts
   * the logging backend (tens of milliseconds of every {@code kcshare assess}).
   */
  private static Logger log() {
    return LoggerFactory.getLogger(RecordFile.class);
  }

  private static final JsonReader READER = JsonReader.withDepthLimit(JsonReader.RECORD_DEPTH_LIMIT);

  /**
   * What a read found.
   *
   * @param root the parsed document, or null when nothing usable was read
   * @param exists the file existed
   * @param problem why an existing file could not be used, or null
   */
  public record Read(@Nullable Object root, boolean exists, @Nullable String problem) {}

  private RecordFile() {}

  /** Reads and parses {@code file} tolerantly. */
  public static Read read(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new Read(null, false, null);
    } catch (IOException | SecurityException | OutOfMemoryError e) {
      return problem(file, "unreadable: " + e);
    }
    try {
      return new Read(READER.parse(bytes), true, null);
    } catch (JsonSyntaxException e) {
      return problem(file, "corrupt: " + e.describe());
    }
  }

  private static Read problem(Path file, String problem) {
    log()
        .warn(
            "reading {} as empty: {}",
            Escaper.quoted(file.toString(), Escaper.LONG_LIMIT),
            Escaper.esc(problem, Escaper.LONG_LIMIT));
    return new Read(null, true, problem);
  }

  /**
   * Writes {@code document} atomically in the reference formatting (docs/design.md#writing-files).
   */
  public static void write(Path file, Object document) throws IOException {
    AtomicFiles.write(file, JsonWriter.pretty(document).getBytes(StandardCharsets.UTF_8));
  }
}
