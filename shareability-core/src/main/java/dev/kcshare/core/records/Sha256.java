package dev.kcshare.core.records;

import java.util.Arrays;

/**
 * SHA-256 (FIPS 180-4), incremental, for the identity hashes and content fingerprints of the
 * identity (docs/design.md#execution-identity), which are interop contracts with the Kiro Crew
 * gateway.
 *
 * <p>Why not {@link java.security.MessageDigest}: its first use in a process initialises the JCA
 * provider list (reading the {@code java.security} configuration and registering every service of
 * the SUN provider), about 20 ms of a {@code kcshare assess} that otherwise takes about 250 ms.
 * Nothing here is a security control: the hashes name execution identities and detect changed
 * files. Tests compare it with {@code MessageDigest} on the FIPS vectors and on seeded random
 * inputs, whole and split into updates.
 */
final class Sha256 {
  private static final int[] K = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  };

  private final int[] h = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
  };
  private final int[] w = new int[64];
  private final byte[] block = new byte[64];
  private int buffered;
  private long length;

  /** Adds one byte. */
  void update(byte b) {
    block[buffered++] = b;
    length++;
    if (buffered == 64) {
      compress(block, 0);
      buffered = 0;
    }
  }

  /** Adds bytes. */
  void update(byte[] bytes) {
    update(bytes, 0, bytes.length);
  }

  /** Adds {@code len} bytes of {@code bytes} from {@code off}. */
  void update(byte[] bytes, int off, int len) {
    length += len;
    int i = off;
    int end = off + len;
    if (buffered > 0) {
      int n = Math.min(64 - buffered, len);
      System.arraycopy(bytes, i, block, buffered, n);
      buffered += n;
      i += n;
      if (buffered < 64) {
        return;
      }
      compress(block, 0);
      buffered = 0;
    }
    for (; end - i >= 64; i += 64) {
      compress(bytes, i);
    }
    System.arraycopy(bytes, i, block, 0, end - i);
    buffered = end - i;
  }

  /** The 32-byte digest; the instance is spent afterwards. */
  byte[] digest() {
    long bits = length * 8;
    update((byte) 0x80);
    while (buffered != 56) {
      update((byte) 0);
    }
    for (int shift = 56; shift >= 0; shift -= 8) {
      update((byte) (bits >>> shift));
    }
    byte[] out = new byte[32];
    for (int i = 0; i < 8; i++) {
      out[4 * i] = (byte) (h[i] >>> 24);
      out[4 * i + 1] = (byte) (h[i] >>> 16);
      out[4 * i + 2] = (byte) (h[i] >>> 8);
      out[4 * i + 3] = (byte) h[i];
    }
    Arrays.fill(h, 0);
    return out;
  }

  /** The digest of {@code bytes}. */
  static byte[] of(byte[] bytes) {
    Sha256 sha = new Sha256();
    sha.update(bytes);
    return sha.digest();
  }

  private void compress(byte[] in, int off) {
    for (int t = 0; t < 16; t++) {
      int p = off + 4 * t;
      w[t] =
          (in[p] << 24)
              | ((in[p + 1] & 0xff) << 16)
              | ((in[p + 2] & 0xff) << 8)
              | (in[p + 3] & 0xff);
    }
    for (int t = 16; t < 64; t++) {
      int x = w[t - 15];
      int y = w[t - 2];
      int s0 = Integer.rotateRight(x, 7) ^ Integer.rotateRight(x, 18) ^ (x >>> 3);
      int s1 = Integer.rotateRight(y, 17) ^ Integer.rotateRight(y, 19) ^ (y >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    int a = h[0];
    int b = h[1];
    int c = h[2];
    int d = h[3];
    int e = h[4];
    int f = h[5];
    int g = h[6];
    int hh = h[7];
    for (int t = 0; t < 64; t++) {
      int s1 = Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25);
      int ch = (e & f) ^ (~e & g);
      int t1 = hh + s1 + ch + K[t] + w[t];
      int s0 = Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22);
      int maj = (a & b) ^ (a & c) ^ (b & c);
      int t2 = s0 + maj;
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
}
