package dev.kcshare.core.records;

import static dev.kcshare.core.records.HazardCodes.UNATTRIBUTABLE_NOTIFICATION;
import static dev.kcshare.core.records.HazardCodes.UNROUTABLE_SERVER_REQUEST;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * docs/formats.md#the-hazard-ledger--observed-hazardsjson: the flat union beside {@code
 * identities}, as the file and views carry it.
 */
final class LedgerUnionTest {
  private static HazardRecord record(long count, double lastSeen, String... codes) {
    return HazardRecord.of(List.of(codes), count, lastSeen);
  }

  @Test
  void unionOfCodesSumOfCountsMaxOfLastSeen() {
    LedgerUnion u =
        LedgerUnion.of(
            List.of(
                record(4, 1712000000.5, UNROUTABLE_SERVER_REQUEST),
                record(1, 1712000300.0, UNATTRIBUTABLE_NOTIFICATION)));
    assertThat(u.codes()).containsExactly(UNATTRIBUTABLE_NOTIFICATION, UNROUTABLE_SERVER_REQUEST);
    assertThat(u.count()).isEqualTo(BigInteger.valueOf(5));
    assertThat(u.countValue()).isEqualTo(5L);
    assertThat(u.lastSeen()).isEqualTo(1712000300.0);
  }

  @Test
  void theSumIsExactBeyondTheLongRange() {
    LedgerUnion u =
        LedgerUnion.of(
            List.of(
                record(Long.MAX_VALUE, 1.0, UNROUTABLE_SERVER_REQUEST),
                record(Long.MAX_VALUE, 2.0, UNROUTABLE_SERVER_REQUEST),
                record(3, 3.0, UNROUTABLE_SERVER_REQUEST)));
    BigInteger expected =
        BigInteger.valueOf(Long.MAX_VALUE).multiply(BigInteger.TWO).add(BigInteger.valueOf(3));
    assertThat(u.count()).isEqualTo(expected);
    assertThat(u.countValue()).isEqualTo(expected);
  }

  @Test
  void aNegativeLatestTimeIsKeptAndNoRecordIsZero() {
    assertThat(
            LedgerUnion.of(
                    List.of(
                        record(1, -1.5, UNROUTABLE_SERVER_REQUEST),
                        record(1, -3.0, UNROUTABLE_SERVER_REQUEST)))
                .lastSeen())
        .isEqualTo(-1.5);
    LedgerUnion none = LedgerUnion.of(List.of());
    assertThat(none.lastSeen()).isEqualTo(0.0);
    assertThat(none.count()).isEqualTo(BigInteger.ZERO);
    assertThat(none.codes()).isEmpty();
  }

  @Test
  void theFileCarriesTheSameUnion() {
    SortedMap<String, HazardRecord> identities = new TreeMap<>();
    identities.put("a", record(Long.MAX_VALUE, -1.5, UNROUTABLE_SERVER_REQUEST));
    identities.put("b", record(Long.MAX_VALUE, -2.5, UNATTRIBUTABLE_NOTIFICATION));
    Map<String, Object> doc = LedgerCodec.encode(Map.of("s", identities), Map.of());
    Map<?, ?> entry = (Map<?, ?>) ((Map<?, ?>) doc.get("servers")).get("s");
    LedgerUnion union = LedgerUnion.of(identities.values());
    assertThat(entry.get("count")).isEqualTo(union.countValue());
    assertThat(entry.get("lastSeen")).isEqualTo(-1.5);
    assertThat(entry.get("codes")).isEqualTo(union.codes());
    // And it reads back: the flat fields are ignored beside identities, the records are exact.
    LedgerLoad back = LedgerCodec.decode(doc);
    assertThat(back.dropped()).isEmpty();
    assertThat(back.servers().get("s")).isEqualTo(identities);
  }
}
