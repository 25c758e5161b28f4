package dev.kcshare.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

final class ClosestNameTest {
  private static final List<String> CONFIGURED =
      List.of("good", "search", "files-mcp", "github", "kirocrew-core", "kirocrew-cron");

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "godo, good", // a swap of neighbours costs 1
    "goo, good", // a deletion
    "goodd, good", // an insertion
    "Good, good", // letter case alone is free
    "SEARCH, search",
    "serach, search",
    "seach, search",
    "files, files-mcp", // a prefix of a longer name
    "files-mcp-server, files-mcp", // a longer name starting with a configured one
    "githbu, github",
    "kirocrew-cor, kirocrew-core", // equally near to -core and -cron: the first listed
    "kirocrew-crn, kirocrew-cron",
  })
  void suggestsTheNameMeant(String typed, String expected) {
    assertThat(ClosestName.closest(typed, CONFIGURED)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"nope", "x", "zz", "completely-different", "ab", "fi", "sea-monster"})
  void suggestsNothingForAFarName(String typed) {
    assertThat(ClosestName.closest(typed, CONFIGURED)).isNull();
  }

  @Test
  void thresholdGrowsWithTheLength() {
    assertThat(ClosestName.threshold(1)).isZero();
    assertThat(ClosestName.threshold(2)).isEqualTo(1);
    // A one-letter name is never "near" another one-letter name: only letter case may differ.
    assertThat(ClosestName.closest("a", List.of("x", "b"))).isNull();
    assertThat(ClosestName.closest("A", List.of("x", "a"))).isEqualTo("a");
    assertThat(ClosestName.closest("ab", List.of("ba"))).isEqualTo("ba");
    assertThat(ClosestName.threshold(3)).isEqualTo(1);
    assertThat(ClosestName.threshold(4)).isEqualTo(2);
    assertThat(ClosestName.threshold(6)).isEqualTo(2);
    assertThat(ClosestName.threshold(7)).isEqualTo(3);
    // "abc" → "xyz" is three edits away: too far for a three-letter name.
    assertThat(ClosestName.closest("abc", List.of("abd"))).isEqualTo("abd");
    assertThat(ClosestName.closest("abc", List.of("axy"))).isNull();
  }

  @Test
  void tiesGoToExactCaseThenTheShorterThenTheFirstListed() {
    assertThat(ClosestName.closest("Fetch", List.of("FETCH", "fetcH"))).isEqualTo("fetcH");
    assertThat(ClosestName.closest("fetch", List.of("fetchy", "fetchx"))).isEqualTo("fetchy");
    assertThat(ClosestName.closest("fetch", List.of("fetchx", "fetchy"))).isEqualTo("fetchx");
    // A near match beats a prefix match even when the prefix match is shorter.
    assertThat(ClosestName.closest("fil", List.of("files-mcp", "fix"))).isEqualTo("fix");
  }

  @Test
  void emptyAndOversizedNamesSuggestNothing() {
    assertThat(ClosestName.closest("", CONFIGURED)).isNull();
    assertThat(ClosestName.closest("good", List.of())).isNull();
    assertThat(ClosestName.closest("good", List.of(""))).isNull();
    String huge = "g".repeat(ClosestName.MAX_LENGTH + 1);
    assertThat(ClosestName.closest(huge, List.of(huge))).isNull();
    assertThat(ClosestName.closest("good", List.of(huge, "goad"))).isEqualTo("goad");
  }

  @Test
  void comparesCodePointsNotCharUnits() {
    // One emoji is one character: replacing it is one edit, not two.
    assertThat(ClosestName.distance("a\uD83D\uDE00b", "a\uD83D\uDE01b")).isEqualTo(1);
    assertThat(ClosestName.closest("srv-\uD83D\uDE00", List.of("srv-\uD83D\uDE01")))
        .isEqualTo("srv-\uD83D\uDE01");
  }

  @ParameterizedTest(name = "{0} / {1} = {2}")
  @CsvSource({
    "'', '', 0",
    "abc, '', 3",
    "kitten, sitting, 3",
    "ab, ba, 1",
    "ca, abc, 3", // optimal string alignment: no substring is edited twice
    "good, good, 0",
    "Good, good, 1",
  })
  void distanceExamples(String a, String b, int expected) {
    assertThat(ClosestName.distance(a, b)).isEqualTo(expected);
    assertThat(ClosestName.distance(b, a)).isEqualTo(expected);
  }

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 40).map(i -> base + i);
  }

  /** Random names and one random edit: the distance properties every suggestion relies on. */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void distanceProperties(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String a = randomName(random);
    String b = randomName(random);
    int d = ClosestName.distance(a, b);
    assertThat(d).as("seed %d: %s / %s", seed, a, b).isEqualTo(ClosestName.distance(b, a));
    assertThat(d).isBetween(Math.abs(a.length() - b.length()), Math.max(a.length(), b.length()));
    assertThat(d == 0).isEqualTo(a.equals(b));
    assertThat(ClosestName.distance(a, a)).isZero();

    String edited = oneEdit(random, a);
    assertThat(ClosestName.distance(a, edited))
        .as("seed %d: %s -> %s", seed, a, edited)
        .isLessThanOrEqualTo(1);
    // A single edit of a configured name of 4+ characters is always suggested back.
    if (a.length() >= 4) {
      assertThat(ClosestName.closest(edited, List.of("unrelated-name-zzz", a)))
          .as("seed %d: %s -> %s", seed, a, edited)
          .isEqualTo(a);
    }
  }

  private static String randomName(SplittableRandom random) {
    int length = random.nextInt(0, 12);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append((char) ('a' + random.nextInt(0, 6)));
    }
    return b.toString();
  }

  private static String oneEdit(SplittableRandom random, String s) {
    StringBuilder b = new StringBuilder(s);
    char c = (char) ('a' + random.nextInt(0, 6));
    switch (s.isEmpty() ? 0 : random.nextInt(0, 4)) {
      case 0 -> b.insert(random.nextInt(0, s.length() + 1), c);
      case 1 -> b.deleteCharAt(random.nextInt(0, s.length()));
      case 2 -> b.setCharAt(random.nextInt(0, s.length()), c);
      default -> {
        if (s.length() >= 2) {
          int i = random.nextInt(0, s.length() - 1);
          char t = b.charAt(i);
          b.setCharAt(i, b.charAt(i + 1));
          b.setCharAt(i + 1, t);
        }
      }
    }
    return b.toString();
  }
}
