package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerDefinitionTest {
  @Test
  void anHttpTypeWithACommandIsNotStdio() {
    // the same rule the config reader applies: the declared type wins over a leftover command
    ServerDefinition http =
        new ServerDefinition(
            "remote", "npx", List.of("x"), Map.of(), null, false, "https://x.test/mcp", "http");
    assertThat(http.isStdio()).isFalse();
    assertThat(ServerDefinition.stdio("files", "npx", List.of()).isStdio()).isTrue();
  }
}
