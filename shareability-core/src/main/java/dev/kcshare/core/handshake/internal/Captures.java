package dev.kcshare.core.handshake.internal;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.json.internal.JsonValues;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The capture format (docs/design.md#capture-format): one identity's raw answers, written by {@code
 * --capture} and read back by {@code kcshare preflight compare}, so any measurement can be
 * re-decided offline with exactly the normalisation the live pre-flight uses.
 *
 * <pre>{@code
 * {"era": "legacy", "clientInfo": {...}, "initialize": <raw result or null>,
 *  "toolsList": {"tools": [...]}}
 * }</pre>
 *
 * A modern-era capture holds {@code discover} (the raw {@code server/discover} result) instead of
 * {@code initialize}. {@code era} (default {@code legacy}) and {@code clientInfo} are optional on
 * input; {@code clientInfo} is informational and not read.
 */
public final class Captures {
  private static final int QUOTED_VALUE_LIMIT = 40;

  private Captures() {}

  /**
   * Reads one capture into the answer the live pre-flight would have built from the same raw
   * results.
   *
   * @param capture the parsed capture document
   * @param pointer JSON Pointer of {@code capture} in its document, prefixed to every error
   * @throws JsonInputException when the capture lacks a member the format requires or has one of
   *     the wrong type; the pointer names that member
   */
  public static Answer toAnswer(@Nullable Object capture, String pointer) {
    Map<String, Object> object = JsonValues.asObject(capture);
    if (object == null) {
      throw new JsonInputException(pointer, "expected a capture object, got " + describe(capture));
    }
    Era era = era(object, pointer);
    String resultMember = era == Era.MODERN ? "discover" : "initialize";
    if (!object.containsKey(resultMember)) {
      String request = era == Era.MODERN ? "server/discover" : "initialize";
      throw new JsonInputException(
          JsonInputException.child(pointer, resultMember),
          "expected the raw " + request + " result (" + era.json() + " capture), got nothing");
    }
    String toolsListPointer = JsonInputException.child(pointer, "toolsList");
    Object toolsList = object.get("toolsList");
    Map<String, Object> toolsListObject = JsonValues.asObject(toolsList);
    if (toolsListObject == null) {
      throw new JsonInputException(
          toolsListPointer,
          "expected an object, got "
              + (object.containsKey("toolsList") ? describe(toolsList) : "nothing"));
    }
    Object tools = toolsListObject.get("tools");
    if (!(tools instanceof List<?> toolList)) {
      throw new JsonInputException(
          JsonInputException.child(toolsListPointer, "tools"),
          "expected an array, got "
              + (toolsListObject.containsKey("tools") ? describe(tools) : "nothing"));
    }
    Object result = object.get(resultMember);
    // A capture keeps the last page's members beside the tools: its hints stand for the listing.
    return era == Era.MODERN
        ? Answers.modern(result, toolList, List.of(toolsListObject))
        : Answers.legacy(result, toolList);
  }

  /**
   * Builds the capture of one identity's exchange, members in the documented order.
   *
   * @param era the phase the exchange ran in
   * @param clientInfo the identity's {@code clientInfo}
   * @param rawInitOrDiscover the raw {@code initialize} (legacy) or {@code server/discover}
   *     (modern) result; null when the response had none
   * @param toolsListObject the last {@code tools/list} result with {@code tools} replaced by the
   *     concatenation of every page's tools
   * @return an unmodifiable, insertion-ordered JSON object
   */
  public static Map<String, @Nullable Object> toCapture(
      Era era,
      Map<String, ?> clientInfo,
      @Nullable Object rawInitOrDiscover,
      Map<String, ?> toolsListObject) {
    Objects.requireNonNull(era, "era");
    Objects.requireNonNull(clientInfo, "clientInfo");
    Objects.requireNonNull(toolsListObject, "toolsListObject");
    Map<String, @Nullable Object> capture = new LinkedHashMap<>();
    capture.put("era", era.json());
    capture.put("clientInfo", clientInfo);
    capture.put(era == Era.MODERN ? "discover" : "initialize", rawInitOrDiscover);
    capture.put("toolsList", toolsListObject);
    return Collections.unmodifiableMap(capture);
  }

  private static Era era(Map<String, Object> capture, String pointer) {
    if (!capture.containsKey("era")) {
      return Era.LEGACY;
    }
    Object value = capture.get("era");
    if ("legacy".equals(value)) {
      return Era.LEGACY;
    }
    if ("modern".equals(value)) {
      return Era.MODERN;
    }
    throw new JsonInputException(
        JsonInputException.child(pointer, "era"),
        "expected \"legacy\" or \"modern\", got " + describe(value));
  }

  /** A JSON type with its article; a string is quoted (escaped, bounded) to show the typo. */
  private static String describe(@Nullable Object value) {
    if (value instanceof String s) {
      String shown =
          s.codePointCount(0, s.length()) > QUOTED_VALUE_LIMIT
              ? s.substring(0, s.offsetByCodePoints(0, QUOTED_VALUE_LIMIT)) + "..."
              : s;
      return "the string " + JsonWriter.canonical(shown);
    }
    String type = JsonInputException.typeName(value);
    return switch (type) {
      case "null" -> "null";
      case "object", "array" -> "an " + type;
      default -> "a " + type;
    };
  }
}
