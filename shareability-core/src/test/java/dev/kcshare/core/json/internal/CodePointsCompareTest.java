package dev.kcshare.core.json.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The char-wise fast path of {@link CodePoints#compare} against a plain code point walk. */
final class CodePointsCompareTest {
  private static final char[] ALPHABET = {
    'a', 'b', '~', '\u00e9', '\uD7FF', '\uE000', '\uFFFF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'
  };

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 10).map(i -> base + i);
  }

  @Test
  void charactersAboveTheBmpSortAfterTheRestOfTheBmp() {
    assertThat(CodePoints.compare("\uFFFF", "\uD83D\uDE00")).isNegative();
    assertThat("\uFFFF".compareTo("\uD83D\uDE00")).isPositive();
    assertThat(CodePoints.compare("x\uD83D\uDE00", "x\uD83D\uDE01")).isNegative();
    assertThat(CodePoints.compare("a", "ab")).isNegative();
    assertThat(CodePoints.compare("ab", "ab")).isZero();
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void agreesWithACodePointWalk(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 5_000; i++) {
      String a = randomString(random);
      // Half the pairs share a prefix, so differences land just after surrogates too.
      String b = random.nextBoolean() ? a.substring(0, random.nextInt(a.length() + 1)) : "";
      b += randomString(random);
      assertThat(Integer.signum(CodePoints.compare(a, b)))
          .as("seed=%d a=%s b=%s", seed, escape(a), escape(b))
          .isEqualTo(Integer.signum(reference(a, b)));
    }
  }

  private static int reference(String a, String b) {
    int[] x = a.codePoints().toArray();
    int[] y = b.codePoints().toArray();
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] != y[i]) {
        return Integer.compare(x[i], y[i]);
      }
    }
    return Integer.compare(x.length, y.length);
  }

  private static String randomString(SplittableRandom random) {
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(5);
    for (int i = 0; i < n; i++) {
      s.append(ALPHABET[random.nextInt(ALPHABET.length)]);
    }
    return s.toString();
  }

  private static String escape(String s) {
    StringBuilder out = new StringBuilder();
    s.chars().forEach(c -> out.append(String.format("\\u%04x", c)));
    return out.toString();
  }
}
