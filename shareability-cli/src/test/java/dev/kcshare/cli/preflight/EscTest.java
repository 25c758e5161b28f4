package dev.kcshare.cli.preflight;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class EscTest {
  @Test
  void escapesControlAndInvisibleCharacters() {
    assertThat(Esc.esc("a\\b\"c\nd\re\tf\u0000g\u001bh\u007f\u0085\u2028\u202e\u00a0 i", 120))
        .isEqualTo("a\\\\b\\\"c\\nd\\re\\tf\\x00g\\x1bh\\x7f\\x85\\u2028\\u202e\\xa0 i");
    assertThat(Esc.esc("\udbff\udfff", 120)).isEqualTo("\\U0010ffff");
    assertThat(Esc.esc("ünïcødé ✓ 😀", 120)).isEqualTo("ünïcødé ✓ 😀");
  }

  @Test
  void boundsByCodePoints() {
    assertThat(Esc.esc("😀".repeat(5), 3)).isEqualTo("😀😀😀...");
    assertThat(Esc.esc("abc", 3)).isEqualTo("abc");
    assertThat(Esc.escTail("0123456789", 4)).isEqualTo("...6789");
    assertThat(Esc.escTail("x\n", 4)).isEqualTo("x\\n");
  }
}
