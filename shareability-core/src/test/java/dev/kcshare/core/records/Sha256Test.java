package dev.kcshare.core.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The in-core SHA-256 against FIPS 180-4's examples and against the JDK's {@link MessageDigest}.
 * Replay a seed with {@code -Dkcshare.seed=N}.
 */
final class Sha256Test {
  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 10).map(i -> base + i);
  }

  private static String hex(byte[] digest) {
    return HexFormat.of().formatHex(digest);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(
      emptyValue = "",
      value = {
        "'', e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "abc, ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq,"
            + " 248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu,"
            + " cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
      })
  void fipsExamples(String message, String expected) {
    assertThat(hex(Sha256.of(message.getBytes(StandardCharsets.US_ASCII)))).isEqualTo(expected);
  }

  @Test
  void oneMillionAsFedInUnevenPieces() {
    Sha256 sha = new Sha256();
    byte[] piece = new byte[997];
    java.util.Arrays.fill(piece, (byte) 'a');
    int left = 1_000_000;
    while (left > 0) {
      int n = Math.min(left, piece.length);
      sha.update(piece, 0, n);
      left -= n;
    }
    assertThat(hex(sha.digest()))
        .isEqualTo("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }

  @Test
  void everyLengthAroundTheBlockAndPaddingBoundaries() throws Exception {
    SplittableRandom random = new SplittableRandom(7);
    for (int length = 0; length <= 300; length++) {
      byte[] data = new byte[length];
      random.nextBytes(data);
      assertThat(hex(Sha256.of(data)))
          .as("length %d", length)
          .isEqualTo(hex(MessageDigest.getInstance("SHA-256").digest(data)));
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void agreesWithTheJdkOnRandomInputsSplitAnywhere(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 50; i++) {
      byte[] data = new byte[random.nextInt(i < 40 ? 600 : 70_000)];
      random.nextBytes(data);
      Sha256 sha = new Sha256();
      int at = 0;
      while (at < data.length) {
        int n = random.nextInt(1 + Math.min(data.length - at, 200));
        if (n == 1 && random.nextBoolean()) {
          sha.update(data[at]);
        } else {
          sha.update(data, at, n);
        }
        at += n;
      }
      assertThat(hex(sha.digest()))
          .as("seed=%d case %d length %d", seed, i, data.length)
          .isEqualTo(hex(MessageDigest.getInstance("SHA-256").digest(data)));
    }
  }
}
