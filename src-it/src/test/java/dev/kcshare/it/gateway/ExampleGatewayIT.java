package dev.kcshare.it.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.embed.LedgerWriter;
import dev.kcshare.embed.Shareability;
import dev.kcshare.it.ItProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proof that kcshare embeds: {@link ExampleGateway} shares ONE backend between two sessions,
 * records the hazard it witnesses, and the verdict, the launcher and a clear all follow.
 */
final class ExampleGatewayIT {
  private static final String NAME = "files-mcp";
  private static final String UNROUTABLE = HazardCodes.UNROUTABLE_SERVER_REQUEST;

  @BeforeAll
  static void requireNode() {
    ItProcesses.assumeNode();
  }

  private static Strength strength(Shareability kc, List<ConfiguredServer> servers) {
    return kc.verdicts(servers).get(0).verdict().strength();
  }

  @Test
  void aSharedBackendsUnroutableRequestRefutesTheServerUntilCleared(@TempDir Path dir)
      throws Exception {
    Path records = dir.resolve("records");
    ServerDefinition definition =
        ServerDefinition.stdio(
            NAME, "node", List.of(ItProcesses.fixture().toString(), "ask-on-call"));
    Shareability kc = Shareability.builder(records).workingDirectory(dir).build();
    LedgerWriter ledger = kc.openLedger(Duration.ofHours(1)); // at start, as the guide has it
    List<ConfiguredServer> servers = kc.servers(List.of(definition));

    // Never measured: unknown. A budgeted pass from a request path measures it.
    assertThat(strength(kc, servers)).isEqualTo(Strength.UNKNOWN);
    PassResult pass = kc.budgetedPass(servers);
    assertThat(pass.outcome()).isEqualTo(PassResult.Outcome.RAN);
    assertThat(pass.progress().measured()).isEqualTo(1);
    ServerVerdict measured = kc.verdicts(servers).get(0);
    assertThat(measured.verdict().strength()).isEqualTo(Strength.MEASURED);

    try (ExampleGateway gateway = ExampleGateway.start(kc, ledger, definition)) {
      // One session: the server's roots/list can only be for it. Routed, nothing recorded.
      ExampleGateway.Stub a =
          gateway.attach("session-a", r -> Map.of("roots", List.of(Map.of("uri", "file:///a"))));
      Map<String, Object> first = a.callTool("echo").get(30, TimeUnit.SECONDS);
      assertThat(ExampleGateway.text(first)).isEqualTo("roots: 1");
      assertThat(first.get("id")).as("the stub sees its own id").isEqualTo(1L);
      assertThat(gateway.unroutableRequests()).isZero();
      assertThat(ledger.all()).isEmpty();
      assertThat(gateway.flushNow()).isTrue();
      assertThat(kc.verdicts(servers, ledger).get(0).verdict()).isEqualTo(measured.verdict());

      // Two sessions share the backend: the same frame is unroutable, and it is recorded.
      ExampleGateway.Stub b = gateway.attach("session-b", r -> Map.of("roots", List.of()));
      Map<String, Object> second = b.callTool("echo").get(30, TimeUnit.SECONDS);
      assertThat(second.get("id")).as("ids are rewritten both ways").isEqualTo(1L);
      assertThat(ExampleGateway.text(second)).startsWith("client error:");
      assertThat(gateway.unroutableRequests()).isEqualTo(1);
      assertThat(gateway.refusedRecords()).isZero();
      assertThat(ledger.codesFor(NAME, gateway.launchIdentity())).containsExactly(UNROUTABLE);

      // The live ledger counts at once; the file only after a flush.
      ServerVerdict live = kc.verdicts(servers, ledger).get(0);
      assertThat(live.verdict().strength()).isEqualTo(Strength.REFUTED);
      assertThat(live.verdict().reasons())
          .containsExactly(new Reason(ReasonCode.OBSERVED_HAZARD, UNROUTABLE));
      assertThat(live.verdict().recommendStub()).isFalse();
      assertThat(strength(kc, servers)).isEqualTo(Strength.MEASURED);
      assertThat(gateway.flushNow()).isTrue();
      assertThat(ExampleGateway.describe(kc.verdicts(servers).get(0)))
          .isEqualTo("refuted observed_hazard(unroutable_server_request)");

      // The kcshare command sees what the gateway recorded.
      String recordsDir = records.toString();
      ItProcesses.Result list =
          ItProcesses.kcshare(dir, "hazards", "list", "--json", "--records-dir", recordsDir);
      assertThat(list.exitCode()).as(list.stderr()).isZero();
      assertThat(list.stdout())
          .contains("\"" + NAME + "\"")
          .contains("\"" + UNROUTABLE + "\"")
          .contains(JsonWriter.compact(gateway.launchIdentity()));

      // An operator clears it from the command line: the file forgets at once...
      ItProcesses.Result clear =
          ItProcesses.kcshare(dir, "hazards", "clear", NAME, "--records-dir", recordsDir);
      assertThat(clear.exitCode()).as(clear.stderr()).isZero();
      assertThat(kc.verdicts(servers).get(0).verdict()).isEqualTo(measured.verdict());
      // ...and the live gateway at its next flush, which applies the stamped clear.
      assertThat(kc.verdicts(servers, ledger).get(0).verdict().strength())
          .isEqualTo(Strength.REFUTED);
      assertThat(gateway.flushNow()).isTrue();
      assertThat(kc.verdicts(servers, ledger).get(0).verdict()).isEqualTo(measured.verdict());
      assertThat(ledger.all()).isEmpty();

      // Back to one session: nothing is recorded again.
      gateway.detach(b);
      assertThat(ExampleGateway.text(a.callTool("echo").get(30, TimeUnit.SECONDS)))
          .isEqualTo("roots: 1");
      assertThat(ledger.all()).isEmpty();
    }
    assertThat(kc.verdicts(servers).get(0).verdict()).isEqualTo(measured.verdict());
    ItProcesses.Result after =
        ItProcesses.kcshare(dir, "hazards", "list", "--json", "--records-dir", records.toString());
    assertThat(after.stdout().strip()).isEqualTo("{}");
    kc.close();
  }
}
