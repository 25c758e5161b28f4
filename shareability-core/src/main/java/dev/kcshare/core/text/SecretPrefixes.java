package dev.kcshare.core.text;

import java.util.List;
import java.util.Locale;

/**
 * The env-name prefix lists shared by the verdict, the env hash, the bulk-stub check and
 * identity-key resolution.
 *
 * <p>The rotating-secret prefixes are tested two ways on purpose. {@code Assessor.assess} tests
 * them case-INSENSITIVELY ({@link #matchesIgnoringCase}), so {@code oauth_token} withholds a share
 * in the verdict; the env hash and the bulk-stub env check test them case-SENSITIVELY ({@link
 * #matchesCaseSensitive}), matching the Kiro Crew gateway's rewriter, which hashes {@code
 * oauth_token} and does not count it as withheld. The two must not be unified.
 */
public final class SecretPrefixes {
  /** The rotating-secret prefixes: {@code AWS_SECRET}, {@code AWS_SESSION}, {@code OAUTH}. */
  public static final List<String> ROTATING_SECRET = List.of("AWS_SECRET", "AWS_SESSION", "OAUTH");

  /**
   * The credential scrub: names that are never accepted as pool identity keys and are always
   * withheld from a shared backend (case-sensitive prefixes).
   */
  public static final List<String> CREDENTIAL_SCRUB =
      List.of(
          "AWS_ACCESS", "AWS_SECRET", "AWS_SESSION", "SSH_AUTH_SOCK", "GNUPGHOME", "GIT_ASKPASS");

  private static final String[] ROTATING = ROTATING_SECRET.toArray(new String[0]);
  private static final String[] SCRUB = CREDENTIAL_SCRUB.toArray(new String[0]);

  /** Longest rotating prefix: the ASCII fast path only needs to look this far into a name. */
  private static final int ROTATING_SPAN = 11;

  private SecretPrefixes() {}

  /**
   * The verdict's test: the name, upper-cased with locale-independent Unicode rules, starts with a
   * rotating-secret prefix. {@code oauth_token}, {@code Aws_Secret_Key}, {@code OAUTHLIB_X} and
   * {@code AWS_SECRETS_MANAGER_ARN} match; {@code MY_OAUTH_TOKEN} and {@code AWS_ACCESS_KEY_ID} do
   * not.
   */
  public static boolean matchesIgnoringCase(String name) {
    int span = Math.min(name.length(), ROTATING_SPAN);
    for (int i = 0; i < span; i++) {
      if (name.charAt(i) >= 0x80) {
        // Full Unicode upper-casing can map a non-ASCII character to ASCII letters (U+0131 to
        // "I", U+00DF to "SS"), so only the general rule is correct here.
        return startsWithAny(name.toUpperCase(Locale.ROOT), ROTATING);
      }
    }
    for (String prefix : ROTATING) {
      if (asciiStartsWithIgnoringCase(name, prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The env hash's and the bulk-stub check's test: the name starts with a rotating-secret prefix,
   * exactly as written ({@code oauth_token} does not match).
   */
  public static boolean matchesCaseSensitive(String name) {
    return startsWithAny(name, ROTATING);
  }

  /** The name starts with a credential-scrub prefix, exactly as written. */
  public static boolean matchesCredentialScrub(String name) {
    return startsWithAny(name, SCRUB);
  }

  private static boolean startsWithAny(String name, String[] prefixes) {
    for (String prefix : prefixes) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** {@code name} is ASCII up to the prefix length; {@code prefix} is upper-case ASCII. */
  private static boolean asciiStartsWithIgnoringCase(String name, String prefix) {
    int n = prefix.length();
    if (name.length() < n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = name.charAt(i);
      if (c >= 'a' && c <= 'z') {
        c = (char) (c - ('a' - 'A'));
      }
      if (c != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
