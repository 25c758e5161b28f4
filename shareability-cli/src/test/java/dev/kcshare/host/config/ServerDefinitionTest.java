package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ServerDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerDefinitionTest {
  @Test
  void anHttpTypeWithACommandIsNotStdio() {
    // the same rule the config reader applies: the declared type wins over a leftover command
    ServerDefinition http =
        ServerDefinition.builder("remote")
            .command("npx")
            .args(List.of("x"))
            .url("https://x.test/mcp")
            .type("http")
            .build();
    assertThat(http.isStdio()).isFalse();
    assertThat(ServerDefinition.stdio("files", "npx", List.of()).isStdio()).isTrue();
  }
}
