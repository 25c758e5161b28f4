package dev.kcshare.host.prober;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.JsonValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Small rules over JSON-RPC messages (docs/design.md#reading-messages,
 * docs/design.md#normalising-answers, docs/design.md#modern-era-servers).
 */
final class Messages {
  /** The newest legacy protocol version; any dated version at or before it is legacy. */
  static final String NEWEST_LEGACY_VERSION = Era.NEWEST_LEGACY_VERSION;

  /** MCP's UnsupportedProtocolVersionError. */
  static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  private Messages() {}

  /**
   * Whether a message's {@code id} is the awaited one: numeric equality with the integer sent
   * ({@code 1} and {@code 1.0} match; {@code "1"} and {@code true} do not).
   */
  static boolean idMatches(@Nullable Object id, long expected) {
    if (id instanceof Integer || id instanceof Long || id instanceof Short || id instanceof Byte) {
      return ((Number) id).longValue() == expected;
    }
    if (id instanceof BigInteger big) {
      return big.equals(BigInteger.valueOf(expected));
    }
    if (id instanceof BigDecimal dec) {
      return dec.compareTo(BigDecimal.valueOf(expected)) == 0;
    }
    if (id instanceof Double || id instanceof Float) {
      return ((Number) id).doubleValue() == (double) expected;
    }
    return false;
  }

  /**
   * The text of a truthy {@code error} member: an object's non-empty string {@code message} (else
   * {@code unknown error}), a string as it is, anything else as compact JSON.
   */
  static String errorMessage(@Nullable Object error) {
    if (error instanceof Map<?, ?> object) {
      return object.get("message") instanceof String s && !s.isEmpty() ? s : "unknown error";
    }
    if (error instanceof String s) {
      return s;
    }
    return JsonWriter.compact(error);
  }

  /**
   * Whether an {@code initialize} error identifies a modern-era server
   * (docs/design.md#modern-era-servers): code {@code -32022}, or {@code data.supported} / {@code
   * data.supportedVersions} listing at least one string and no legacy version.
   */
  static boolean identifiesModern(@Nullable Object error) {
    Map<String, Object> object = JsonValues.asObject(error);
    if (object == null) {
      return false;
    }
    if (idMatches(object.get("code"), UNSUPPORTED_PROTOCOL_VERSION)) {
      return true;
    }
    Map<String, Object> data = JsonValues.asObject(object.get("data"));
    if (data == null) {
      return false;
    }
    return namesOnlyModernVersions(data.get("supported"))
        || namesOnlyModernVersions(data.get("supportedVersions"));
  }

  private static boolean namesOnlyModernVersions(@Nullable Object value) {
    if (!(value instanceof List<?> list)) {
      return false;
    }
    boolean anyString = false;
    for (Object element : list) {
      if (element instanceof String version) {
        anyString = true;
        if (isLegacyVersion(version)) {
          return false;
        }
      }
    }
    return anyString;
  }

  /** A {@code YYYY-MM-DD} string that sorts at or before {@value #NEWEST_LEGACY_VERSION}. */
  static boolean isLegacyVersion(String version) {
    return Era.isLegacyVersion(version);
  }
}
