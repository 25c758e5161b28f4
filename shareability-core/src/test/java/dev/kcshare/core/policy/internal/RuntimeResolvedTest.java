package dev.kcshare.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class RuntimeResolvedTest {
  private static List<String> args(String joined) {
    return joined == null || joined.isEmpty() ? List.of() : Arrays.asList(joined.split(" "));
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "npx | -y @modelcontextprotocol/server-memory | true",
        "/usr/local/bin/npx | @modelcontextprotocol/server-everything@2025.1.14 | true",
        "bunx | some-server | true",
        "uvx | mcp-server-fetch | true",
        "NPX.CMD | x | true",
        "pnpm | dlx some-server | true",
        "pnpm | install | false",
        "yarn | dlx some-server | true",
        "npm | exec -y some-server | true",
        "npm | run start | false",
        "pipx | run mcp-server | true",
        "pipx | install mcp-server | false",
        "uv | tool run mcp-server | true",
        "uv | run server.py | false",
        "docker | run -i --rm mcp/github | true",
        "docker | run -i mcp/github@sha256:abcdef | false",
        "podman | run -i image:latest | true",
        "node | server.js | false",
        "python3 | -m some_server | false",
        "node | node_modules/.bin/srv some-server@latest | true",
        "deno | run npm:some-server@next | true",
        "node | user@host | false",
        "/opt/bin/server | '' | false",
      })
  void recognisesRuntimeResolvedLaunches(String command, String argLine, boolean expected) {
    String line = "''".equals(argLine) ? "" : argLine;
    assertThat(RuntimeResolved.isRuntimeResolved(command, args(line))).isEqualTo(expected);
  }
}
