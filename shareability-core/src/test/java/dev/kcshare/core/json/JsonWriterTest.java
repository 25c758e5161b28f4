package dev.kcshare.core.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The record-file number and string style against Python's {@code json.dumps}: floats must come out
 * as Python's {@code repr} writes them, or a kcshare file would not diff cleanly against one
 * written by the Kiro Crew gateway.
 */
final class JsonWriterTest {
  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 10).map(i -> base + i);
  }

  static List<Arguments> boundaries() {
    // Expected strings are Python 3's repr() of the same doubles.
    return List.of(
        Arguments.of(0x41d982c300200000L, "1712000000.5"),
        Arguments.of(0x41d982c34b000000L, "1712000300.0"),
        Arguments.of(0x41d982c30007e6b4L, "1712000000.123456"),
        Arguments.of(0x3f1a36e2eb1c432dL, "0.0001"),
        Arguments.of(0x3f1a36e2eb1c432cL, "9.999999999999999e-05"),
        Arguments.of(0x3ee4f8b588e368f1L, "1e-05"),
        Arguments.of(0x3f201f31f46ed246L, "0.000123"),
        Arguments.of(0xbe8421f5f40d8376L, "-1.5e-07"),
        Arguments.of(0x4341c37937e08000L, "1e+16"),
        Arguments.of(0x4341c37937e07fffL, "9999999999999998.0"),
        Arguments.of(0x430c6bf526340000L, "1000000000000000.0"),
        Arguments.of(0x437b69b4ba630f35L, "1.2345678901234568e+17"),
        // Java 17's Double.toString gives 2.50359402940121056E17 here: one digit too many.
        Arguments.of(0x438bcba4677365ffL, "2.5035940294012106e+17"),
        Arguments.of(0x43aa3763be8d742eL, "9.44544119386675e+17"),
        Arguments.of(0x0000000000000001L, "5e-324"),
        Arguments.of(0x0000000000000003L, "1.5e-323"),
        Arguments.of(0x7fefffffffffffffL, "1.7976931348623157e+308"),
        Arguments.of(0x3fb999999999999aL, "0.1"),
        Arguments.of(0xbfb999999999999aL, "-0.1"),
        Arguments.of(0x3fd5555555555555L, "0.3333333333333333"),
        Arguments.of(0x4480f0cf064dd592L, "1e+22"),
        Arguments.of(0x44b52d02c7e14af6L, "1e+23"),
        Arguments.of(0x4059000000000000L, "100.0"),
        Arguments.of(0x8000000000000000L, "-0.0"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("boundaries")
  void floatsAreWrittenAsPythonReprWritesThem(long bits, String python) {
    assertThat(JsonWriter.pythonFloat(Double.longBitsToDouble(bits))).isEqualTo(python);
  }

  @Test
  void matchesEveryPythonReferenceVector() throws IOException {
    List<String> mismatches = new ArrayList<>();
    int checked = 0;
    try (InputStream in =
            Objects.requireNonNull(
                JsonWriterTest.class.getResourceAsStream("python-float-repr.txt"));
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        String[] parts = line.split(" ");
        double d = Double.longBitsToDouble(Long.parseUnsignedLong(parts[0], 16));
        String actual = JsonWriter.pythonFloat(d);
        if (!actual.equals(parts[1])) {
          mismatches.add(parts[0] + ": python " + parts[1] + ", kcshare " + actual);
        }
        checked++;
      }
    }
    assertThat(checked).isEqualTo(3000);
    assertThat(mismatches).isEmpty();
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void theShortcutForShortDecimalsAgreesWithTheFullSearch(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int shortcut = 0;
    for (int i = 0; i < 2000; i++) {
      // Timestamps with milliseconds, short decimals of every magnitude, and random bit patterns.
      double d =
          switch (i % 3) {
            case 0 -> random.nextLong(1_000_000_000_000L, 2_000_000_000_000L) / 1000.0;
            case 1 ->
                Double.parseDouble(
                    random.nextLong(1, 1_000_000_000_000_000L) + "e" + random.nextInt(-320, 300));
            default -> Double.longBitsToDouble(random.nextLong());
          };
      if (!Double.isFinite(d) || d == 0) {
        continue;
      }
      java.math.BigDecimal jdk = new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros();
      if (jdk.precision() <= 15 && Math.abs(d) >= Double.MIN_NORMAL) {
        shortcut++;
      }
      assertThat(JsonWriter.shortestDigits(d))
          .as("seed=%d bits=%x", seed, Double.doubleToRawLongBits(d))
          .isEqualTo(JsonWriter.searchShortest(d, jdk));
    }
    assertThat(shortcut).as("cases that took the shortcut").isGreaterThan(1000);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void everyFloatReadsBackExactlyAndIsNoLongerThanJava(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 500; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (!Double.isFinite(d)) {
        continue;
      }
      String text = JsonWriter.pythonFloat(d);
      assertThat(Double.parseDouble(text))
          .as("seed=%d bits=%x", seed, Double.doubleToRawLongBits(d))
          .isEqualTo(d);
      assertThat(JsonWriter.shortestDigits(d).precision())
          .as("seed=%d bits=%x", seed, Double.doubleToRawLongBits(d))
          .isLessThanOrEqualTo(
              new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros().precision());
    }
  }

  @Test
  void nonFiniteNumbersAreWrittenAsZero() {
    assertThat(JsonWriter.pythonFloat(Double.NaN)).isEqualTo("0.0");
    assertThat(JsonWriter.pythonFloat(Double.NEGATIVE_INFINITY)).isEqualTo("0.0");
  }

  @Test
  void prettyMatchesPythonDumpsIndentTwo() {
    // json.dumps({"a": [1, 2.5, {}], "b": {"c": "\x00\u00e9\U0001f600\x7f\n"}, "d": []},
    //            indent=2, ensure_ascii=True) + "\n"
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("c", "\u0000\u00e9\uD83D\uDE00\u007f\n");
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("a", List.of(1L, 2.5, Map.of()));
    doc.put("b", inner);
    doc.put("d", List.of());
    assertThat(JsonWriter.pretty(doc))
        .isEqualTo(
            "{\n  \"a\": [\n    1,\n    2.5,\n    {}\n  ],\n  \"b\": {\n    \"c\":"
                + " \"\\u0000\\u00e9\\ud83d\\ude00\\u007f\\n\"\n  },\n  \"d\": []\n}\n");
  }
}
