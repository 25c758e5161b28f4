package dev.kcshare.core.handshake;

import dev.kcshare.core.json.JsonWriter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides a pre-flight from two answers (docs/design.md#facets-and-decision): identity A's and
 * identity B's handshake surface are compared facet by facet, through shapes, so free-form values
 * never count and key presence and boolean flags always do.
 *
 * <p>Facets, in order: the handshake itself (legacy {@code initialize}: capabilities shape, raw
 * protocolVersion, serverInfo facet; modern {@code server/discover}: capabilities shape, the set of
 * canonical texts of the supported versions, serverInfo facet), then the tool listing (the set of
 * names and the multiset of annotation shapes, never paired with each other), then, modern only,
 * the {@code cacheScope} of discover and of each listing page. The era of the first answer selects
 * the facet set; answers of two eras (a server that answered one identity's {@code server/discover}
 * and rejected the other's) differ in the handshake facet of A's era.
 */
public final class HandshakeComparison {
  /** Detail when the legacy handshake facet differs. */
  public static final String INITIALIZE_SHAPE_DIFFERS = "initialize_shape_differs";

  /** Detail when the modern-era handshake facet differs. */
  public static final String DISCOVER_SHAPE_DIFFERS = "discover_shape_differs";

  /** Detail when the tool-listing facet differs. */
  public static final String TOOLS_SHAPE_DIFFERS = "tools_shape_differs";

  /**
   * Detail when the modern answers' {@code cacheScope} of discover or of a listing page differs
   * (compared after the other two facets).
   */
  public static final String CACHE_SCOPE_DIFFERS = "cache_scope_differs";

  /** Detail when a tool name is not a string: the server could not be measured. */
  public static final String MALFORMED_TOOL_NAMES = "malformed_tool_names";

  private static final Comparison MALFORMED = new Comparison(false, false, MALFORMED_TOOL_NAMES);
  private static final Comparison SAME = new Comparison(true, false, "");
  private static final Comparison INITIALIZE_DIFFERS =
      new Comparison(true, true, INITIALIZE_SHAPE_DIFFERS);
  private static final Comparison DISCOVER_DIFFERS =
      new Comparison(true, true, DISCOVER_SHAPE_DIFFERS);
  private static final Comparison TOOLS_DIFFER = new Comparison(true, true, TOOLS_SHAPE_DIFFERS);
  private static final Comparison SCOPE_DIFFERS = new Comparison(true, true, CACHE_SCOPE_DIFFERS);

  private HandshakeComparison() {}

  /**
   * Compares two answers. Malformed tool names on either side make the pre-flight not run ({@code
   * ran:false}); otherwise {@code callerSensitive} says whether any facet differs and {@code
   * detail} names the first one that does. Never mutates its inputs.
   *
   * @param a identity A's answer
   * @param b identity B's answer
   * @return the comparison
   */
  public static Comparison compare(Answer a, Answer b) {
    if (hasMalformedName(a.toolNames()) || hasMalformedName(b.toolNames())) {
      return MALFORMED;
    }
    if (a.era() != b.era()) {
      // Only with --era modern: one identity's discover answered, the other's was rejected.
      return a.era() == Era.MODERN ? DISCOVER_DIFFERS : INITIALIZE_DIFFERS;
    }
    if (a.era() == Era.MODERN) {
      if (!discoverEqual(a, b)) {
        return DISCOVER_DIFFERS;
      }
    } else if (!initializeEqual(a, b)) {
      return INITIALIZE_DIFFERS;
    }
    if (!toolsEqual(a, b)) {
      return TOOLS_DIFFER;
    }
    return a.era() == Era.MODERN && !scopesEqual(a.cacheHints(), b.cacheHints())
        ? SCOPE_DIFFERS
        : SAME;
  }

  /**
   * The {@code cacheScope} of discover and of every page, as raw values ({@code ttlMs} is a
   * freshness hint and never compared).
   */
  static boolean scopesEqual(CacheHints a, CacheHints b) {
    if (!JsonWriter.canonical(a.discoverScope()).equals(JsonWriter.canonical(b.discoverScope()))) {
      return false;
    }
    List<?> pagesA = a.pageScopes();
    List<?> pagesB = b.pageScopes();
    if (pagesA.size() != pagesB.size()) {
      return false;
    }
    for (int i = 0; i < pagesA.size(); i++) {
      if (!JsonWriter.canonical(pagesA.get(i)).equals(JsonWriter.canonical(pagesB.get(i)))) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasMalformedName(List<?> names) {
    for (Object name : names) {
      if (!(name instanceof String)) {
        return true;
      }
    }
    return false;
  }

  private static boolean initializeEqual(Answer a, Answer b) {
    // protocolVersion is compared raw; the Answer already reads absent as "".
    return a.protocolVersion().equals(b.protocolVersion())
        && serverInfoEqual(a.serverInfo(), b.serverInfo())
        && Shapes.sameShape(a.capabilities(), b.capabilities());
  }

  private static boolean discoverEqual(Answer a, Answer b) {
    // The modern protocolVersion is the one kcshare requested, so it is not compared.
    return serverInfoEqual(a.serverInfo(), b.serverInfo())
        && Shapes.sameShape(a.capabilities(), b.capabilities())
        && canonicalTexts(a.supportedVersions()).equals(canonicalTexts(b.supportedVersions()));
  }

  /** An empty serverInfo reads as absent; otherwise its shape counts. */
  private static boolean serverInfoEqual(Map<String, ?> a, Map<String, ?> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return a.isEmpty() == b.isEmpty();
    }
    return Shapes.sameShape(a, b);
  }

  /** Supported versions compare as raw values (not shapes), as a set. */
  private static Set<String> canonicalTexts(List<?> values) {
    Set<String> texts = new HashSet<>();
    for (Object v : values) {
      texts.add(JsonWriter.canonical(v));
    }
    return texts;
  }

  private static boolean toolsEqual(Answer a, Answer b) {
    List<?> namesA = a.toolNames();
    List<?> namesB = b.toolNames();
    // Equal lists are the common case and imply equal sets; only then is a set needed.
    if (!namesA.equals(namesB) && !new HashSet<>(namesA).equals(new HashSet<>(namesB))) {
      return false;
    }
    return sameShapeMultiset(a.toolAnnotations(), b.toolAnnotations());
  }

  /**
   * Multiset equality of shapes. Elements that already match at the same index are set aside first
   * (removing one equal element from each side keeps the multisets equal or unequal), so the usual
   * case, the same listing in the same order, costs no canonical text at all; only the rest is
   * compared as sorted canonical texts.
   */
  private static boolean sameShapeMultiset(List<?> a, List<?> b) {
    int size = a.size();
    if (size != b.size()) {
      return false;
    }
    Object[] elementsA = a.toArray();
    Object[] elementsB = b.toArray();
    int unmatched = 0;
    for (int i = 0; i < size; i++) {
      if (!Shapes.sameShape(elementsA[i], elementsB[i])) {
        elementsA[unmatched] = elementsA[i];
        elementsB[unmatched] = elementsB[i];
        unmatched++;
      }
    }
    return unmatched == 0
        || Arrays.equals(sortedShapes(elementsA, unmatched), sortedShapes(elementsB, unmatched));
  }

  /** The first {@code count} elements as a sorted array of canonical shapes. */
  private static String[] sortedShapes(Object[] elements, int count) {
    String[] shapes = new String[count];
    for (int i = 0; i < count; i++) {
      shapes[i] = Shapes.canonicalShape(elements[i]);
    }
    // Any total order decides multiset equality; String's natural order is the cheapest.
    Arrays.sort(shapes);
    return shapes;
  }
}
