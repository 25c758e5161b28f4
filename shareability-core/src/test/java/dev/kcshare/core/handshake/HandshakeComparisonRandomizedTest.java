package dev.kcshare.core.handshake;

import static dev.kcshare.core.handshake.Fixtures.shuffle;
import static dev.kcshare.core.handshake.Fixtures.shuffledCopy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.internal.Answers;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.JsonValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated answer pairs checked against a straightforward (recursive) model of
 * docs/design.md#handshake-comparison, plus the comparison's invariants: symmetry, determinism,
 * reflexivity, no mutation.
 */
final class HandshakeComparisonRandomizedTest {
  private static final int SEEDS = 20;
  private static final int PAIRS_PER_SEED = 250;

  private static final String[] KEYS = {
    "a",
    "b",
    "c",
    "tools",
    "listChanged",
    "subscribe",
    "logging",
    "readOnlyHint",
    "title",
    "\uD83D\uDE00",
    "\uFFFF",
    "\u00e9",
    "a\"b",
    "",
    "x/y"
  };
  private static final String[] NAMES = {"read", "write", "list", "a", "b", "\uD83D\uDE00"};
  private static final String[] VERSIONS = {"2024-11-05", "2025-03-26", "2025-11-25", ""};

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, SEEDS).map(i -> base + i);
  }

  /** One identity's raw results, before normalisation. */
  private record Raw(Era era, @Nullable Object result, List<@Nullable Object> tools) {
    Answer answer() {
      return era == Era.MODERN ? Answers.modern(result, tools) : Answers.legacy(result, tools);
    }

    String text() {
      return era + " " + JsonWriter.compact(result) + " " + JsonWriter.compact(tools);
    }

    Raw shuffledCopy(SplittableRandom random) {
      @SuppressWarnings("unchecked")
      List<@Nullable Object> copy = (List<@Nullable Object>) Fixtures.shuffledCopy(tools, random);
      return new Raw(era, Fixtures.shuffledCopy(result, random), copy);
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void compareAgreesWithTheModelAndKeepsItsInvariants(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Map<String, Integer> outcomes = new HashMap<>();
    for (int i = 0; i < PAIRS_PER_SEED; i++) {
      Raw rawA = raw(random, random.nextInt(3) == 0 ? Era.MODERN : Era.LEGACY);
      Raw rawB = rawA.shuffledCopy(random);
      int mutations = random.nextInt(3);
      for (int m = 0; m < mutations; m++) {
        mutate(rawB, random);
      }
      String where = "seed=" + seed + " pair=" + i + "\nA: " + rawA.text() + "\nB: " + rawB.text();
      String textA = rawA.text();
      String textB = rawB.text();
      Answer a = rawA.answer();
      Answer b = rawB.answer();
      String answersBefore = answerText(a) + answerText(b);

      Comparison ab = HandshakeComparison.compare(a, b);

      assertThat(ab).as(where).isEqualTo(model(a, b));
      assertThat(HandshakeComparison.compare(b, a)).as("symmetric: " + where).isEqualTo(ab);
      assertThat(HandshakeComparison.compare(a, b)).as("deterministic: " + where).isEqualTo(ab);
      assertThat(rawA.text() + rawB.text())
          .as("raw inputs unchanged: " + where)
          .isEqualTo(textA + textB);
      assertThat(answerText(a) + answerText(b))
          .as("answers unchanged: " + where)
          .isEqualTo(answersBefore);

      Comparison self = HandshakeComparison.compare(a, rawA.shuffledCopy(random).answer());
      assertThat(self)
          .as("reflexive: " + where)
          .isEqualTo(
              hasMalformedName(a)
                  ? new Comparison(false, false, HandshakeComparison.MALFORMED_TOOL_NAMES)
                  : new Comparison(true, false, ""));

      List<?> valuesA = shapedValues(a);
      List<?> valuesB = shapedValues(b);
      for (int j = 0; j < Math.min(valuesA.size(), valuesB.size()); j++) {
        Object x = valuesA.get(j);
        Object y = valuesB.get(j);
        assertThat(Shapes.sameShape(x, y))
            .as("sameShape = equal canonical shapes: " + where)
            .isEqualTo(Shapes.canonicalShape(x).equals(Shapes.canonicalShape(y)));
      }
      for (Object value : valuesA) {
        String canonical = Shapes.canonical(Shapes.shape(value));
        assertThat(Shapes.canonicalShape(value))
            .as("fused = canonical(shape): " + where)
            .isEqualTo(canonical);
        assertThat(Shapes.canonical(Shapes.shape(Shapes.shape(value))))
            .as("idempotent: " + where)
            .isEqualTo(canonical);
      }
      outcomes.merge(
          ab.ran() ? (ab.detail().isEmpty() ? "same" : ab.detail()) : "not run", 1, Integer::sum);
    }
    // The generator must reach every outcome, or the agreement above proves little.
    assertThat(outcomes)
        .as("outcomes for seed=" + seed)
        .containsKeys(
            "same",
            "initialize_shape_differs",
            "discover_shape_differs",
            "tools_shape_differs",
            "not run");
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void anySingleBooleanFlipInCapabilitiesIsCallerSensitive(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < PAIRS_PER_SEED; i++) {
      Era era = random.nextBoolean() ? Era.MODERN : Era.LEGACY;
      Raw rawA = raw(random, era);
      Map<String, @Nullable Object> result = new LinkedHashMap<>();
      Map<String, @Nullable Object> capabilities = object(random, 0);
      result.put("capabilities", capabilities);
      result.put("protocolVersion", "2025-03-26");
      rawA = new Raw(era, result, wellNamed(rawA.tools()));

      List<List<String>> paths = new ArrayList<>();
      booleanPaths(capabilities, new ArrayList<>(), paths);
      if (paths.isEmpty()) {
        capabilities.put("flag", random.nextBoolean());
        paths.add(List.of("flag"));
      }
      List<String> path = paths.get(random.nextInt(paths.size()));
      Raw rawB = rawA.shuffledCopy(random);
      @SuppressWarnings("unchecked")
      Map<String, @Nullable Object> node =
          (Map<String, @Nullable Object>)
              Objects.requireNonNull(((Map<?, ?>) rawB.result()).get("capabilities"));
      for (String key : path.subList(0, path.size() - 1)) {
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> child = (Map<String, @Nullable Object>) node.get(key);
        node = Objects.requireNonNull(child);
      }
      String leaf = path.get(path.size() - 1);
      node.put(leaf, !(Boolean) Objects.requireNonNull(node.get(leaf)));

      String where = "seed=" + seed + " pair=" + i + " path=" + path + "\nA: " + rawA.text();
      assertThat(HandshakeComparison.compare(rawA.answer(), rawB.answer()))
          .as(where)
          .isEqualTo(
              new Comparison(
                  true,
                  true,
                  era == Era.MODERN
                      ? HandshakeComparison.DISCOVER_SHAPE_DIFFERS
                      : HandshakeComparison.INITIALIZE_SHAPE_DIFFERS));
    }
  }

  // ---- the model: docs/design.md#handshake-comparison, written the obvious (recursive) way
  // --------------------------

  private static Comparison model(Answer a, Answer b) {
    if (hasMalformedName(a) || hasMalformedName(b)) {
      return new Comparison(false, false, "malformed_tool_names");
    }
    boolean modern = a.era() == Era.MODERN;
    boolean first =
        Objects.equals(modelShape(a.capabilities(), true), modelShape(b.capabilities(), true))
            && Objects.equals(modelServerInfo(a), modelServerInfo(b))
            && (modern
                ? canonicalTextSet(a.supportedVersions())
                    .equals(canonicalTextSet(b.supportedVersions()))
                : a.protocolVersion().equals(b.protocolVersion()));
    if (!first) {
      return new Comparison(
          true, true, modern ? "discover_shape_differs" : "initialize_shape_differs");
    }
    boolean tools =
        new HashSet<Object>(a.toolNames()).equals(new HashSet<Object>(b.toolNames()))
            && annotationCounts(a).equals(annotationCounts(b));
    return tools
        ? new Comparison(true, false, "")
        : new Comparison(true, true, "tools_shape_differs");
  }

  private static @Nullable Object modelShape(@Nullable Object value, boolean top) {
    if (value == null) {
      return top ? null : "*";
    }
    if (value instanceof Boolean) {
      return value;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, @Nullable Object> shape = new HashMap<>();
      map.forEach((k, v) -> shape.put(k, modelShape(v, false)));
      return shape;
    }
    return "*";
  }

  private static @Nullable Object modelServerInfo(Answer answer) {
    return answer.serverInfo().isEmpty() ? null : modelShape(answer.serverInfo(), true);
  }

  private static Set<String> canonicalTextSet(List<?> values) {
    Set<String> texts = new HashSet<>();
    values.forEach(v -> texts.add(JsonWriter.canonical(v)));
    return texts;
  }

  private static Map<@Nullable Object, Integer> annotationCounts(Answer answer) {
    Map<@Nullable Object, Integer> counts = new HashMap<>();
    answer.toolAnnotations().forEach(x -> counts.merge(modelShape(x, true), 1, Integer::sum));
    return counts;
  }

  private static boolean hasMalformedName(Answer answer) {
    return answer.toolNames().stream().anyMatch(n -> !(n instanceof String));
  }

  // ---- generators ------------------------------------------------------------------------------

  private static Raw raw(SplittableRandom random, Era era) {
    List<@Nullable Object> tools = new ArrayList<>();
    int count = random.nextInt(7);
    for (int i = 0; i < count; i++) {
      tools.add(tool(random));
    }
    return new Raw(era, result(random, era), tools);
  }

  private static @Nullable Object result(SplittableRandom random, Era era) {
    if (random.nextInt(20) == 0) {
      return pick(random, null, "result", 5, new ArrayList<>());
    }
    Map<String, @Nullable Object> result = new LinkedHashMap<>();
    int capsKind = random.nextInt(10);
    if (capsKind < 8) {
      result.put("capabilities", object(random, 0));
    } else if (capsKind == 8) {
      result.put("capabilities", pick(random, "x", new ArrayList<>(), null, true));
    }
    Object serverInfo =
        random.nextInt(4) == 0 ? pick(random, "srv", new LinkedHashMap<>()) : object(random, 2);
    if (era == Era.MODERN) {
      List<@Nullable Object> supported = new ArrayList<>();
      int n = random.nextInt(4);
      for (int i = 0; i < n; i++) {
        supported.add(
            pick(random, "2026-07-28", "2025-11-25", 1, 1.0, scalar(random), object(random, 3)));
      }
      if (random.nextInt(10) > 0) {
        result.put("supportedVersions", random.nextInt(10) == 0 ? "2026-07-28" : supported);
      }
      if (random.nextInt(5) > 0) {
        Map<String, @Nullable Object> meta = new LinkedHashMap<>();
        meta.put(Answers.SERVER_INFO_META_KEY, serverInfo);
        result.put("_meta", meta);
      }
    } else {
      if (random.nextInt(10) > 0) {
        result.put(
            "protocolVersion",
            random.nextInt(10) == 0 ? 20241105 : pick(random, (Object[]) VERSIONS));
      }
      if (random.nextInt(5) > 0) {
        result.put("serverInfo", serverInfo);
      }
    }
    return result;
  }

  private static @Nullable Object tool(SplittableRandom random) {
    if (random.nextInt(15) == 0) {
      return scalar(random);
    }
    Map<String, @Nullable Object> tool = new LinkedHashMap<>();
    int nameKind = random.nextInt(40);
    if (nameKind == 0) {
      tool.put("name", pick(random, 123, true, List.of(1), Map.of("a", 1)));
    } else if (nameKind < 4) {
      tool.put("name", pick(random, "", null, 0, false, new ArrayList<>()));
    } else if (nameKind < 38) {
      tool.put("name", pick(random, (Object[]) NAMES));
    }
    tool.put("description", "does things " + random.nextInt(100));
    int annotationKind = random.nextInt(10);
    if (annotationKind < 6) {
      tool.put("annotations", object(random, 2));
    } else if (annotationKind == 6) {
      tool.put("annotations", pick(random, "x", null, new ArrayList<>(), true));
    }
    return tool;
  }

  private static Map<String, @Nullable Object> object(SplittableRandom random, int depth) {
    Map<String, @Nullable Object> object = new LinkedHashMap<>();
    int size = random.nextInt(depth == 0 ? 5 : 4);
    for (int i = 0; i < size; i++) {
      object.put(KEYS[random.nextInt(KEYS.length)], value(random, depth + 1));
    }
    return object;
  }

  private static @Nullable Object value(SplittableRandom random, int depth) {
    int kind = random.nextInt(20);
    if (kind < 5 && depth < 4) {
      return object(random, depth);
    }
    if (kind < 11) {
      return random.nextBoolean();
    }
    if (kind < 14 && depth < 4) {
      List<@Nullable Object> array = new ArrayList<>();
      int n = random.nextInt(3);
      for (int i = 0; i < n; i++) {
        array.add(value(random, depth + 1));
      }
      return array;
    }
    return scalar(random);
  }

  private static @Nullable Object scalar(SplittableRandom random) {
    return pick(
        random,
        null,
        "s",
        "",
        "*",
        0,
        7L,
        1.5,
        -0.0,
        Double.NaN,
        Double.POSITIVE_INFINITY,
        new BigDecimal("2.50"),
        true,
        false);
  }

  private static @Nullable Object pick(SplittableRandom random, @Nullable Object... choices) {
    return choices[random.nextInt(choices.length)];
  }

  /** Changes B somewhere: a member of any object, the tool list, or a top-level field. */
  @SuppressWarnings("unchecked")
  private static void mutate(Raw raw, SplittableRandom random) {
    List<Map<String, @Nullable Object>> objects = new ArrayList<>();
    collectObjects(raw.result(), objects);
    collectObjects(raw.tools(), objects);
    int kind = random.nextInt(6);
    if (kind < 4 && !objects.isEmpty()) {
      Map<String, @Nullable Object> target = objects.get(random.nextInt(objects.size()));
      List<String> keys = new ArrayList<>(target.keySet());
      String key =
          keys.isEmpty() || random.nextInt(3) == 0
              ? KEYS[random.nextInt(KEYS.length)]
              : keys.get(random.nextInt(keys.size()));
      switch (kind) {
        case 0 -> {
          if (target.get(key) instanceof Boolean flag) {
            target.put(key, !flag);
          } else {
            target.put(key, value(random, 3));
          }
        }
        case 1 -> target.remove(key);
        case 2 -> target.put(key, scalar(random));
        default -> target.put(key, value(random, 2));
      }
      return;
    }
    List<@Nullable Object> tools = raw.tools();
    switch (random.nextInt(4)) {
      case 0 -> shuffle(tools, random);
      case 1 -> {
        if (!tools.isEmpty()) {
          tools.add(shuffledCopy(tools.get(random.nextInt(tools.size())), random));
        }
      }
      case 2 -> {
        if (!tools.isEmpty()) {
          tools.remove(random.nextInt(tools.size()));
        }
      }
      default -> tools.add(tool(random));
    }
  }

  private static void collectObjects(
      @Nullable Object value, List<Map<String, @Nullable Object>> into) {
    if (value instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, @Nullable Object> object = (Map<String, @Nullable Object>) map;
      into.add(object);
      map.values().forEach(v -> collectObjects(v, into));
    } else if (value instanceof List<?> list) {
      list.forEach(v -> collectObjects(v, into));
    }
  }

  private static void booleanPaths(Map<?, ?> object, List<String> prefix, List<List<String>> into) {
    object.forEach(
        (k, v) -> {
          List<String> path = new ArrayList<>(prefix);
          path.add((String) k);
          if (v instanceof Boolean) {
            into.add(path);
          } else if (v instanceof Map<?, ?> child) {
            booleanPaths(child, path, into);
          }
        });
  }

  /** The tools with every malformed name replaced, so the flip test always measures. */
  private static List<@Nullable Object> wellNamed(List<@Nullable Object> tools) {
    List<@Nullable Object> result = new ArrayList<>();
    for (Object tool : tools) {
      if (tool instanceof Map<?, ?> map
          && JsonValues.isTruthy(map.get("name"))
          && !(map.get("name") instanceof String)) {
        Map<String, @Nullable Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put((String) k, v));
        copy.put("name", "fixed");
        result.add(copy);
      } else {
        result.add(tool);
      }
    }
    return result;
  }

  private static List<?> shapedValues(Answer answer) {
    List<@Nullable Object> values = new ArrayList<>();
    values.add(answer.capabilities());
    values.add(answer.serverInfo());
    values.addAll(answer.toolAnnotations());
    values.addAll(answer.supportedVersions());
    return values;
  }

  private static String answerText(Answer a) {
    return JsonWriter.compact(
        List.of(
            a.era().json(),
            Objects.requireNonNullElse(a.capabilities(), "null-caps"),
            a.protocolVersion(),
            a.supportedVersions(),
            a.serverInfo(),
            a.toolNames(),
            a.toolAnnotations()));
  }
}
