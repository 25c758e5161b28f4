package dev.kcshare.core.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

final class EscaperTest {

  @Test
  void plainPrintableAsciiIsReturnedUnchanged() {
    String s = "files-mcp 0.6.3 (a/b) ~!@#$%^&*";
    assertThat(Escaper.esc(s, Escaper.SHORT_LIMIT)).isSameAs(s);
  }

  @Test
  void shortEscapesForBackslashQuoteAndWhitespaceControls() {
    assertThat(Escaper.esc("a\\b\"c\nd\re\tf", 120)).isEqualTo("a\\\\b\\\"c\\nd\\re\\tf");
  }

  @ParameterizedTest(name = "U+{0} -> {1}")
  @CsvSource({
    "0000, \\x00", // NUL (Cc)
    "001b, \\x1b", // ESC (Cc)
    "007f, \\x7f", // DEL (Cc)
    "0085, \\x85", // NEL, C1 control (Cc)
    "009b, \\x9b", // CSI, C1 control (Cc)
    "00a0, \\xa0", // NO-BREAK SPACE (Zs other than U+0020)
    "00ad, \\xad", // SOFT HYPHEN (Cf)
    "2028, \\u2028", // LINE SEPARATOR (Zl)
    "2029, \\u2029", // PARAGRAPH SEPARATOR (Zp)
    "202e, \\u202e", // RIGHT-TO-LEFT OVERRIDE (Cf)
    "200b, \\u200b", // ZERO WIDTH SPACE (Cf)
    "3000, \\u3000", // IDEOGRAPHIC SPACE (Zs)
    "feff, \\ufeff", // BYTE ORDER MARK (Cf)
    "e000, \\ue000", // private use (Co)
    "0378, \\u0378", // unassigned (Cn)
    "e0001, \\U000e0001", // LANGUAGE TAG (Cf, supplementary)
    "f0000, \\U000f0000", // supplementary private use (Co)
    "10ffff, \\U0010ffff", // noncharacter (Cn)
  })
  void nonPrintableCodePointsAreEscapedWithLowercaseHex(String hex, String expected) {
    String s = "<" + Character.toString(Integer.parseInt(hex, 16)) + ">";
    assertThat(Escaper.esc(s, 120)).isEqualTo("<" + expected + ">");
  }

  @Test
  void ordinarySpaceAndPrintableNonAsciiAreKept() {
    String s = "caf\u00e9 \u65e5\u672c \ud83d\ude00 \u0416";
    assertThat(Escaper.esc(s, 120)).isEqualTo(s);
  }

  @Test
  void loneSurrogatesAreEscapedAsCs() {
    assertThat(Escaper.esc("a\ud800b", 120)).isEqualTo("a\\ud800b");
    assertThat(Escaper.esc("a\udfff", 120)).isEqualTo("a\\udfff");
    // A low surrogate followed by a high one is two lone surrogates, not a pair.
    assertThat(Escaper.esc("\ude00\ud83d", 120)).isEqualTo("\\ude00\\ud83d");
  }

  @Test
  void truncationCountsCodePointsNotUtf16Units() {
    String emoji = "\ud83d\ude00";
    String s = emoji.repeat(5);
    assertThat(Escaper.esc(s, 5)).isEqualTo(s);
    assertThat(Escaper.esc(s, 3)).isEqualTo(emoji.repeat(3) + "...");
    assertThat(Escaper.esc("abcdef", 3)).isEqualTo("abc...");
    assertThat(Escaper.esc("abc", 3)).isEqualTo("abc");
    assertThat(Escaper.esc("abc", 0)).isEqualTo("...");
    assertThat(Escaper.esc("", 0)).isEmpty();
  }

  @Test
  void truncationHappensBeforeEscapingSoEscapesAreNeverCut() {
    // 3 code points kept; the third is NUL, escaped as 4 characters, then the mark.
    assertThat(Escaper.esc("ab\u0000cd", 3)).isEqualTo("ab\\x00...");
    assertThat(Escaper.esc("\n".repeat(200), Escaper.SHORT_LIMIT))
        .isEqualTo("\\n".repeat(120) + "...");
  }

  @Test
  void limitsMatchTheSpecification() {
    assertThat(Escaper.SHORT_LIMIT).isEqualTo(120);
    assertThat(Escaper.LONG_LIMIT).isEqualTo(500);
    String longText = "x".repeat(600);
    assertThat(Escaper.esc(longText, Escaper.LONG_LIMIT)).isEqualTo("x".repeat(500) + "...");
  }

