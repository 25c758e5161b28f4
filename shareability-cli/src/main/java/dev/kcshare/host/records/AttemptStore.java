package dev.kcshare.host.records;

import dev.kcshare.core.records.internal.AttemptsCodec;
import dev.kcshare.core.records.internal.AttemptsLoad;
import dev.kcshare.core.records.internal.FailedAttempts;
import dev.kcshare.core.text.Escaper;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * kcshare's own record of pre-flights that could not run, {@code kcshare-attempts.json} in the
 * records directory (beside the verdict cache, never part of it: the Kiro Crew gateway neither
 * reads nor writes it). Evaluation passes rewrite it under the verdict cache's lock, so passes
 * never lose each other's entries; readers need no lock, because every write is atomic.
 *
 * <p>Reading never throws: a missing, unreadable or corrupt file is "no attempts" (with a warning
 * for an unreadable or corrupt one). A file written by a newer kcshare is read as "no attempts" and
 * never replaced. Written 0600, like the record files.
 */
public final class AttemptStore {
  private AttemptStore() {}

  /** The attempts file beside a verdict cache file. */
  public static Path besideCache(Path cacheFile) {
    return cacheFile.resolveSibling(RecordsDirectory.ATTEMPTS_FILE);
  }

  /** Reads the file tolerantly. */
  public static AttemptsLoad read(Path file) {
    return AttemptsCodec.decode(RecordFile.read(file).root());
  }

  /** Reads the file into a clean in-memory state. */
  public static FailedAttempts load(Path file) {
    return FailedAttempts.of(read(file));
  }

  /**
   * Writes the attempts atomically when they changed, unless the file on disk is a newer kcshare's
   * (then nothing is written and a warning says so).
   *
   * @return whether the file was written
   * @throws IOException when the write fails; the file is then as it was
   */
  public static boolean flush(Path file, FailedAttempts attempts) throws IOException {
    if (!attempts.isDirty()) {
      return false;
    }
    if (!attempts.mayWrite()) {
      LoggerFactory.getLogger(AttemptStore.class)
          .warn(
              "not updating {}: it was written by a newer kcshare",
              Escaper.quoted(file.toString(), Escaper.LONG_LIMIT));
      attempts.markClean();
      return false;
    }
    // Written where the check leads: the checked real directory (docs/security.md).
    RecordFile.write(RecordsTrust.requireWritableFile(file), attempts.toDocument());
    attempts.markClean();
    return true;
  }
}
