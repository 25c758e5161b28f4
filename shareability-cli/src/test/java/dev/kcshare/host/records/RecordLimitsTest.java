package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.LedgerLoad;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever a writer writes, the reader reads (docs/design.md#record-limits): names and identities
 * up to the writer's limit round-trip through the file, one beyond it is refused at record time and
 * changes nothing, and one bad record never costs the others.
 */
final class RecordLimitsTest {
  private static final String CODE = HazardCodes.UNROUTABLE_SERVER_REQUEST;

  @TempDir Path dir;

  @Test
  void aSixtyThousandCharacterNameCostsNothingElse() throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    LedgerStore store = new LedgerStore(file, () -> 1.0);
    for (String name : List.of("a", "b", "c", "d")) {
      store.record(name, CODE, "id");
    }
    String huge = "n".repeat(60_000);
    store.record(huge, CODE, "i".repeat(60_000));
    assertThat(store.flush()).isTrue();
    LedgerLoad back = LedgerStore.read(file);
    assertThat(back.dropped()).isEmpty();
    assertThat(back.servers()).containsKeys("a", "b", "c", "d", huge);
    assertThat(back.servers().get(huge)).containsKey("i".repeat(60_000));
  }

  @Test
  void ledgerKeysRoundTripAtTheLimitAndAreRefusedBeyondIt() throws Exception {
    Path file = dir.resolve(RecordsDirectory.LEDGER_FILE);
    LedgerStore store = new LedgerStore(file, () -> 1.0);
    String name = "\u00e9".repeat(HazardLedger.MAX_KEY_LENGTH);
    String identity = "\ud83d\ude00".repeat(HazardLedger.MAX_KEY_LENGTH / 2);
    assertThat(store.record(name, CODE, identity)).isTrue();
    assertThat(store.flush()).isTrue();
    assertThat(LedgerStore.read(file).servers().get(name)).containsOnlyKeys(identity);

    long generation = store.ledger().generation();
    assertThat(store.record(name + "x", CODE, "id")).isFalse();
    assertThat(store.record("ok", CODE, identity + "x")).isFalse();
    assertThat(store.ledger().generation())
        .as("a refused record changes nothing")
        .isEqualTo(generation);
    assertThat(store.ledger().isDirty()).isFalse();
    assertThat(store.ledger().all()).containsOnlyKeys(name);
  }

  private static CacheRow row(String version) {
    return new CacheRow(
        true,
        false,
        List.of(),
        1.0,
        ExecutionIdentity.cacheIdentity("c", "e", "fp"),
        version,
        Era.LEGACY,
        null);
  }

  @Test
  void cacheRowsRoundTripAtTheLimitsAndAreRefusedBeyondThem() throws Exception {
    Path file = dir.resolve(RecordsDirectory.CACHE_FILE);
    String name = "s".repeat(HazardLedger.MAX_KEY_LENGTH);
    String bigVersion = "v".repeat(4 * 1024 * 1024 - 1000);
    try (CacheStore.Session session = CacheStore.open(file, null)) {
      assertThat(session.cache().put(name, row("1.0"))).isTrue();
      assertThat(session.cache().put("big", row(bigVersion))).isTrue();
      assertThat(session.cache().put(name + "s", row("1.0"))).isFalse();
      assertThat(session.cache().put("huge", row(bigVersion + "v".repeat(2000)))).isFalse();
      assertThat(session.cache().put("big", row(bigVersion + "v".repeat(2000))))
          .as("a refused row leaves the stored one")
          .isFalse();
      assertThat(session.flush()).isTrue();
    }
    CacheLoad back = CacheStore.read(file);
    assertThat(back.dropped()).isEmpty();
    assertThat(back.rows()).containsOnlyKeys(name, "big");
    assertThat(back.rows().get("big").reportedVersion()).isEqualTo(bigVersion);
  }
}
