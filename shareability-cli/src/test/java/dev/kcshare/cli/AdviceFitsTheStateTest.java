package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What kcshare says matches the state it describes, with no unfilled placeholders. */
final class AdviceFitsTheStateTest {
  @TempDir Path root;

  @Test
  void aGatewaySectionWithoutARosterSaysSoInWords() {
    OperatorFixture f = OperatorFixture.create(root);
    f.writeConfig("{\"mcp_gateway\": {\"enabled\": true}}\n");
    CliRun r = f.runPlain("config");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .contains(
            "  roster:               (none: neither stub_servers nor poolable_servers is set)\n")
        .doesNotContain("(from none)");
  }
}
