package dev.kcshare.cli.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.cli.BadInputException;
import dev.kcshare.cli.json.JsonReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class McpServersConfigTest {
  private static List<ServerDefinition> parse(String json) throws Exception {
    return McpServersConfig.parse(JsonReader.withDepthLimit(100).parse(json), "cfg.json");
  }

  @Test
  void readsEveryMemberInDocumentOrder() throws Exception {
    List<ServerDefinition> servers =
        parse(
            "{\"mcpServers\":{"
                + "\"zeta\":{\"command\":\"npx\",\"args\":[\"-y\",\"pkg@1\"],"
                + "\"env\":{\"B\":\"2\",\"A\":\"1\"},\"cwd\":\"/srv\",\"disabled\":true,"
                + "\"autoApprove\":[\"x\"]},"
                + "\"alpha\":{\"url\":\"https://example.test/mcp\",\"type\":\"http\"}}}");
    assertThat(servers).extracting(ServerDefinition::name).containsExactly("zeta", "alpha");
    ServerDefinition zeta = servers.get(0);
    assertThat(zeta.command()).isEqualTo("npx");
    assertThat(zeta.args()).containsExactly("-y", "pkg@1");
    assertThat(zeta.env()).containsExactly(Map.entry("B", "2"), Map.entry("A", "1"));
    assertThat(zeta.cwd()).isEqualTo("/srv");
    assertThat(zeta.disabled()).isTrue();
    assertThat(zeta.isStdio()).isTrue();
    ServerDefinition alpha = servers.get(1);
    assertThat(alpha.isStdio()).isFalse();
    assertThat(alpha.url()).isEqualTo("https://example.test/mcp");
    assertThat(alpha.type()).isEqualTo("http");
    assertThat(alpha.args()).isEmpty();
    assertThat(alpha.env()).isEmpty();
    assertThat(alpha.disabled()).isFalse();
  }

  @Test
  void acceptsVsCodesServersAndNullAsAbsent() throws Exception {
    List<ServerDefinition> servers =
        parse(
            "{\"servers\":{\"s\":{\"command\":\"node\",\"args\":null,\"env\":null,"
                + "\"cwd\":null,\"disabled\":null,\"type\":\"stdio\"}}}");
    assertThat(servers)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.command()).isEqualTo("node");
              assertThat(s.args()).isEmpty();
              assertThat(s.cwd()).isNull();
              assertThat(s.type()).isEqualTo("stdio");
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "[] | cfg.json: (root): expected an object, got an array",
        "{} | cfg.json: (root): expected an \"mcpServers\" (or \"servers\") object, got nothing",
        "{\"mcpServers\":[]} | cfg.json: /mcpServers: expected an object, got an array",
        "{\"mcpServers\":{\"n\":\"node\"}} | cfg.json: /mcpServers/n: expected an object, got a string",
        "{\"mcpServers\":{\"n\":{\"command\":1}}} | cfg.json: /mcpServers/n/command: expected a string, got a number",
        "{\"mcpServers\":{\"notes\":{\"command\":\"x\",\"args\":[\"a\",2]}}} | cfg.json: /mcpServers/notes/args/1: expected a string, got a number",
        "{\"mcpServers\":{\"n\":{\"args\":\"a b\"}}} | cfg.json: /mcpServers/n/args: expected an array of strings, got a string",
        "{\"mcpServers\":{\"n\":{\"env\":{\"PORT\":8080}}}} | cfg.json: /mcpServers/n/env/PORT: expected a string, got a number",
        "{\"mcpServers\":{\"n\":{\"env\":{\"DEBUG\":true}}}} | cfg.json: /mcpServers/n/env/DEBUG: expected a string, got a boolean",
        "{\"mcpServers\":{\"n\":{\"env\":[\"A=1\"]}}} | cfg.json: /mcpServers/n/env: expected an object of strings, got an array",
        "{\"mcpServers\":{\"n\":{\"disabled\":\"yes\"}}} | cfg.json: /mcpServers/n/disabled: expected a boolean, got a string",
        "{\"mcpServers\":{\"n\":{\"cwd\":{}}}} | cfg.json: /mcpServers/n/cwd: expected a string, got an object",
        "{\"mcpServers\":{\"a/b~c\":{\"url\":false}}} | cfg.json: /mcpServers/a~1b~0c/url: expected a string, got a boolean",
        "{\"servers\":{\"n\":{\"type\":null,\"command\":[]}}} | cfg.json: /servers/n/command: expected a string, got an array"
      })
  void wrongTypesNameFilePointerAndExpectation(String json, String message) {
    assertThatThrownBy(() -> parse(json)).isInstanceOf(BadInputException.class).hasMessage(message);
  }

  @Test
  void definitionsAreImmutable() throws Exception {
    ServerDefinition s =
        parse("{\"mcpServers\":{\"n\":{\"command\":\"c\",\"args\":[\"a\"]}}}").get(0);
    assertThatThrownBy(() -> s.args().add("b")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> s.env().put("K", "V"))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
