package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.records.RecordsDirectory.Rule;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class RecordsDirectoryTest {
  private static final Path HOME = Path.of("/home/op");

  private static RecordsDirectory resolve(String option, Map<String, String> env, String socket) {
    return RecordsDirectory.resolve(option, env, socket, HOME);
  }

  @Test
  void optionWinsOverEverything() {
    RecordsDirectory d =
        resolve(
            "/opt/rec", Map.of("KCSHARE_RECORDS_DIR", "/env", "KIROCREW_HOME", "/kc"), "/s/g.sock");
    assertThat(d).isEqualTo(new RecordsDirectory(Path.of("/opt/rec"), Rule.OPTION));
  }

  @Test
  void emptyOptionCountsAsUnset() {
    assertThat(resolve("", Map.of("KCSHARE_RECORDS_DIR", "/env"), null).rule()).isEqualTo(Rule.ENV);
  }

  @Test
  void envThenSocketParentThenKirocrewHomeThenDefault() {
    assertThat(resolve(null, Map.of("KCSHARE_RECORDS_DIR", "/env"), "/s/g.sock").path())
        .isEqualTo(Path.of("/env"));
    assertThat(resolve(null, Map.of("KCSHARE_RECORDS_DIR", ""), "/s/g.sock"))
        .isEqualTo(new RecordsDirectory(Path.of("/s"), Rule.SOCKET_PARENT));
    assertThat(resolve(null, Map.of("KIROCREW_HOME", "/kc"), null))
        .isEqualTo(new RecordsDirectory(Path.of("/kc/mcp-gateway"), Rule.KIROCREW_HOME));
    assertThat(resolve(null, Map.of("KIROCREW_HOME", ""), null))
        .isEqualTo(new RecordsDirectory(Path.of("/home/op/.kiro/crew/mcp-gateway"), Rule.DEFAULT));
  }

  @Test
  void socketPathEmptyOrDotCountsAsUnset() {
    assertThat(resolve(null, Map.of("KIROCREW_HOME", "/kc"), "").rule())
        .isEqualTo(Rule.KIROCREW_HOME);
    assertThat(resolve(null, Map.of("KIROCREW_HOME", "/kc"), ".").rule())
        .isEqualTo(Rule.KIROCREW_HOME);
  }

  @Test
  void bareRelativeSocketYieldsTheCurrentDirectory() {
    assertThat(resolve(null, Map.of(), "gateway.sock"))
        .isEqualTo(new RecordsDirectory(Path.of("."), Rule.SOCKET_PARENT));
    assertThat(resolve(null, Map.of(), "run/gateway.sock").path()).isEqualTo(Path.of("run"));
  }

  @Test
  void socketParentIsLexicalNoResolutionNoTrimming() {
    assertThat(resolve(null, Map.of(), "~/x/g.sock").path()).isEqualTo(Path.of("~/x"));
    assertThat(resolve(null, Map.of(), " /a/g.sock").path()).isEqualTo(Path.of(" /a"));
    assertThat(resolve(null, Map.of(), "/g.sock").path()).isEqualTo(Path.of("/"));
  }

  @Test
  void kirocrewHomeIsTakenRaw() {
    assertThat(resolve(null, Map.of("KIROCREW_HOME", "~/kc"), null).path())
        .isEqualTo(Path.of("~/kc/mcp-gateway"));
  }

  @Test
  void fileNames() {
    RecordsDirectory d = new RecordsDirectory(Path.of("/r"), Rule.OPTION);
    assertThat(d.ledgerFile()).isEqualTo(Path.of("/r/observed-hazards.json"));
    assertThat(d.cacheFile()).isEqualTo(Path.of("/r/shareability-verdicts.json"));
  }
}
