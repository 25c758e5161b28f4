package dev.kcshare.core.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.EraBasis;
import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.json.JsonWriter;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rows of two era choices in one records directory (docs/design.md#rows-of-two-era-choices): which
 * row a pass of each choice counts, how a fresh measurement is merged with the stored row, and that
 * alternating passes of {@code auto} and {@code modern} settle instead of replacing each other's
 * row for ever.
 */
final class CacheEraChoiceTest {
  private static final String ID = CacheCodecTest.IDENTITY;

  private static CacheRow row(EraBasis basis, double at) {
    return new CacheRow(
        true, false, List.of(), at, ID, "1.0", basis.era(), null, null, basis, null);
  }

  @ParameterizedTest(name = "{0} row counts for auto {1}, modern {2}, legacy {3}")
  @CsvSource({
    "INITIALIZE, true, false, true",
    "INITIALIZE_REJECTED, true, true, false",
    "DISCOVER, false, true, false",
    "DISCOVER_REJECTED, true, true, true"
  })
  void aChoiceCountsOnlyTheRowsItWouldHaveMeasured(
      EraBasis basis, boolean auto, boolean modern, boolean legacy) {
    CacheRow r = row(basis, 1);
    assertThat(r.forChoice(EraChoice.AUTO) != null).isEqualTo(auto);
    assertThat(r.forChoice(EraChoice.MODERN) != null).isEqualTo(modern);
    assertThat(r.forChoice(EraChoice.LEGACY) != null).isEqualTo(legacy);
  }

  @Test
  void aModernMeasurementIsKeptBesideALegacyRowAndCountsOnlyForModern() {
    CacheRow legacy = row(EraBasis.INITIALIZE, 1);
    CacheRow modern = row(EraBasis.DISCOVER, 2);
    CacheRow merged = CacheRow.merge(legacy, modern);
    assertThat(merged.era()).isEqualTo(Era.LEGACY);
    assertThat(merged.evaluatedAt()).isEqualTo(1);
    assertThat(merged.modern()).isEqualTo(modern);
    assertThat(merged.forChoice(EraChoice.AUTO)).isSameAs(merged);
    assertThat(merged.forChoice(EraChoice.MODERN)).isEqualTo(modern);
    // A later legacy measurement keeps the modern one beside it.
    CacheRow again = CacheRow.merge(merged, row(EraBasis.INITIALIZE, 3));
    assertThat(again.evaluatedAt()).isEqualTo(3);
    assertThat(again.modern()).isEqualTo(modern);
  }

  @Test
  void aLegacyMeasurementTakesAModernRowOfTheSameIdentityAsItsModernMeasurement() {
    CacheRow modern = row(EraBasis.DISCOVER, 1);
    CacheRow merged = CacheRow.merge(modern, row(EraBasis.INITIALIZE, 2));
    assertThat(merged.era()).isEqualTo(Era.LEGACY);
    assertThat(merged.modern()).isEqualTo(modern);
  }

  @Test
  void anotherIdentityOrAnEraReachedByFallbackReplacesTheRow() {
    CacheRow legacy = row(EraBasis.INITIALIZE, 1);
    CacheRow other =
        new CacheRow(
            true,
            false,
            List.of(),
            2,
            ID + "x",
            "1.0",
            Era.MODERN,
            null,
            null,
            EraBasis.DISCOVER,
            null);
    assertThat(CacheRow.merge(legacy, other)).isEqualTo(other);
    CacheRow modernOnly = row(EraBasis.INITIALIZE_REJECTED, 3);
    assertThat(CacheRow.merge(CacheRow.merge(legacy, row(EraBasis.DISCOVER, 2)), modernOnly))
        .isEqualTo(modernOnly);
  }

  /** Passes alternating between two choices over one row: how many measure, pass by pass. */
  @ParameterizedTest(name = "{0} server, first pass {1}")
  @CsvSource({
    // A dual-era server: auto measures legacy, modern measures modern.
    "dual, AUTO, 2",
    "dual, MODERN, 2",
    // A modern-only server: both measure modern; modern's own row is not auto's until auto asks.
    "modern-only, AUTO, 1",
    "modern-only, MODERN, 2",
    // A legacy-only server: both measure legacy.
    "legacy-only, AUTO, 2",
    "legacy-only, MODERN, 1",
  })
  void alternatingPassesOfTwoChoicesSettle(String server, EraChoice first, int measured) {
    VerdictCache cache = VerdictCache.empty();
    EraChoice second = first == EraChoice.AUTO ? EraChoice.MODERN : EraChoice.AUTO;
    int measurements = 0;
    for (int pass = 0; pass < 6; pass++) {
      EraChoice choice = pass % 2 == 0 ? first : second;
      if (!cache.get("s", ID, "", choice).isHit()) {
        assertThat(pass).as("pass %d measured again", pass).isLessThan(2);
        cache.putMeasured("s", row(measure(server, choice), pass));
        measurements++;
      }
    }
    assertThat(measurements).isEqualTo(measured);
  }

  /** How a pass of {@code choice} reaches its era on each kind of server. */
  private static EraBasis measure(String server, EraChoice choice) {
    return switch (server) {
      case "dual" -> choice == EraChoice.MODERN ? EraBasis.DISCOVER : EraBasis.INITIALIZE;
      case "modern-only" ->
          choice == EraChoice.MODERN ? EraBasis.DISCOVER : EraBasis.INITIALIZE_REJECTED;
      default -> choice == EraChoice.MODERN ? EraBasis.DISCOVER_REJECTED : EraBasis.INITIALIZE;
    };
  }

  @Test
  void theBasisAndTheModernMeasurementAreWrittenAndReadBack() {
    CacheRow merged = CacheRow.merge(row(EraBasis.INITIALIZE, 1), row(EraBasis.DISCOVER, 2));
    Map<String, Object> doc = CacheCodec.encode(Map.of("s", merged), List.of());
    String text = JsonWriter.compact(doc);
    assertThat(text)
        .contains(
            "\"era\":\"legacy\",\"modern\":{\"ran\":true,\"callerSensitive\":false,\"reasons\":[],"
                + "\"evaluatedAt\":2.0,\"reportedVersion\":\"1.0\",\"era\":\"modern\","
                + "\"eraBasis\":\"discover\"}");
    CacheLoad load = CacheCodec.decode(doc);
    assertThat(load.dropped()).isEmpty();
    assertThat(load.rows().get("s")).isEqualTo(merged);
  }

  @Test
  void aRowMeasuredTheUsualWayIsWrittenAsBefore() {
    String text =
        JsonWriter.compact(CacheCodec.encode(Map.of("s", row(EraBasis.INITIALIZE, 1)), List.of()));
    assertThat(text).doesNotContain("eraBasis").doesNotContain("\"modern\"");
    String modern =
        JsonWriter.compact(
            CacheCodec.encode(Map.of("s", row(EraBasis.INITIALIZE_REJECTED, 1)), List.of()));
    assertThat(modern).doesNotContain("eraBasis");
  }

  @Test
  void aModernMemberBesideARowItCannotAccompanyIsDroppedWithANote() {
    Map<String, Object> nested = Json.with(CacheCodecTest.specRow(), "era", "modern");
    nested.remove("identity");
    Map<String, Object> modernRow = Json.with(CacheCodecTest.specRow(), "era", "modern");
    @Nullable Object bad = Json.with(modernRow, "modern", nested);
    CacheLoad load = CacheCodec.decode(Json.obj("entries", Json.obj("s", bad)));
    assertThat(load.rows().get("s").modern()).isNull();
    assertThat(load.dropped()).extracting(Dropped::where).containsExactly("entries/s/modern");
  }
}
