package dev.kcshare.core.records;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.CodePoints;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The two hashes of an execution identity (docs/design.md#identity-hashes). Byte-exact with the
 * Kiro Crew gateway: a row written by either implementation is a hit for the other only if these
 * agree.
 */
public final class IdentityHashes {
  private static final byte NUL = 0;
  private static final byte[] EQUALS = {'='};
  private static final String[] SECRET_PREFIXES = {"AWS_SECRET", "AWS_SESSION", "OAUTH"};

  private IdentityHashes() {}

  /**
   * SHA-256 over UTF-8(command), NUL, then UTF-8(arg), NUL for each argument in order. Injective
   * over argument boundaries; nothing is normalised.
   *
   * @param command the resolved command
   * @param args the arguments, in order
   * @return the hash as lowercase hex
   */
  public static String commandArgsHash(String command, List<String> args) {
    Sha256 digest = new Sha256();
    digest.update(command.getBytes(StandardCharsets.UTF_8));
    digest.update(NUL);
    for (String arg : args) {
      digest.update(arg.getBytes(StandardCharsets.UTF_8));
      digest.update(NUL);
    }
    return hex(digest.digest());
  }

  /**
   * SHA-256 over {@code key=value NUL} for each env entry that survives the secret scrub, keys in
   * code-point order. A non-object {@code env} hashes as {@code {}}.
   *
   * @param env the declared env as a plain JSON value
   * @param identityKeys names exempt from the scrub: empty for the verdict-cache identity, the
   *     resolved {@code pool_identity_env} for the ledger launch identity
   * @return the hash as lowercase hex
   */
  public static String envHash(@Nullable Object env, Set<String> identityKeys) {
    Sha256 digest = new Sha256();
    if (env instanceof Map<?, ?> map) {
      List<Map.Entry<String, @Nullable Object>> kept = new ArrayList<>(map.size());
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = String.valueOf(e.getKey());
        if (!isScrubbed(key, identityKeys)) {
          kept.add(new AbstractMap.SimpleImmutableEntry<>(key, e.getValue()));
        }
      }
      kept.sort((a, b) -> CodePoints.compare(a.getKey(), b.getKey()));
      for (Map.Entry<String, @Nullable Object> e : kept) {
        digest.update(e.getKey().getBytes(StandardCharsets.UTF_8));
        digest.update(EQUALS);
        digest.update(valueText(e.getValue()).getBytes(StandardCharsets.UTF_8));
        digest.update(NUL);
      }
    }
    return hex(digest.digest());
  }

  /**
   * Whether an env key is left out of the env hash: it starts with {@code AWS_SECRET}, {@code
   * AWS_SESSION} or {@code OAUTH} (case-sensitive) and is not exactly one of the identity keys. A
   * credential rotation must neither split a pool nor invalidate a measurement.
   *
   * @param key an env key
   * @param identityKeys names exempt from the scrub
   * @return true iff the key is left out of the hash
   */
  public static boolean isScrubbed(String key, Set<String> identityKeys) {
    for (String prefix : SECRET_PREFIXES) {
      if (key.startsWith(prefix)) {
        return !identityKeys.contains(key);
      }
    }
    return false;
  }

  /**
   * An env value as the text that is hashed: a string as is, an integer in decimal, a boolean as
   * Python spells it ({@code True}/{@code False}), anything else as compact JSON text. Only strings
   * are inside the interop guarantee.
   */
  static String valueText(@Nullable Object value) {
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger) {
      return value.toString();
    }
    return JsonWriter.compact(value);
  }

  /** SHA-256 of the bytes as 64 lowercase hex characters. */
  static String sha256Hex(byte[] bytes) {
    return hex(Sha256.of(bytes));
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private static String hex(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[bytes[i] & 0xf];
    }
    return new String(out);
  }
}
