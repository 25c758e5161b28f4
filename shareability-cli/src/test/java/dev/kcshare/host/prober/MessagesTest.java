package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class MessagesTest {
  @Test
  void idsMatchByNumericEquality() {
    assertThat(Messages.idMatches(1, 1)).isTrue();
    assertThat(Messages.idMatches(1L, 1)).isTrue();
    assertThat(Messages.idMatches(1.0, 1)).isTrue();
    assertThat(Messages.idMatches(BigInteger.ONE, 1)).isTrue();
    assertThat(Messages.idMatches(2, 1)).isFalse();
    assertThat(Messages.idMatches(1.5, 1)).isFalse();
    assertThat(Messages.idMatches("1", 1)).isFalse();
    assertThat(Messages.idMatches(true, 1)).isFalse();
    assertThat(Messages.idMatches(null, 1)).isFalse();
    assertThat(Messages.idMatches(Double.NaN, 1)).isFalse();
    assertThat(Messages.idMatches(new BigInteger("18446744073709551617"), 1)).isFalse();
  }

  @Test
  void errorMessages() {
    assertThat(Messages.errorMessage(Map.of("code", 1, "message", "bad"))).isEqualTo("bad");
    assertThat(Messages.errorMessage(Map.of("code", 1, "message", ""))).isEqualTo("unknown error");
    assertThat(Messages.errorMessage(Map.of("code", 1, "message", 5))).isEqualTo("unknown error");
    assertThat(Messages.errorMessage(Map.of("code", 1))).isEqualTo("unknown error");
    assertThat(Messages.errorMessage("plain")).isEqualTo("plain");
    assertThat(Messages.errorMessage(42)).isEqualTo("42");
    assertThat(Messages.errorMessage(true)).isEqualTo("true");
    assertThat(Messages.errorMessage(List.of(1, "a"))).isEqualTo("[1,\"a\"]");
  }

  @Test
  void modernDetection() {
    assertThat(Messages.identifiesModern(Map.of("code", -32022))).isTrue();
    assertThat(Messages.identifiesModern(Map.of("code", -32022.0))).isTrue();
    assertThat(Messages.identifiesModern(Map.of("code", "-32022"))).isFalse();
    assertThat(Messages.identifiesModern(error(Map.of("supported", List.of("2026-07-28")))))
        .isTrue();
    assertThat(
            Messages.identifiesModern(
                error(Map.of("supportedVersions", List.of("2026-07-28", "draft", 3)))))
        .isTrue();
    assertThat(
            Messages.identifiesModern(
                error(Map.of("supported", List.of("2026-07-28", "2025-06-18")))))
        .as("a legacy version is offered: an ordinary error")
        .isFalse();
    assertThat(Messages.identifiesModern(error(Map.of("supported", List.of("2025-11-25")))))
        .isFalse();
    assertThat(Messages.identifiesModern(error(Map.of("supported", List.of(1, 2))))).isFalse();
    assertThat(Messages.identifiesModern(error(Map.of("supported", List.of())))).isFalse();
    assertThat(Messages.identifiesModern(error(Map.of("supported", "2026-07-28")))).isFalse();
    assertThat(Messages.identifiesModern("unsupported")).isFalse();
    Map<String, Object> nullData = new HashMap<>();
    nullData.put("code", -1);
    nullData.put("data", null);
    assertThat(Messages.identifiesModern(nullData)).isFalse();
  }

  private static Map<String, Object> error(Map<String, ?> data) {
    return Map.of("code", -32600, "message", "unsupported", "data", data);
  }

  @Test
  void legacyVersions() {
    for (String v :
        Arrays.asList("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2020-01-01")) {
      assertThat(Messages.isLegacyVersion(v)).as(v).isTrue();
    }
    for (String v : Arrays.asList("2025-11-26", "2026-07-28", "draft", "2024-11-5", "")) {
      assertThat(Messages.isLegacyVersion(v)).as(v).isFalse();
    }
  }
}
