package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

final class JsoncTest {
  private static final JsonReader READER = JsonReader.withDepthLimit(100);

  private static Object parse(String jsonc) throws JsonSyntaxException {
    return READER.parse(Jsonc.strip(jsonc));
  }

  @Test
  void commentsAndTrailingCommasAreBlankedStringsAreNot() throws Exception {
    String text =
        "{\n"
            + "  // line comment with \"quotes\" and /* an opener\n"
            + "  \"url\": \"https://example.com/a//b\", /* block\n comment */\n"
            + "  \"s\": \"/* not a comment */ // nor this\",\n"
            + "  \"esc\": \"a \\\"quoted\\\" // value\\\\\",\n"
            + "  \"list\": [1, 2, ],\n"
            + "  \"commaInString\": \",]\",\n"
            + "}\n";
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("url", "https://example.com/a//b");
    expected.put("s", "/* not a comment */ // nor this");
    expected.put("esc", "a \"quoted\" // value\\");
    expected.put("list", List.of(1, 2));
    expected.put("commaInString", ",]");
    assertThat(parse(text)).isEqualTo(expected);
  }

  @Test
  void lineBreaksAreKeptSoErrorsPointIntoTheFile() throws Exception {
    String text = "{\n  /* one\n two */\n  // three\n  \"a\": 1 2,\n}";
    assertThatThrownBy(() -> parse(text))
        .isInstanceOfSatisfying(JsonSyntaxException.class, e -> assertThat(e.line()).isEqualTo(5));
    assertThat(Jsonc.strip("a/*x\ny*/b").split("\n", -1)).hasSize(2);
  }

  @Test
  void anUnterminatedBlockCommentIsAnError() {
    assertThatThrownBy(() -> Jsonc.strip("{\n  \"a\": 1 /* open"))
        .isInstanceOfSatisfying(
            JsonSyntaxException.class,
            e -> {
              assertThat(e.getMessage()).isEqualTo("unterminated /* comment");
              assertThat(e.line()).isEqualTo(2);
              assertThat(e.column()).isEqualTo(10);
            });
  }

  @Test
  void aCommaBeforeACommentBeforeTheCloserIsTrailing() throws Exception {
    assertThat(parse("[1, // c\n /* d */ ]")).isEqualTo(List.of(1));
  }

  @Test
  void nonTrailingDoubleCommasStayErrors() {
    assertThatThrownBy(() -> parse("[1,,2]")).isInstanceOf(JsonSyntaxException.class);
  }

  @Test
  void anErrorAfterCommentsIsReportedWhereTheStrictReaderFindsIt() {
    // The same error, with and without comments before it: the same words and column.
    String plain = "{\"a\": 1         2}";
    String commented = "{\"a\": 1 /* c */ 2}";
    JsonSyntaxException expected = null;
    try {
      READER.parse(plain);
    } catch (JsonSyntaxException e) {
      expected = e;
    }
    assertThat(expected).isNotNull();
    JsonSyntaxException want = expected;
    assertThatThrownBy(() -> parse(commented))
        .isInstanceOfSatisfying(
            JsonSyntaxException.class,
            e -> {
              assertThat(e.getMessage()).isEqualTo(want.getMessage());
              assertThat(e.line()).isEqualTo(want.line());
              assertThat(e.column()).isEqualTo(want.column());
            });
  }

  @Test
  void aByteOrderMarkAndNonNumericNumbersAreKept() throws Exception {
    String text = "\uFEFF{\"x\": NaN, // c\n \"y\": [-Infinity, ], }";
    String stripped = Jsonc.strip(text);
    assertThat(stripped).startsWith("\uFEFF").hasSize(text.length());
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("x", Double.NaN);
    expected.put("y", List.of(Double.NEGATIVE_INFINITY));
    assertThat(READER.parseText(stripped)).isEqualTo(expected);
  }

  @Test
  void aRootValueFollowedByACommentIsItself() throws Exception {
    assertThat(parse("42/* the answer */")).isEqualTo(42);
    assertThat(parse("\"s\" // note")).isEqualTo("s");
  }

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 200).map(i -> base + i * 0x9E3779B97F4A7C15L);
  }

  /** Random documents written with random comments and trailing commas read back unchanged. */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void randomDocumentsSurviveCommentsAndTrailingCommas(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    Object value = randomValue(random, 0);
    StringBuilder text = new StringBuilder();
    write(value, random, text);
    String jsonc = text.toString();
    Object back = ConfigFiles.parse(jsonc.getBytes(StandardCharsets.UTF_8)).root();
    assertThat(back).as("seed=%d input=%s", seed, jsonc).isEqualTo(value);
  }

  private static final String[] TRICKY = {
    "//", "/*", "*/", "\"", "\\", ",]", ",}", "a,", "\n", "é", "\uD83D\uDE00", "${x}", " "
  };

  private static Object randomValue(SplittableRandom r, int depth) {
    int kind = depth > 3 ? r.nextInt(4) : r.nextInt(6);
    switch (kind) {
      case 0:
        return randomString(r);
      case 1:
        return r.nextInt(-1000, 1000);
      case 2:
        return r.nextBoolean();
      case 3:
        return randomString(r);
      case 4:
        {
          List<Object> list = new ArrayList<>();
          int n = r.nextInt(4);
          for (int i = 0; i < n; i++) {
            list.add(randomValue(r, depth + 1));
          }
          return list;
        }
      default:
        {
          Map<String, Object> map = new LinkedHashMap<>();
          int n = r.nextInt(4);
          for (int i = 0; i < n; i++) {
            map.put(randomString(r) + i, randomValue(r, depth + 1));
          }
          return map;
        }
    }
  }

  private static String randomString(SplittableRandom r) {
    StringBuilder b = new StringBuilder();
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      b.append(r.nextBoolean() ? TRICKY[r.nextInt(TRICKY.length)] : (char) ('a' + r.nextInt(26)));
    }
    return b.toString();
  }

  private static void gap(SplittableRandom r, StringBuilder out) {
    switch (r.nextInt(5)) {
      case 0 -> out.append(" // note, with \"quote\" ]}\n");
      case 1 -> out.append("/* block, */ ");
      case 2 -> out.append("\n  ");
      default -> {}
    }
  }

  private static void write(Object value, SplittableRandom r, StringBuilder out) {
    gap(r, out);
    if (value instanceof Map<?, ?> map) {
      out.append('{');
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (i++ > 0) {
          out.append(',');
        }
        gap(r, out);
        out.append(JsonWriter.compact(e.getKey()));
        gap(r, out);
        out.append(':');
        write(e.getValue(), r, out);
      }
      if (i > 0 && r.nextBoolean()) {
        out.append(',');
      }
      gap(r, out);
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      int i = 0;
      for (Object element : list) {
        if (i++ > 0) {
          out.append(',');
        }
        write(element, r, out);
      }
      if (i > 0 && r.nextBoolean()) {
        out.append(',');
      }
      gap(r, out);
      out.append(']');
    } else {
      out.append(JsonWriter.compact(value));
    }
    gap(r, out);
  }
}
