package dev.kcshare.core.records;

import dev.kcshare.core.json.JsonWriter;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a record writer accepts, so that whatever it writes its reader reads back
 * (docs/design.md#record-limits): one oversized record is refused at record time, with a warning,
 * instead of making the whole file unreadable and every server read as unobserved.
 *
 * <p>The reader takes member names of any length and files up to 256 MiB; the writer keeps every
 * record far inside that: server names and launch identities (the file's member names) of at most
 * {@value #MAX_KEY_LENGTH} characters (UTF-16 code units), and verdict-cache rows of at most
 * {@value #MAX_ROW_BYTES} bytes as compact JSON (a row holds the server's own handshake answer,
 * which a hostile server could make as large as the prober's 16 MiB message limit, page after
 * page).
 */
final class RecordLimits {
  /** The longest server name or launch identity a writer records, in UTF-16 code units. */
  static final int MAX_KEY_LENGTH = 65_536;

  /** The largest verdict-cache row a writer stores, as compact JSON bytes (4 MiB). */
  static final int MAX_ROW_BYTES = 4 * 1024 * 1024;

  private RecordLimits() {}

  /**
   * Why a ledger record for (name, identity) is refused because of its size, or null when it is
   * within the limits. Cheap: compares lengths only.
   *
   * @param name the server name
   * @param identity the launch identity
   * @return the reason, or null
   */
  static @Nullable String refusal(String name, String identity) {
    if (name.length() > MAX_KEY_LENGTH) {
      return "server name longer than " + MAX_KEY_LENGTH + " characters";
    }
    if (identity.length() > MAX_KEY_LENGTH) {
      return "launch identity longer than " + MAX_KEY_LENGTH + " characters";
    }
    return null;
  }

  /**
   * Why a verdict-cache row is refused because of its size, or null when it is within the limits.
   *
   * @param name the server name (the row's key)
   * @param row the row
   * @return the reason, or null
   */
  static @Nullable String rowRefusal(String name, CacheRow row) {
    if (name.length() > MAX_KEY_LENGTH) {
      return "server name longer than " + MAX_KEY_LENGTH + " characters";
    }
    Map<String, Object> doc = CacheCodec.encode(Map.of("x", row), java.util.List.of());
    long bytes = JsonWriter.compact(doc).length(); // ASCII: escapes keep it one byte a char
    if (bytes > MAX_ROW_BYTES) {
      return "measurement of " + bytes + " bytes, more than " + MAX_ROW_BYTES + " bytes (4 MiB)";
    }
    return null;
  }
}
