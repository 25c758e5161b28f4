package dev.kcshare.host.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A stored time survives the trip through an instant, so output shows what the file holds. */
class EpochSecondsTest {
  static LongStream seeds() {
    return LongStream.range(0, 20);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void anyStoredTimeAfterApril1970ComesBackUnchanged(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < 1000; i++) {
      double stored = (1L << 23) + random.nextDouble() * 4e9;
      assertThat(EpochSeconds.seconds(EpochSeconds.instant(stored))).isEqualTo(stored);
    }
  }

  @Test
  void timesWrittenToTheNanosecondComeBackUnchanged() {
    for (double stored : new double[] {0.0, 9.0, 1000.5, 1712000000.25, 12.000000001, -1.5}) {
      assertThat(EpochSeconds.seconds(EpochSeconds.instant(stored))).isEqualTo(stored);
    }
    assertThat(EpochSeconds.instant(1.5)).isEqualTo(Instant.ofEpochSecond(1, 500_000_000));
    assertThat(EpochSeconds.instant(-1.5)).isEqualTo(Instant.ofEpochSecond(-2, 500_000_000));
  }

  @Test
  void aNonFiniteTimeIsTheEpoch() {
    assertThat(EpochSeconds.instant(Double.NaN)).isEqualTo(Instant.EPOCH);
    assertThat(EpochSeconds.instant(Double.POSITIVE_INFINITY)).isEqualTo(Instant.EPOCH);
  }
}
