package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pass token: 128 random bits as 32 lowercase hex digits, a new one each time. */
final class PassTokenTest {
  @Test
  void tokensAreWellFormedAndDistinct() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      String token = PassToken.generate();
      assertThat(token).matches("[0-9a-f]{32}");
      assertThat(PassToken.isWellFormed(token)).isTrue();
      seen.add(token);
    }
    assertThat(seen).hasSize(100);
  }

  @Test
  void onlyTokensAreWellFormed() {
    assertThat(PassToken.isWellFormed("0123456789abcdef0123456789abcdef")).isTrue();
    for (String bad :
        new String[] {
          "",
          "x",
          "0123456789abcdef0123456789abcde",
          "0123456789abcdef0123456789abcdef0",
          "0123456789ABCDEF0123456789abcdef",
          "0123456789abcdeg0123456789abcdef"
        }) {
      assertThat(PassToken.isWellFormed(bad)).as(bad).isFalse();
    }
  }
}
