package dev.kcshare.core.records;

import static dev.kcshare.core.records.Json.arr;
import static dev.kcshare.core.records.Json.obj;
import static dev.kcshare.core.records.Json.with;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.JsonWriter;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The verdict-cache row's optional {@code cost} member (kcshare's own, beside {@code era} and
 * {@code handshake}): written after {@code handshake}, read tolerantly, never part of validity.
 */
final class CacheCostMemberTest {
  private static final SessionCost COST = SessionCost.of(88_080_384, 61_865_984, 2, 412, 380);

  private static Map<String, Object> costJson() {
    return obj(
        "rssBytes",
        88_080_384L,
        "pssBytes",
        61_865_984L,
        "processes",
        2L,
        "readyMillis",
        412L,
        "cpuMillis",
        380L);
  }

  private static CacheLoad load(Object row) {
    return CacheCodec.decode(obj("entries", obj("s", row)));
  }

  private static CacheRow onlyRow(Object row) {
    CacheLoad load = load(row);
    assertThat(load.rows()).containsOnlyKeys("s");
    return load.rows().get("s");
  }

  @Test
  void aRowWithACostReadsItFigureByFigure() {
    CacheLoad load = load(with(CacheCodecTest.specRow(), "cost", costJson()));
    assertThat(load.dropped()).isEmpty();
    assertThat(load.rows().get("s").cost()).isEqualTo(COST);
  }

  @Test
  void aRowWithoutACostStaysValidAndHasNone() {
    CacheLoad load = load(CacheCodecTest.specRow());
    assertThat(load.dropped()).isEmpty();
    CacheRow row = load.rows().get("s");
    assertThat(row.cost()).isNull();
    assertThat(row)
        .isEqualTo(onlyRow(with(CacheCodecTest.specRow(), "cost", costJson())).withCost(null));
  }

  @Test
  void theCostIsWrittenLastAndReadBackEqual() {
    CacheRow row = onlyRow(with(CacheCodecTest.specRow(), "cost", costJson()));
    Map<String, Object> doc = CacheCodec.encode(new TreeMap<>(Map.of("files-mcp", row)), List.of());
    Map<?, ?> written = (Map<?, ?>) ((Map<?, ?>) doc.get("entries")).get("files-mcp");
    assertThat(List.<Object>copyOf(written.keySet()))
        .containsExactly(
            "ran",
            "callerSensitive",
            "reasons",
            "evaluatedAt",
            "identity",
            "reportedVersion",
            "era",
            "handshake",
            "cost");
    assertThat(JsonWriter.compact(written.get("cost")))
        .isEqualTo(
            "{\"rssBytes\":88080384,\"pssBytes\":61865984,\"processes\":2,\"readyMillis\":412,"
                + "\"cpuMillis\":380}");
    assertThat(CacheCodec.decode(doc).rows().get("files-mcp")).isEqualTo(row);
  }

  @Test
  void onlyThePresentFiguresAreWrittenAndAnEmptyCostIsNone() {
    SessionCost partial =
        new SessionCost(
            OptionalLong.of(1024),
            OptionalLong.empty(),
            OptionalLong.of(1),
            OptionalLong.empty(),
            OptionalLong.empty());
    CacheRow row =
        new CacheRow(
            true, false, List.of(), 1.0, CacheCodecTest.IDENTITY, "", Era.LEGACY, null, partial);
    assertThat(JsonWriter.compact(CacheCodec.encode(Map.of("s", row), List.of())))
        .endsWith(
            "\"era\":\"legacy\",\"cost\":{\"rssBytes\":1024,\"processes\":1}}},\"applied\":[]}");
    CacheRow none =
        new CacheRow(
            true,
            false,
            List.of(),
            1.0,
            CacheCodecTest.IDENTITY,
            "",
            Era.LEGACY,
            null,
            SessionCost.NONE);
    assertThat(none.cost()).isNull();
    assertThat(JsonWriter.compact(CacheCodec.encode(Map.of("s", none), List.of())))
        .doesNotContain("cost");
  }

