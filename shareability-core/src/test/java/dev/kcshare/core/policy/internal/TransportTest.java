package dev.kcshare.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TransportTest {
  @Test
  void aCommandWithoutATypeOrWithAStdioTypeIsStdio() {
    assertThat(Transport.isStdio("npx", null)).isTrue();
    assertThat(Transport.isStdio("npx", "stdio")).isTrue();
    assertThat(Transport.isStdio("npx", "local")).isTrue();
    // an unknown type with a command reads as stdio (the config reader warns about it)
    assertThat(Transport.isStdio("npx", "carrier-pigeon")).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"http", "sse", "streamable-http", "streamableHttp", "remote", "extension"})
  void aTypeNamingAnotherTransportWinsOverACommand(String type) {
    assertThat(Transport.isStdio("npx", type)).isFalse();
  }

  @Test
  void nothingToLaunchIsNeverStdio() {
    assertThat(Transport.isStdio(null, null)).isFalse();
    assertThat(Transport.isStdio(null, "stdio")).isFalse();
  }
}
