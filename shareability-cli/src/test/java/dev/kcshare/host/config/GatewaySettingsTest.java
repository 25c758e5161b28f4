package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.host.json.JsonReader;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class GatewaySettingsTest {
  private static GatewaySettings of(String json) throws Exception {
    return GatewaySettings.fromDocument(JsonReader.withDepthLimit(50).parse(json), "cfg");
  }

  @Test
  void theSpecExampleEffectiveSet() throws Exception {
    // docs/design.md#seeding-apply example: section
    // {"stub_servers":["p"],"stub_overrides":{"q":false}}
    GatewaySettings g =
        of("{\"mcp_gateway\": {\"stub_servers\": [\"p\"], \"stub_overrides\": {\"q\": false}}}");
    assertThat(g.effectiveStubSet()).containsExactly("p");
    assertThat(g.rosterSource()).isEqualTo("stub_servers");
  }

  @Test
  void rosterByKeyPresence() throws Exception {
    assertThat(
            of("{\"mcp_gateway\": {\"stub_servers\": [], \"enabled\": true, \"poolable_servers\": [\"a\"]}}")
                .roster())
        .as("[] stubs nothing and suppresses the alias")
        .isEmpty();
    assertThat(
            of("{\"mcp_gateway\": {\"stub_servers\": null, \"enabled\": true, \"poolable_servers\": [\"a\"]}}")
                .roster())
        .as("present but not an array")
        .isEmpty();
    GatewaySettings legacy =
        of("{\"mcp_gateway\": {\"enabled\": true, \"poolable_servers\": [\"a\", \"\", 3, \"b\"]}}");
    assertThat(legacy.roster()).containsExactly("a", "b");
    assertThat(legacy.rosterSource()).isEqualTo("poolable_servers");
    assertThat(
            of("{\"mcp_gateway\": {\"enabled\": \"true\", \"poolable_servers\": [\"a\"]}}")
                .roster())
        .as("enabled must be boolean true")
        .isEmpty();
    assertThat(
            of("{\"mcp_gateway\": {\"enabled\": false, \"poolable_servers\": [\"a\"]}}")
                .rosterSource())
        .isEqualTo("none");
    assertThat(of("{\"mcp_gateway\": {\"stub_servers\": \"a\"}}").roster()).isEmpty();
  }

  @Test
  void effectiveSetCollapsesDuplicatesDropsFalseAppendsTrueSorted() throws Exception {
    GatewaySettings g =
        of(
            "{\"mcp_gateway\": {\"stub_servers\": [\"b\", \"a\", \"b\", \"c\"], \"stub_overrides\":"
                + " {\"z\": true, \"c\": false, \"b\": true, \"m\": true, \"\": true, \"x\": 1}}}");
    assertThat(g.stubOverrides())
        .containsExactly(
            Map.entry("z", true),
            Map.entry("c", false),
            Map.entry("b", true),
            Map.entry("m", true));
    assertThat(g.effectiveStubSet()).containsExactly("b", "a", "m", "z");
    assertThat(of("{\"mcp_gateway\": {\"stub_overrides\": [\"a\"]}}").stubOverrides()).isEmpty();
  }

  @Test
  void identityKeysAndForwarding() throws Exception {
    GatewaySettings g =
        of(
            "{\"mcp_gateway\": {\"pool_identity_env\": [\" OAUTH_B \", \"OAUTH_A\", \"\", 5,"
                + " \"AWS_SECRET_ACCESS_KEY\", \"GNUPGHOME\"], \"forward_declared_env\": false}}");
    assertThat(g.identityKeys()).containsExactly("OAUTH_A", "OAUTH_B");
    assertThat(g.forwardDeclaredEnv()).isFalse();
    assertThat(of("{\"mcp_gateway\": {\"forward_declared_env\": \"yes\"}}").forwardDeclaredEnv())
        .isNull();
    assertThat(of("{\"mcp_gateway\": {\"pool_identity_env\": \"OAUTH_A\"}}").identityKeys())
        .isEmpty();
  }

  @Test
  @SuppressWarnings("unchecked")
  void sectionIsADeepMutableCopy() throws Exception {
    GatewaySettings g =
        of("{\"mcp_gateway\": {\"stub_overrides\": {\"a\": true}, \"stub_servers\": [\"x\"]}}");
    Map<String, Object> section = g.section();
    ((Map<String, Object>) section.get("stub_overrides")).put("b", true);
    assertThat(g.stubOverrides()).containsOnlyKeys("a");
    assertThat(g.section())
        .isEqualTo(
            Map.of("stub_overrides", Map.of("a", true), "stub_servers", java.util.List.of("x")));
  }

  @Test
  void absentSection() throws Exception {
    GatewaySettings g = of("{\"agent\": {}}");
    assertThat(g.present()).isFalse();
    assertThat(g.source()).isEqualTo("cfg");
    assertThat(g.effectiveStubSet()).isEmpty();
    assertThat(g.sharingOn()).isFalse();
    assertThat(of("{\"mcp_gateway\": null}").present()).isFalse();
    assertThat(GatewaySettings.absent().source()).isNull();
  }

  @Test
  void wrongShapesThatDecideTheRecordsAreErrors() {
    assertThatThrownBy(() -> of("[]"))
        .isInstanceOf(JsonInputException.class)
        .hasMessage("(root): expected an object, got an array");
    assertThatThrownBy(() -> of("{\"mcp_gateway\": []}"))
        .hasMessage("/mcp_gateway: expected an object, got an array");
    assertThatThrownBy(() -> of("{\"mcp_gateway\": {\"socket_path\": 3}}"))
        .hasMessage("/mcp_gateway/socket_path: expected a string or null, got a number");
  }
}