  @Test
  void foreignMembersBesideTheCostAreIgnoredAndTheRowKept() {
    Map<String, Object> cost = with(costJson(), "gpuBytes", 5L);
    Map<String, Object> row =
        with(with(CacheCodecTest.specRow(), "cost", cost), "somebodyElses", obj("x", arr(1)));
    CacheLoad load = load(row);
    assertThat(load.dropped()).isEmpty();
    assertThat(load.rows().get("s").cost()).isEqualTo(COST);
    assertThat(load.rows().get("s").handshake()).isNotNull();
  }

  static Stream<Object> notObjects() {
    return Stream.of(arr(costJson()), "88 MiB", 1L, true);
  }

  @ParameterizedTest
  @MethodSource("notObjects")
  void aCostThatIsNotAnObjectIsDroppedAndTheRowKept(Object cost) {
    CacheLoad load = load(with(CacheCodecTest.specRow(), "cost", cost));
    CacheRow row = load.rows().get("s");
    assertThat(row).isNotNull();
    assertThat(row.cost()).isNull();
    assertThat(row.handshake()).isNotNull();
    assertThat(load.dropped())
        .singleElement()
        .extracting(Dropped::where)
        .isEqualTo("entries/s/cost");
  }

  @Test
  void aNullCostIsDroppedAndTheRowKept() {
    Map<String, Object> row = with(CacheCodecTest.specRow(), "cost", null);
    CacheLoad load = load(row);
    assertThat(load.rows().get("s").cost()).isNull();
    assertThat(load.dropped())
        .singleElement()
        .extracting(Dropped::where)
        .isEqualTo("entries/s/cost");
  }

  static Stream<Arguments> badFigures() {
    return Stream.of(
        Arguments.of(-1L),
        Arguments.of(1.5),
        Arguments.of(1e3),
        Arguments.of(Double.NaN),
        Arguments.of("1024"),
        Arguments.of(true),
        Arguments.of((Object) null),
        Arguments.of(BigInteger.TEN.pow(30)),
        Arguments.of(obj()));
  }

  @ParameterizedTest
  @MethodSource("badFigures")
  void aBadFigureIsDroppedAloneAndTheOthersKept(Object bad) {
    CacheLoad load =
        load(with(CacheCodecTest.specRow(), "cost", with(costJson(), "rssBytes", bad)));
    SessionCost cost = load.rows().get("s").cost();
    assertThat(cost).isNotNull();
    assertThat(cost.rssBytes()).isEmpty();
    assertThat(cost.pssBytes()).hasValue(61_865_984);
    assertThat(cost.processes()).hasValue(2);
    assertThat(load.dropped())
        .singleElement()
        .extracting(Dropped::where)
        .isEqualTo("entries/s/cost/rssBytes");
  }

  @Test
  void aCostWithNoUsableFigureIsNone() {
    assertThat(onlyRow(with(CacheCodecTest.specRow(), "cost", obj())).cost()).isNull();
    assertThat(onlyRow(with(CacheCodecTest.specRow(), "cost", obj("rssBytes", "x"))).cost())
        .isNull();
  }

  @Test
  void theCostNeverDecidesValidity() {
    // A row dropped for its identity stays dropped, whatever its cost says.
    Map<String, Object> oldSchema =
        with(
            with(CacheCodecTest.specRow(), "identity", "a\u0000b\u0000c\u00001"),
            "cost",
            costJson());
    assertThat(load(oldSchema).rows()).isEmpty();
    // Same identity, with or without a cost: a hit either way.
    VerdictCache cache = VerdictCache.of(load(with(CacheCodecTest.specRow(), "cost", costJson())));
    assertThat(cache.get("s", CacheCodecTest.IDENTITY, "0.6.3").isHit()).isTrue();
  }

  @Test
  void withHandshakeKeepsTheCost() {
    CacheRow row = onlyRow(with(CacheCodecTest.specRow(), "cost", costJson()));
    assertThat(row.withHandshake(null).cost()).isEqualTo(COST);
    assertThat(row.withHandshake(null).handshake()).isNull();
  }
}
