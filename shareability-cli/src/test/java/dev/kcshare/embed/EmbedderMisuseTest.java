package dev.kcshare.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.HostServers;
import dev.kcshare.api.PassResult;
import dev.kcshare.api.RecordResult;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.internal.AttemptRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a gateway gets when it uses the facade carelessly (docs/embedding.md). */
final class EmbedderMisuseTest {
  private static final String CODE = HazardCodes.UNROUTABLE_SERVER_REQUEST;

  private final List<Shareability> opened = new ArrayList<>();

  @AfterEach
  void closeFacades() {
    opened.forEach(Shareability::close);
  }

  private Shareability facade(Path dir) {
    Shareability kc = Shareability.builder(dir.resolve("records")).build();
    opened.add(kc);
    return kc;
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t", "  \n "})
  void anEmptyOrBlankNameIsRefusedAndNothingIsStored(String name, @TempDir Path dir) {
    LedgerWriter ledger = facade(dir).openLedger();
    assertThat(ledger.record(name, CODE, "")).isEqualTo(RecordResult.REFUSED);
    assertThat(ledger.all()).isEmpty();
  }

  @Test
  void recordAfterCloseRefusesAndTheOtherCallsStillThrow(@TempDir Path dir) {
    LedgerWriter ledger = facade(dir).openLedger();
    ledger.close();
    assertThat(ledger.record("s", CODE, "")).isEqualTo(RecordResult.REFUSED);
    assertThatThrownBy(ledger::all).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> ledger.codesForName("s")).isInstanceOf(IllegalStateException.class);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 1_000, 9_999_999})
  void aFlushPeriodBelowTheMinimumIsRefused(long nanos, @TempDir Path dir) {
    Shareability kc = facade(dir);
    assertThatThrownBy(() -> kc.openLedger(Duration.ofNanos(nanos)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 10 ms");
  }

  @Test
  void theMinimumFlushPeriodItselfIsAccepted(@TempDir Path dir) {
    assertThat(LedgerWriter.MIN_FLUSH_PERIOD).isEqualTo(Duration.ofMillis(10));
    facade(dir).openLedger(LedgerWriter.MIN_FLUSH_PERIOD).close();
  }

  @Test
  void theServersAndVerdictsListsAreUnmodifiable(@TempDir Path dir) {
    Shareability kc = facade(dir);
    List<ConfiguredServer> servers =
        kc.servers(List.of(ServerDefinition.stdio("s", "/bin/true", List.of())));
    assertThatThrownBy(servers::clear).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ConfiguredServer.group(List.of()).add(servers.get(0)))
        .isInstanceOf(UnsupportedOperationException.class);
    LedgerWriter ledger = kc.openLedger();
    HostServers host = kc.hostServers(ConfigRequest.discovery().profile("default"));
    for (List<ServerVerdict> rows :
        List.of(kc.verdicts(servers), kc.verdicts(servers, ledger), kc.verdicts(host, servers))) {
      assertThat(rows).hasSize(1);
      assertThatThrownBy(rows::clear).isInstanceOf(UnsupportedOperationException.class);
    }
  }

  @Test
  void valuesShowIdentitiesWithoutNulBytes(@TempDir Path dir) {
    String identity = "abc\0def\0node 20";
    AttemptRecord failed = new AttemptRecord(0.0, identity, "exit 1", null, "", 1);
    PassResult.Stored stored =
        new Results.Stored(identity, true, List.of(), Instant.EPOCH, "", null);
    Shareability kc = facade(dir);
    ConfiguredDefinition configured =
        kc.servers(List.of(ServerDefinition.stdio("s", "/bin/true", List.of())))
            .get(0)
            .configured()
            .get(0);
    assertThat(configured.identity()).contains("\0");
    for (Object value : List.of(failed, stored, configured)) {
      assertThat(value.toString()).as(value.getClass().getSimpleName()).doesNotContain("\0");
    }
    assertThat(failed.toString()).contains("identity=abc\\0def\\0node 20");
    assertThat(failed.identity()).isEqualTo(identity); // the value itself is unchanged
  }
}