  @Test
  void quotedWrapsTheEscapedValue() {
    assertThat(Escaper.quoted("0.7.0\n[fake] entry", 120)).isEqualTo("\"0.7.0\\n[fake] entry\"");
    assertThat(Escaper.quoted("a\"b", 120)).isEqualTo("\"a\\\"b\"");
  }

  @Test
  void negativeLimitIsMisuse() {
    assertThatThrownBy(() -> Escaper.esc("a", -1)).isInstanceOf(IllegalArgumentException.class);
  }

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 20).map(i -> base + i);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void resultIsAlwaysOneLineOfPrintableCharacters(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int round = 0; round < 500; round++) {
      StringBuilder s = new StringBuilder();
      int length = random.nextInt(0, 40);
      for (int i = 0; i < length; i++) {
        // Mix ASCII, Latin-1, BMP (including surrogates as lone units) and supplementary.
        int kind = random.nextInt(4);
        if (kind == 0) {
          s.append((char) random.nextInt(0, 0x80));
        } else if (kind == 1) {
          s.append((char) random.nextInt(0x80, 0x100));
        } else if (kind == 2) {
          s.append((char) random.nextInt(0x100, 0x10000));
        } else {
          s.appendCodePoint(random.nextInt(0x10000, 0x110000));
        }
      }
      int limit = random.nextInt(0, 50);
      String input = s.toString();
      String out = Escaper.esc(input, limit);
      String replay = "seed=" + seed + " round=" + round + " limit=" + limit;
      out.codePoints()
          .forEach(
              cp ->
                  assertThat(Escaper.isNonPrintable(cp))
                      .as("%s: U+%04X in output", replay, cp)
                      .isFalse());
      assertThat(out).as(replay).doesNotContain("\n", "\r");
      int inputCodePoints = input.codePointCount(0, input.length());
      if (inputCodePoints <= limit) {
        assertThat(unescape(out)).as(replay).isEqualTo(input);
      } else {
        assertThat(out).as(replay).endsWith("...");
        String head = input.substring(0, input.offsetByCodePoints(0, limit));
        assertThat(unescape(out.substring(0, out.length() - 3))).as(replay).isEqualTo(head);
      }
    }
  }

  /** Inverse of the escaping, to prove nothing is lost when the input is not truncated. */
  private static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char k = s.charAt(++i);
      switch (k) {
        case '\\' -> out.append('\\');
        case '"' -> out.append('"');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'x' -> {
          out.appendCodePoint(Integer.parseInt(s.substring(i + 1, i + 3), 16));
          i += 2;
        }
        case 'u' -> {
          out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
          i += 4;
        }
        case 'U' -> {
          out.appendCodePoint(Integer.parseInt(s.substring(i + 1, i + 9), 16));
          i += 8;
        }
        default -> throw new AssertionError("bad escape in " + s);
      }
    }
    return out.toString();
  }

  @Test
  void escTailKeepsTheLastCodePoints() {
    assertThat(Escaper.escTail("0123456789", 4)).isEqualTo("...6789");
    assertThat(Escaper.escTail("x\n", 4)).isEqualTo("x\\n");
    assertThat(Escaper.escTail("ab" + "\uD83D\uDE00".repeat(3), 2))
        .isEqualTo("...\uD83D\uDE00\uD83D\uDE00");
  }

  @Test
  void unescapeReadsBackEveryShortAndHexEscape() {
    assertThat(Escaper.unescape("fixture: x\\\\y \\\"q\\\" \\x1b[31m\\u202e\\U0001f600\\n"))
        .isEqualTo("fixture: x\\y \"q\" \u001b[31m\u202e\ud83d\ude00\n");
  }

  @Test
  void unescapeKeepsWhatIsNotAnEscape() {
    assertThat(Escaper.unescape("...tail \\q \\x1 end\\")).isEqualTo("...tail \\q \\x1 end\\");
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("roundTripSeeds")
  void unescapeUndoesEscOfAnyStringWithinTheLimit(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder s = new StringBuilder();
    int length = random.nextInt(0, 60);
    for (int k = 0; k < length; k++) {
      int pick = random.nextInt(4);
      int cp =
          switch (pick) {
            case 0 -> random.nextInt(0, 0x80);
            case 1 -> "\\\"\n\r\t".charAt(random.nextInt(5));
            case 2 -> random.nextInt(0x80, 0x3000);
            default -> random.nextInt(0x10000, 0x20000);
          };
      s.appendCodePoint(cp);
    }
    String original = s.toString();
    assertThat(Escaper.unescape(Escaper.esc(original, Escaper.LONG_LIMIT))).isEqualTo(original);
  }

  static LongStream roundTripSeeds() {
    return LongStream.range(1, 41);
  }
}
