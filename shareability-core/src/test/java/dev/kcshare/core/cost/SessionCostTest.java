package dev.kcshare.core.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

final class SessionCostTest {
  @Test
  void maxKeepsTheLargerOfEachFigureAndAFigureKnownOnOneSide() {
    SessionCost a = SessionCost.of(100, -1, 1, 400, 30);
    SessionCost b = SessionCost.of(90, 50, 2, 380, -1);
    assertThat(a.max(b)).isEqualTo(SessionCost.of(100, 50, 2, 400, 30));
    assertThat(b.max(a)).isEqualTo(a.max(b));
    assertThat(SessionCost.NONE.max(a)).isEqualTo(a);
    assertThat(SessionCost.NONE.max(SessionCost.NONE).isEmpty()).isTrue();
  }

  @Test
  void memoryIsProportionalWhenKnownElseResident() {
    assertThat(SessionCost.of(100, 60, 1, 1, 1).memoryBytes()).hasValue(60);
    assertThat(SessionCost.of(100, 60, 1, 1, 1).memoryIsProportional()).isTrue();
    assertThat(SessionCost.of(100, -1, 1, 1, 1).memoryBytes()).hasValue(100);
    assertThat(SessionCost.of(100, -1, 1, 1, 1).memoryIsProportional()).isFalse();
    assertThat(SessionCost.of(-1, -1, 1, 1, 1).memoryBytes()).isEmpty();
  }

  @Test
  void absentIsNeverZero() {
    SessionCost none = SessionCost.of(-1, -1, -1, -1, -1);
    assertThat(none).isEqualTo(SessionCost.NONE);
    assertThat(none.isEmpty()).isTrue();
    assertThat(SessionCost.of(0, -1, -1, -1, -1).isEmpty()).isFalse();
    assertThat(SessionCost.of(0, -1, -1, -1, -1).rssBytes()).hasValue(0);
  }

  @Test
  void negativeFiguresAreRefused() {
    assertThatThrownBy(() -> SessionCost.of(-2, 0, 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rssBytes");
    assertThatThrownBy(
            () ->
                new SessionCost(
                    OptionalLong.empty(),
                    OptionalLong.empty(),
                    OptionalLong.of(-1),
                    OptionalLong.empty(),
                    OptionalLong.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("processes");
  }
}
