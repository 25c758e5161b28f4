package dev.kcshare.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class HumanDurationTest {
  private static final double NOW = 1_800_000_000;

  @Test
  void agoUsesTheLargestWholeUnit() {
    assertThat(HumanDuration.ago(NOW, NOW)).isEqualTo("just now");
    assertThat(HumanDuration.ago(NOW - 59.9, NOW)).isEqualTo("just now");
    assertThat(HumanDuration.ago(NOW - 60, NOW)).isEqualTo("1m ago");
    assertThat(HumanDuration.ago(NOW - 3599, NOW)).isEqualTo("59m ago");
    assertThat(HumanDuration.ago(NOW - 3 * 3600 - 1800, NOW)).isEqualTo("3h ago");
    assertThat(HumanDuration.ago(NOW - 86400 * 2 - 5, NOW)).isEqualTo("2d ago");
  }

  @Test
  void agoOfAFutureTime() {
    assertThat(HumanDuration.ago(NOW + 30, NOW)).isEqualTo("just now");
    assertThat(HumanDuration.ago(NOW + 3600, NOW)).isEqualTo("in the future");
    assertThat(HumanDuration.ago(Double.NaN, NOW)).isEqualTo("at an unknown time");
  }

  @Test
  void spanKeepsTheNextUnitWhenItIsNotZero() {
    assertThat(HumanDuration.span(0.5)).isEqualTo("0s");
    assertThat(HumanDuration.span(-5)).isEqualTo("0s");
    assertThat(HumanDuration.span(42)).isEqualTo("42s");
    assertThat(HumanDuration.span(300)).isEqualTo("5m");
    assertThat(HumanDuration.span(3600)).isEqualTo("1h");
    assertThat(HumanDuration.span(5400)).isEqualTo("1h 30m");
    assertThat(HumanDuration.span(86400)).isEqualTo("24h");
    assertThat(HumanDuration.span(86400 * 2 + 3 * 3600)).isEqualTo("2d 3h");
  }

  @Test
  void millis() {
    assertThat(HumanDuration.millis(0)).isEqualTo("0 ms");
    assertThat(HumanDuration.millis(999)).isEqualTo("999 ms");
    assertThat(HumanDuration.millis(1349)).isEqualTo("1.3 s");
    assertThat(HumanDuration.millis(-3)).isEqualTo("0 ms");
  }
}
