package dev.kcshare.host.prober;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The random token of one pass, which every server the pass spawns carries in its environment as
 * {@value #VARIABLE} (docs/design.md#process-registry): 128 random bits as 32 lowercase hex digits.
 * It is how kcshare proves a process is one its pass started, and finds the ones that left the
 * process tree and group (a double-forked daemon) by their environment. Never part of an execution
 * identity, never shown; recorded only in the spawn registry.
 *
 * <p>The bits are read from {@code /dev/urandom} (16 bytes, no cost at start-up); {@link
 * SecureRandom}, whose initialisation is slow, only where that cannot be read.
 */
final class PassToken {
  /** The environment variable a spawned server finds its pass's token in. */
  static final String VARIABLE = "KCSHARE_PASS_TOKEN";

  private static final int BYTES = 16;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private PassToken() {}

  /** A new token. */
  static String generate() {
    byte[] bits = new byte[BYTES];
    if (!fromUrandom(bits)) {
      new SecureRandom().nextBytes(bits);
    }
    char[] out = new char[BYTES * 2];
    for (int i = 0; i < BYTES; i++) {
      out[2 * i] = HEX[(bits[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[bits[i] & 0xf];
    }
    return new String(out);
  }

  private static boolean fromUrandom(byte[] bits) {
    Path urandom = Path.of("/dev/urandom");
    if (!Files.isReadable(urandom)) {
      return false;
    }
    try (InputStream in = Files.newInputStream(urandom)) {
      return in.readNBytes(bits, 0, bits.length) == bits.length;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** One token for this JVM, made when first asked for (for spawns outside any pass). */
  static String ofThisJvm() {
    return JvmWide.TOKEN;
  }

  private static final class JvmWide {
    static final String TOKEN = generate();
  }

  /** Whether {@code token} has a token's form (32 lowercase hex digits). */
  static boolean isWellFormed(String token) {
    if (token.length() != BYTES * 2) {
      return false;
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** The environment entry a process of the pass with {@code token} carries. */
  static String entry(String token) {
    return VARIABLE + "=" + token;
  }
}
