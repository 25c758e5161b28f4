package dev.kcshare.host.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
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

  @ParameterizedTest
  @MethodSource("pythonExtremes")
  void aStoredTimeBeyondAnInstantsRangeIsClampedToItsEnd(double stored, Instant expected) {
    assertThat(EpochSeconds.instant(stored)).isEqualTo(expected);
  }

  /** Finite values a Python writer can put in a record file ({@code json.dumps} of a float). */
  static Stream<Arguments> pythonExtremes() {
    return Stream.of(
        Arguments.of(1.7976931348623157e308, Instant.MAX),
        Arguments.of(1e300, Instant.MAX),
        Arguments.of(1e17, Instant.MAX),
        Arguments.of(-1.7976931348623157e308, Instant.MIN),
        Arguments.of(-1e300, Instant.MIN),
        Arguments.of(5e-324, Instant.EPOCH),
        Arguments.of(-0.0, Instant.EPOCH),
        Arguments.of(-86400.0, Instant.ofEpochSecond(-86400)));
  }
}
