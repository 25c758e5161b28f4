package dev.kcshare.core.verdict;

import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.text.SecretPrefixes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Resolves the operator's {@code mcp_gateway.pool_identity_env} into the identity-key set that
 * {@link Assessor#assess}, the env hash and the bulk-stub check receive.
 *
 * <p>An identity key is an env name the operator declares part of the pool key, so its value is
 * forwarded into a shared backend and a rotating-secret note for it is dropped. Credentials that
 * must never be forwarded are scrubbed here, which is why in practice only {@code OAUTH*}-style
 * names can be exempted.
 */
public final class IdentityKeys {
  private IdentityKeys() {}

  /**
   * Resolves the raw JSON value of {@code pool_identity_env}.
   *
   * <ul>
   *   <li>a value that is not an array (absent, null, a string, an object) yields the empty set;
   *   <li>non-string elements are dropped;
   *   <li>strings are trimmed of surrounding whitespace (the characters Python's {@code
   *       str.strip()} removes, so the result agrees with the Kiro Crew gateway reading the same
   *       config) and blank ones dropped;
   *   <li>names with a credential-scrub prefix ({@link SecretPrefixes#CREDENTIAL_SCRUB},
   *       case-sensitive) are removed.
   * </ul>
   *
   * <pre>{@code
   * Set<String> keys = IdentityKeys.resolve(section.get("pool_identity_env"));
   * }</pre>
   *
   * @param poolIdentityEnv the raw value of {@code pool_identity_env}, as parsed JSON
   * @return the names sorted by code point, unmodifiable; never throws
   */
  public static Set<String> resolve(@Nullable Object poolIdentityEnv) {
    if (!(poolIdentityEnv instanceof List<?> elements)) {
      return Set.of();
    }
    List<String> names = new ArrayList<>(elements.size());
    for (Object element : elements) {
      if (element instanceof String raw) {
        String name = strip(raw);
        if (!name.isEmpty() && !SecretPrefixes.matchesCredentialScrub(name)) {
          names.add(name);
        }
      }
    }
    names.sort(CodePoints.ORDER);
    return Collections.unmodifiableSet(new LinkedHashSet<>(names));
  }

  /** Strips what Python's {@code str.strip()} strips (Unicode whitespace incl. U+00A0, U+0085). */
  static String strip(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isPythonSpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isPythonSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  private static boolean isPythonSpace(char c) {
    // Character.isWhitespace excludes the no-break spaces and NEL, which Python counts as space.
    return Character.isWhitespace(c)
        || c == '\u0085'
        || c == '\u00a0'
        || c == '\u2007'
        || c == '\u202f';
  }
}
