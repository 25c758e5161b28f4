package dev.kcshare.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.verdict.Seeds;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SecretPrefixesTest {

  @ParameterizedTest(name = "{0}: ignoring case {1}, case-sensitive {2}")
  @CsvSource({
    "oauth_token, true, false",
    "OAUTH_TOKEN, true, true",
    "Aws_Secret_Key, true, false",
    "MY_OAUTH_TOKEN, false, false",
    "OAUTHLIB_X, true, true",
    "OAUTH2_X, true, true",
    "AWS_SESSION, true, true",
    "AWS_SECRETS_MANAGER_ARN, true, true",
    "aws_secret_key, true, false",
    "AWS_ACCESS_KEY_ID, false, false",
    "GITHUB_TOKEN, false, false",
    "OAUT, false, false",
    "'', false, false",
    // U+0131 (dotless i) upper-cases to I: the Unicode rule, not ASCII folding, decides.
    "aws_sess\u0131on, true, false",
    // U+017F (long s) upper-cases to S.
    "aws_\u017fecret, true, false",
    // A non-ASCII character after the prefix does not matter.
    "OAUTH_\u00e9t\u00e9, true, true",
  })
  void rotatingPrefixes(String name, boolean ignoringCase, boolean caseSensitive) {
    assertThat(SecretPrefixes.matchesIgnoringCase(name)).isEqualTo(ignoringCase);
    assertThat(SecretPrefixes.matchesCaseSensitive(name)).isEqualTo(caseSensitive);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "AWS_ACCESS_KEY_ID, true",
    "AWS_SECRET_ACCESS_KEY, true",
    "AWS_SESSION_TOKEN, true",
    "SSH_AUTH_SOCK, true",
    "GNUPGHOME, true",
    "GIT_ASKPASS, true",
    "aws_access_key_id, false",
    "OAUTH_TOKEN, false",
    "GITHUB_TOKEN, false",
    "MY_AWS_ACCESS, false",
  })
  void credentialScrub(String name, boolean scrubbed) {
    assertThat(SecretPrefixes.matchesCredentialScrub(name)).isEqualTo(scrubbed);
  }

  static LongStream seeds() {
    return Seeds.seeds(10);
  }

  /**
   * The ASCII fast path must agree with the documented rule (docs/design.md#predicates), on any
   * string.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void fastPathAgreesWithUnicodeUpperCasing(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    String[] stems = {"oauth", "OAuth", "aws_secret", "Aws_Session", "aws_sess\u0131on", "x"};
    char[] palette = {'a', 'S', '_', 'i', '\u0131', '\u017f', '\u00df', '\ufb00', '\u00e9', 'z'};
    for (int i = 0; i < 5000; i++) {
      StringBuilder sb = new StringBuilder();
      if (r.nextBoolean()) {
        String stem = stems[r.nextInt(stems.length)];
        sb.append(stem, 0, r.nextInt(stem.length() + 1));
      }
      int extra = r.nextInt(8);
      for (int k = 0; k < extra; k++) {
        sb.append(
            r.nextInt(4) == 0
                ? Character.toChars(r.nextInt(0x30000)) // any code point, surrogates included
                : new char[] {palette[r.nextInt(palette.length)]});
      }
      String name = sb.toString();
      String upper = name.toUpperCase(Locale.ROOT);
      boolean expected =
          upper.startsWith("AWS_SECRET")
              || upper.startsWith("AWS_SESSION")
              || upper.startsWith("OAUTH");
      assertThat(SecretPrefixes.matchesIgnoringCase(name))
          .as("seed=%d name=%s", seed, name.codePoints().mapToObj(Integer::toHexString).toList())
          .isEqualTo(expected);
    }
  }
}
