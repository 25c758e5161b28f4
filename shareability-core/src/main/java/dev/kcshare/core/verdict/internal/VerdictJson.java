package dev.kcshare.core.verdict.internal;

import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The JSON forms of a {@link Verdict}, as plain Java values for any JSON writer.
 *
 * <ul>
 *   <li>{@link #toJson}: the host-local form, with the server name and every reason's detail.
 *   <li>{@link #toExport}: the only form that may leave the host (metrics, telemetry, summaries):
 *       reason codes and strengths only, never a server name, an env name or any detail
 *       (docs/design.md#export-contract).
 * </ul>
 */
public final class VerdictJson {
  private VerdictJson() {}

  /**
   * The verdict's JSON object: {@code name}, {@code strength}, {@code recommendStub}, {@code
   * recommendShare}, {@code reasons} (a list of {@code {code, detail}} objects, detail always
   * present), members in that order.
   */
  public static LinkedHashMap<String, Object> toJson(Verdict verdict) {
    List<Object> reasons = new ArrayList<>(verdict.reasons().size());
    for (Reason reason : verdict.reasons()) {
      LinkedHashMap<String, Object> r = new LinkedHashMap<>(4);
      r.put("code", reason.code().code());
      r.put("detail", reason.detail());
      reasons.add(r);
    }
    LinkedHashMap<String, Object> out = new LinkedHashMap<>(8);
    out.put("name", verdict.name());
    out.put("strength", verdict.strength().json());
    out.put("recommendStub", verdict.recommendStub());
    out.put("recommendShare", verdict.recommendShare());
    out.put("reasons", reasons);
    return out;
  }

  /**
   * The export form: {@code strength}, {@code recommendStub}, {@code recommendShare} and {@code
   * reasons} as a list of code strings, in verdict order. Details and the name are host-local
   * observations and are deliberately absent.
   */
  public static LinkedHashMap<String, Object> toExport(Verdict verdict) {
    List<Object> codes = new ArrayList<>(verdict.reasons().size());
    for (Reason reason : verdict.reasons()) {
      codes.add(reason.code().code());
    }
    LinkedHashMap<String, Object> out = new LinkedHashMap<>(8);
    out.put("strength", verdict.strength().json());
    out.put("recommendStub", verdict.recommendStub());
    out.put("recommendShare", verdict.recommendShare());
    out.put("reasons", codes);
    return out;
  }

  /**
   * Parses the form {@link #toJson} produces. Every member is required; unknown members are
   * ignored.
   *
   * @throws JsonInputException with the pointer of the first offending value
   */
  public static Verdict fromJson(@Nullable Object value) {
    Map<?, ?> object = object(value, "");
    String name = string(object, "name", "");
    String strengthText = string(object, "strength", "");
    Strength strength;
    try {
      strength = Strength.fromJson(strengthText);
    } catch (IllegalArgumentException e) {
      throw new JsonInputException(
          "/strength",
          "expected one of unknown, no_objection, measured, declared, disqualified, refuted");
    }
    boolean stub = bool(object, "recommendStub", "");
    boolean share = bool(object, "recommendShare", "");
    if (!(required(object, "reasons", "") instanceof List<?> list)) {
      throw typeError("/reasons", "an array", object.get("reasons"));
    }
    List<Reason> reasons = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      String at = JsonInputException.child("/reasons", i);
      Map<?, ?> reason = object(list.get(i), at);
      String code = string(reason, "code", at);
      ReasonCode reasonCode;
      try {
        reasonCode = ReasonCode.fromCode(code);
      } catch (IllegalArgumentException e) {
        throw new JsonInputException(JsonInputException.child(at, "code"), "not a reason code");
      }
      reasons.add(new Reason(reasonCode, string(reason, "detail", at)));
    }
    return new Verdict(name, strength, stub, share, reasons);
  }

  private static Map<?, ?> object(@Nullable Object value, String pointer) {
    if (value instanceof Map<?, ?> map) {
      return map;
    }
    throw typeError(pointer, "an object", value);
  }

  private static @Nullable Object required(Map<?, ?> object, String key, String pointer) {
    if (!object.containsKey(key)) {
      throw new JsonInputException(pointer, "missing member \"" + key + "\"");
    }
    return object.get(key);
  }

  private static String string(Map<?, ?> object, String key, String pointer) {
    if (required(object, key, pointer) instanceof String s) {
      return s;
    }
    throw typeError(JsonInputException.child(pointer, key), "a string", object.get(key));
  }

  private static boolean bool(Map<?, ?> object, String key, String pointer) {
    if (required(object, key, pointer) instanceof Boolean b) {
      return b;
    }
    throw typeError(JsonInputException.child(pointer, key), "a boolean", object.get(key));
  }

  static JsonInputException typeError(String pointer, String expected, @Nullable Object got) {
    return new JsonInputException(
        pointer, "expected " + expected + ", got " + article(JsonInputException.typeName(got)));
  }

  /** "a string", "an object", "null". */
  private static String article(String typeName) {
    return switch (typeName) {
      case "null" -> "null";
      case "object", "array" -> "an " + typeName;
      default -> "a " + typeName;
    };
  }
}
