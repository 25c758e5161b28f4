package dev.kcshare.host.records;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.records.CacheCodec;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.LedgerLoad;
import dev.kcshare.core.records.RecordDecoder;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.FileProblem;
import dev.kcshare.host.FileProblems;
import dev.kcshare.host.RegularFiles;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes one record file. Reading never throws and never hangs
 * (docs/design.md#read-tolerance): a missing file is silently empty; anything that is not a regular
 * file (a named pipe, a device, a directory, a dangling link) reads as unreadable at once, without
 * being opened; a file larger than {@link #MAX_BYTES} reads as too large without being read; an
 * unreadable, non-UTF-8, non-JSON or too-deep file reads as empty with a warning. The codecs then
 * apply the per-file tolerance rules to whatever parsed.
 *
 * <p>The two record files are read as a stream: each server of the ledger and each row of the cache
 * is decoded on its own as the parser reaches it, so memory follows what is kept, not the file's
 * size, and a reader that needs only some names ({@code kcshare assess} of the configured servers)
 * skips the others without building them.
 *
 * <p>Whether a writer may replace a file it read is {@link State#replaceable()}: never one it could
 * not read (its content could not be merged), and never one read as not understood ({@link
 * LedgerLoad#refusal()}, {@link CacheLoad#refusal()}).
 */
public final class RecordFile {
  /**
   * The largest record file read, 256 MiB: far beyond any real ledger or cache (a 200,000-row
   * verdict cache with handshakes is about 170 MB), and small enough that reading one at the bound
   * takes about a second.
   */
  public static final long MAX_BYTES = 256L * 1024 * 1024;

  private static final int BUFFER = 64 * 1024;

  /**
   * Looked up when there is something to report, so that reading healthy record files never starts
   * the logging backend (tens of milliseconds of every {@code kcshare assess}).
   */
  private static Logger log() {
    return LoggerFactory.getLogger(RecordFile.class);
  }

  private static final JsonReader READER = JsonReader.forRecords();

  /** What was found at the path. */
  public enum State {
    /** No file: empty, silently. */
    MISSING,
    /** Read and parsed as JSON (the codecs decide the rest). */
    PARSED,
    /** Read, but not UTF-8, not JSON, or nested too deep. */
    CORRUPT,
    /** Not a regular file: a named pipe, a device, a socket, a directory, a dangling link. */
    NOT_REGULAR,
    /** A regular file that could not be read (permission, I/O error). */
    UNREADABLE,
    /** Larger than {@link #MAX_BYTES}. */
    TOO_LARGE;

    /**
     * Whether a writer may replace a file found in this state: missing, parsed, corrupt (nothing in
     * it could be read as records), or not a regular file (nothing in it is a record). A file that
     * could not be read at all, or not to its end, is left alone: its records could not be merged.
     */
    public boolean replaceable() {
      return this == MISSING || this == PARSED || this == CORRUPT || this == NOT_REGULAR;
    }
  }

  /**
   * What a read found.
   *
   * @param root the parsed document, or null when nothing usable was read
   * @param exists the file existed
   * @param problem why an existing file could not be used, or null
   * @param state what was found
   */
  public record Read(
      @Nullable Object root, boolean exists, @Nullable String problem, State state) {}

  /**
   * A record file decoded as it was read.
   *
   * @param value what it holds (empty when it could not be read)
   * @param state what was found
   * @param problem why an existing file could not be used, or null
   * @param <T> the decoded form
   */
  public record Loaded<T>(T value, State state, @Nullable String problem) {
    /** Whether something existed at the path. */
    public boolean exists() {
      return state != State.MISSING;
    }

    /**
     * The value, for a writer that will replace {@code file} under its lock.
     *
     * @param refusal why the decoded content must not be replaced (a newer version's file...), or
     *     null
     * @throws FileProblem when the file must be left as it is: not understood, or present but
     *     unreadable (its content could not be merged)
     */
    public T forWriting(Path file, @Nullable String refusal) throws FileProblem {
      if (!state.replaceable()) {
        throw FileProblem.leftUnchanged(file, "could not be read to merge (" + problem + ")");
      }
      if (refusal != null) {
        throw FileProblem.leftUnchanged(file, refusal);
      }
      return value;
    }
  }

  private RecordFile() {}

  /** Reads and parses {@code file} tolerantly, as one tree (small files and tests). */
  public static Read read(Path file) {
    Objects.requireNonNull(file, "file");
    Object[] root = new Object[1];
    Outcome outcome = consume(file, in -> root[0] = READER.parse(in));
    return new Read(
        outcome.state == State.PARSED ? root[0] : null,
        outcome.state != State.MISSING,
        outcome.problem,
        outcome.state);
  }

  /** Reads the ledger file, every server. */
  public static Loaded<LedgerLoad> readLedger(Path file) {
    return readLedger(file, name -> true);
  }

  /**
   * Reads the ledger file, decoding only the servers whose names {@code names} accepts (the others
   * are skipped unread; a file that cannot be used is an empty ledger).
   */
  public static Loaded<LedgerLoad> readLedger(Path file, Predicate<String> names) {
    return stream(file, names, LedgerCodec.decoder(), LedgerLoad.empty());
  }

  /** Reads the cache file, every row. */
  public static Loaded<CacheLoad> readCache(Path file) {
    return readCache(file, name -> true);
  }

  /**
   * Reads the cache file, decoding only the rows whose names {@code names} accepts (the others are
   * skipped unread; applied markers are always read; a file that cannot be used is an empty cache).
   */
  public static Loaded<CacheLoad> readCache(Path file, Predicate<String> names) {
    return stream(
        file,
        names,
        CacheCodec.decoder(),
        new CacheLoad(new TreeMap<>(), new TreeSet<>(), List.of()));
  }

  /**
   * Reads the cache file for a writer that will replace it: every row, keeping what must be written
   * back as read ({@link CacheCodec#decoderForWriting()}).
   */
  public static Loaded<CacheLoad> readCacheForWriting(Path file) {
    return stream(
        file,
        name -> true,
        CacheCodec.decoderForWriting(),
        new CacheLoad(new TreeMap<>(), new TreeSet<>(), List.of()));
  }

  /**
   * Streams {@code file} into {@code decoder}, handing it only the streamed entries whose keys
   * {@code names} accepts; a file that cannot be used reads as {@code empty}.
   */
  private static <T> Loaded<T> stream(
      Path file, Predicate<String> names, RecordDecoder<T> decoder, T empty) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(names, "names");
    Outcome outcome =
        consume(
            file,
            in ->
                READER.stream(
                    in,
                    new JsonReader.TopLevel() {
                      @Override
                      public boolean streams(String name) {
                        return decoder.streams(name);
                      }

                      @Override
                      public boolean wants(String member, String key) {
                        return names.test(key);
                      }

                      @Override
                      public void member(String name, @Nullable Object value) {
                        decoder.member(name, value);
                      }

                      @Override
                      public void begin(String name) {
                        decoder.begin(name);
                      }

                      @Override
                      public void entry(String name, String key, @Nullable Object value) {
                        decoder.entry(key, value);
                      }

                      @Override
                      public void root(@Nullable Object value) {
                        decoder.root(value);
                      }
                    }));
    T load = outcome.state == State.PARSED ? decoder.finish() : empty;
    return new Loaded<>(load, outcome.state, outcome.problem);
  }

  /**
   * Writes {@code document} atomically in the reference formatting (docs/design.md#writing-files).
   */
  public static void write(Path file, Object document) throws IOException {
    AtomicFiles.write(file, JsonWriter.pretty(document).getBytes(StandardCharsets.UTF_8));
  }

  /** Consumes an opened record file. */
  private interface Consumer {
    void accept(InputStream in) throws IOException, JsonSyntaxException;
  }

  private record Outcome(State state, @Nullable String problem) {}

  /**
   * Checks what is at {@code file} without opening anything that could block, opens a regular file
   * within the size bound, and hands it to {@code consumer}; maps every failure to a state.
   */
  private static Outcome consume(Path file, Consumer consumer) {
    RegularFiles.Found found;
    try {
      found = RegularFiles.examine(file, MAX_BYTES);
    } catch (IOException e) {
      return problem(file, State.UNREADABLE, "unreadable: " + FileProblems.reason(e));
    }
    switch (found.kind()) {
      case MISSING:
        return new Outcome(State.MISSING, null);
      case TOO_LARGE:
        return problem(file, State.TOO_LARGE, tooLarge(found.size()));
      case REGULAR:
        break;
      default:
        return problem(file, State.NOT_REGULAR, "not a regular file (" + found.description() + ")");
    }
    try (InputStream in = RegularFiles.open(file, MAX_BYTES)) {
      consumer.accept(new BufferedInputStream(in, BUFFER));
      return new Outcome(State.PARSED, null);
    } catch (RegularFiles.TooLarge e) {
      return problem(file, State.TOO_LARGE, tooLarge(-1));
    } catch (JsonSyntaxException e) {
      return problem(file, State.CORRUPT, "corrupt: " + e.describe());
    } catch (IOException | SecurityException e) {
      return problem(file, State.UNREADABLE, "unreadable: " + FileProblems.reason(e));
    } catch (OutOfMemoryError e) {
      return problem(file, State.UNREADABLE, "unreadable: not enough memory to read it");
    }
  }

  private static String tooLarge(long size) {
    return "too large: "
        + (size >= 0 ? size + " bytes, more than " : "more than ")
        + MAX_BYTES
        + " bytes (256 MiB)";
  }

  private static Outcome problem(Path file, State state, String problem) {
    log()
        .warn(
            "reading {} as empty: {}",
            Escaper.quoted(file.toString(), Escaper.LONG_LIMIT),
            Escaper.esc(problem, Escaper.LONG_LIMIT));
    return new Outcome(state, problem);
  }
}
