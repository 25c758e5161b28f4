package dev.kcshare.core.verdict.internal;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.SelfTest;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.json.internal.JsonValues;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.IdentityKeys;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Parses the CLI's JSON evidence form ({@code kcshare assess --evidence}) into {@link
 * EvidenceInput}s.
 *
 * <p>An evidence object has these members, all optional (absent takes the default):
 *
 * <table>
 *   <caption>Evidence members</caption>
 *   <tr><th>Member</th><th>JSON type</th><th>Default</th></tr>
 *   <tr><td>{@code name}</td><td>string</td><td>{@code ""}</td></tr>
 *   <tr><td>{@code stdio}</td><td>boolean</td><td>{@code true}</td></tr>
 *   <tr><td>{@code sessionBoundByConstruction}</td><td>boolean</td><td>{@code false}</td></tr>
 *   <tr><td>{@code probeOk}</td><td>boolean</td><td>{@code false}</td></tr>
 *   <tr><td>{@code capabilities}</td><td>object or null</td><td>{@code null}</td></tr>
 *   <tr><td>{@code protocolVersion}</td><td>string</td><td>{@code ""}</td></tr>
 *   <tr><td>{@code toolAnnotations}</td><td>array (any elements)</td><td>{@code []}</td></tr>
 *   <tr><td>{@code hasTools}</td><td>boolean</td><td>{@code false}</td></tr>
 *   <tr><td>{@code declaredEnvNames}</td><td>array of strings</td><td>{@code []}</td></tr>
 *   <tr><td>{@code observedHazards}</td><td>array of strings</td><td>{@code []}</td></tr>
 *   <tr><td>{@code preflightRan}</td><td>boolean or null</td><td>{@code null}</td></tr>
 *   <tr><td>{@code preflightCallerSensitive}</td><td>boolean</td><td>{@code false}</td></tr>
 *   <tr><td>{@code era}</td><td>{@code "legacy"} or {@code "modern"}</td><td>{@code "legacy"}</td></tr>
 *   <tr><td>{@code listingPublic}</td><td>boolean</td><td>{@code false}</td></tr>
 *   <tr><td>{@code modernOnly}</td><td>boolean</td><td>{@code false}</td></tr>
 *   <tr><td>{@code divergence}</td><td>string</td><td>{@code ""}</td></tr>
 *   <tr><td>{@code selfTest}</td><td>{@code "passed"}, {@code "failed"}, {@code "not_run"} or
 *       {@code "skipped"}</td><td>none</td></tr>
 *   <tr><td>{@code identityKeys}</td><td>array of strings</td><td>{@code []}</td></tr>
 * </table>
 *
 * <p>An explicit {@code null} is a type error, except for {@code capabilities} and {@code
 * preflightRan}, where null is a meaningful value. Unknown members are ignored, so a document
 * written for a later version still reads. Array contents are kept as given: the lists are neither
 * sorted nor de-duplicated (that is the evidence assembler's job), the annotation elements are not
 * type-checked (malformed annotations are the assessment's business), and {@code identityKeys} is
 * used as-is, without the credential scrub of {@link IdentityKeys#resolve}.
 */
public final class EvidenceJson {
  private EvidenceJson() {}

  /**
   * Parses one evidence object.
   *
   * @param value the parsed JSON value of the object
   * @param pointer the object's own JSON Pointer in its document ({@code ""} for the root, {@code
   *     "/3"} for the fourth array element); error pointers are built from it
   * @throws JsonInputException if the value is not an object or a member has the wrong type
   */
  public static EvidenceInput fromJson(@Nullable Object value, String pointer) {
    if (!(value instanceof Map<?, ?> object)) {
      throw VerdictJson.typeError(pointer, "an object", value);
    }
    Reader r = new Reader(object, pointer);
    Evidence evidence =
        Evidence.builder()
            .name(r.string("name", ""))
            .isStdio(r.bool("stdio", true))
            .sessionBoundByConstruction(r.bool("sessionBoundByConstruction", false))
            .probeOk(r.bool("probeOk", false))
            .capabilities(r.objectOrNull("capabilities"))
            .protocolVersion(r.string("protocolVersion", ""))
            .toolAnnotations(r.array("toolAnnotations"))
            .hasTools(r.bool("hasTools", false))
            .declaredEnvNames(r.strings("declaredEnvNames"))
            .observedHazards(r.strings("observedHazards"))
            .preflightRan(r.boolOrNull("preflightRan"))
            .preflightCallerSensitive(r.bool("preflightCallerSensitive", false))
            .era(r.era("era"))
            .listingPublic(r.bool("listingPublic", false))
            .modernOnly(r.bool("modernOnly", false))
            .divergence(r.string("divergence", ""))
            .selfTest(r.selfTest("selfTest"))
            .build();
    Set<String> identityKeys = new LinkedHashSet<>(r.strings("identityKeys"));
    return new EvidenceInput(evidence, identityKeys);
  }

  /**
   * Parses a whole evidence document: one evidence object, or an array of them.
   *
   * @throws JsonInputException if the root is neither, or any element is malformed
   */
  public static EvidenceDocument fromDocument(@Nullable Object root) {
    if (root instanceof List<?> elements) {
      List<EvidenceInput> inputs = new ArrayList<>(elements.size());
      for (int i = 0; i < elements.size(); i++) {
        inputs.add(fromJson(elements.get(i), JsonInputException.child("", i)));
      }
      return new EvidenceDocument(inputs, true);
    }
    if (root instanceof Map<?, ?>) {
      return new EvidenceDocument(List.of(fromJson(root, "")), false);
    }
    throw VerdictJson.typeError("", "an object or an array of objects", root);
  }

  /** Typed member access with defaults; every error names the member's pointer. */
  private static final class Reader {
    private final Map<?, ?> object;
    private final String pointer;

    Reader(Map<?, ?> object, String pointer) {
      this.object = object;
      this.pointer = pointer;
    }

    private String at(String key) {
      return JsonInputException.child(pointer, key);
    }

    String string(String key, String fallback) {
      if (!object.containsKey(key)) {
        return fallback;
      }
      Object value = object.get(key);
      if (value instanceof String s) {
        return s;
      }
      throw VerdictJson.typeError(at(key), "a string", value);
    }

    @Nullable SelfTest selfTest(String key) {
      if (!object.containsKey(key)) {
        return null;
      }
      Object value = object.get(key);
      SelfTest t = SelfTest.fromJsonLenient(value);
      if (t == null) {
        throw VerdictJson.typeError(
            at(key), "\"passed\", \"failed\", \"not_run\" or \"skipped\"", value);
      }
      return t;
    }

    Era era(String key) {
      String value = string(key, Era.LEGACY.json());
      for (Era e : Era.values()) {
        if (e.json().equals(value)) {
          return e;
        }
      }
      throw VerdictJson.typeError(at(key), "\"legacy\" or \"modern\"", value);
    }

    boolean bool(String key, boolean fallback) {
      if (!object.containsKey(key)) {
        return fallback;
      }
      Object value = object.get(key);
      if (value instanceof Boolean b) {
        return b;
      }
      throw VerdictJson.typeError(at(key), "a boolean", value);
    }

    @Nullable Boolean boolOrNull(String key) {
      Object value = object.get(key);
      if (value == null || value instanceof Boolean) {
        return (Boolean) value;
      }
      throw VerdictJson.typeError(at(key), "a boolean or null", value);
    }

    @Nullable Map<String, Object> objectOrNull(String key) {
      Object value = object.get(key);
      if (value == null || value instanceof Map<?, ?>) {
        return JsonValues.asObject(value);
      }
      throw VerdictJson.typeError(at(key), "an object or null", value);
    }

    List<?> array(String key) {
      if (!object.containsKey(key)) {
        return List.of();
      }
      Object value = object.get(key);
      if (value instanceof List<?> list) {
        return list;
      }
      throw VerdictJson.typeError(at(key), "an array", value);
    }

    List<String> strings(String key) {
      List<?> list = array(key);
      List<String> out = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        Object element = list.get(i);
        if (!(element instanceof String s)) {
          throw VerdictJson.typeError(JsonInputException.child(at(key), i), "a string", element);
        }
        out.add(s);
      }
      return out;
    }
  }
}
