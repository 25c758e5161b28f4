package dev.kcshare.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.HostServers;
import dev.kcshare.api.RecordResult;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.host.records.LedgerStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedding API checks its arguments at the call (a NullPointerException naming the parameter,
 * or an IllegalArgumentException), a refused call never changes state, and {@code flush()} reports
 * failure without throwing: a bad argument can never leave the ledger unflushable.
 */
final class EmbeddingArgumentsTest {
  private final List<Shareability> opened = new ArrayList<>();

  /** Closes every facade a test built, so none outlives it. */
  @AfterEach
  void closeFacades() {
    opened.forEach(Shareability::close);
  }

  private Shareability track(Shareability kc) {
    opened.add(kc);
    return kc;
  }

  private static final String CODE = HazardCodes.UNROUTABLE_SERVER_REQUEST;

  @TempDir Path dir;

  private static void npe(ThrowingCallable call, String parameter) {
    assertThatThrownBy(call).isInstanceOf(NullPointerException.class).hasMessage(parameter);
  }

  @Test
  @SuppressWarnings("DataFlowIssue")
  void aNullIdentityIsRefusedAtTheCallAndTheLedgerStaysFlushable() throws Exception {
    Shareability kc = track(Shareability.builder(dir).clock(ShareabilityTest.at(1.0)).build());
    LedgerWriter ledger = kc.openLedger();
    long generation = ledger.store().ledger().generation();
    npe(() -> ledger.record("s", CODE, null), "identity");
    npe(() -> ledger.record(null, CODE, "id"), "name");
    npe(() -> ledger.record("s", null, "id"), "code");
    assertThat(ledger.store().ledger().generation()).as("nothing recorded").isEqualTo(generation);
    assertThat(ledger.codesForName("s")).isEmpty();
    // A refused record (not a known code, an empty name) is false, and changes nothing either.
    assertThat(ledger.record("s", "typo", "id")).isEqualTo(RecordResult.REFUSED);
    assertThat(ledger.record("", CODE, "id")).isEqualTo(RecordResult.REFUSED);
    assertThat(ledger.store().ledger().isDirty()).isFalse();

    assertThat(ledger.record("s", CODE, "id")).isEqualTo(RecordResult.RECORDED);
    assertThat(ledger.record("s", CODE, "id")).isEqualTo(RecordResult.ALREADY_RECORDED);
    assertThat(ledger.flush()).isTrue();
    assertThat(ledger.flush()).isTrue();
    npe(() -> ledger.clear(null), "name");
    npe(() -> LedgerStore.clearInFile(null, "s", 1.0), "file");
    npe(() -> LedgerStore.clearInFile(kc.ledgerFile(), null, 1.0), "name");
    assertThatThrownBy(() -> LedgerStore.clearInFile(kc.ledgerFile(), "", 1.0))
        .isInstanceOf(IllegalArgumentException.class);
    npe(() -> kc.clearHazards(null), "name");
    assertThatThrownBy(() -> kc.clearHazards("")).isInstanceOf(IllegalArgumentException.class);
    npe(() -> LedgerStore.read(null), "file");
    npe(() -> new LedgerStore(null, () -> 1.0), "file");
    npe(() -> new LedgerStore(kc.ledgerFile(), null), "clock");
  }

  @Test
  @SuppressWarnings("DataFlowIssue")
  void everyFacadeMethodChecksItsArguments() throws Exception {
    Shareability kc = track(Shareability.builder(dir).build());
    List<ConfiguredServer> servers =
        kc.servers(List.of(ServerDefinition.stdio("s", dir.resolve("none").toString(), List.of())));
    npe(() -> kc.servers(null), "definitions");
    npe(
        () -> kc.servers(Arrays.asList(ServerDefinition.stdio("s", "x", List.of()), null)),
        "definitions[1]");
    npe(() -> kc.launchIdentity(null), "definition");
    npe(() -> kc.verdicts(null), "servers");
    List<ConfiguredServer> withNull = new ArrayList<>(servers);
    withNull.add(null);
    npe(() -> kc.verdicts(withNull), "servers[1]");
    npe(() -> kc.verdicts(servers, null), "liveLedger");
    npe(() -> kc.hostServers(null), "request");
    HostServers host = kc.hostServers(ConfigRequest.discovery().profile("default"));
    npe(() -> kc.verdicts((HostServers) null, servers), "host");
    npe(() -> kc.verdicts(host, null), "servers");
    npe(() -> kc.verdicts(host, withNull), "servers[1]");
    npe(() -> kc.budgetedPass(null), "servers");
    npe(() -> kc.startUncappedPass(null), "servers");
    npe(() -> kc.startUncappedPass(servers, null), "listener");

    npe(() -> kc.openLedger(null), "flushEvery");
    assertThatThrownBy(() -> kc.openLedger(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    npe(() -> kc.seed(null, List.of(), section -> {}), "section");
    npe(() -> kc.seed(new java.util.HashMap<>(), null, section -> {}), "rows");
    npe(() -> kc.seed(new java.util.HashMap<>(), List.of(), null), "writer");
    npe(() -> kc.eligibility(null, null, servers, kc.openLedger()), "requested");

    npe(() -> Shareability.builder(null), "recordsDirectory");
    assertThatThrownBy(() -> Shareability.builder(Path.of("")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
    Shareability.Builder b = Shareability.builder(dir);
    npe(() -> b.environment(null), "environment");
    npe(() -> b.clock(null), "clock");
    npe(() -> b.identityKeys(null), "identityKeys");
    npe(() -> b.probeTimeout(null), "probeTimeout");
    assertThatThrownBy(() -> b.probeTimeout(Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.processCeiling(0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(track(b.environment(Map.of()).build())).isNotNull();

    npe(() -> CacheStore.open(null), "file");
    npe(() -> CacheStore.read(null), "file");
    assertThatThrownBy(() -> CacheStore.open(kc.cacheFile(), Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    try (CacheStore.Session session = CacheStore.open(kc.cacheFile())) {
      npe(() -> session.cache().put(null, null), "name");
      npe(() -> session.cache().markApplied(null), "name");
      assertThat(session.cache().isDirty()).isFalse();
      assertThat(session.flush()).as("nothing to write").isFalse();
    }
  }
}
