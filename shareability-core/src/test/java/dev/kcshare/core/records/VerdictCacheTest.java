package dev.kcshare.core.records;

import static dev.kcshare.core.records.Json.arr;
import static dev.kcshare.core.records.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.Era;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/design.md#cache-validity, docs/design.md#applied-markers: reads, validity, applied markers
 * and dirtiness of the verdict cache.
 */
final class VerdictCacheTest {
  private static final String ID_A = "a\u0000e\u0000fp\u00002";
  private static final String ID_B = "a\u0000e\u0000unknown\u00002";

  private static CacheRow row(String identity, String version) {
    return new CacheRow(true, false, List.of(), 1.0, identity, version, Era.LEGACY, null);
  }

  private static VerdictCache loaded(String version) {
    VerdictCache cache = VerdictCache.empty();
    cache.put("s", row(ID_A, version));
    cache.markClean();
    return cache;
  }

  @Test
  void noRowIsAMiss() {
    CacheLookup lookup = VerdictCache.empty().get("s", ID_A, "");
    assertThat(lookup.outcome()).isEqualTo(CacheLookup.Outcome.NO_ROW);
    assertThat(lookup.isHit()).isFalse();
    assertThat(lookup.row()).isNull();
  }

  @Test
  void identityMismatchIsAMissThatKeepsTheRow() {
    VerdictCache cache = loaded("1.0");
    CacheLookup lookup = cache.get("s", ID_B, "2.0");
    assertThat(lookup.outcome()).isEqualTo(CacheLookup.Outcome.IDENTITY_MISMATCH);
    assertThat(lookup.row()).isNull();
    assertThat(cache.getByName("s")).isEqualTo(row(ID_A, "1.0"));
    assertThat(cache.isDirty()).isFalse();
  }

  @Test
  void changedReportedVersionDeletesTheRowAndDirties() {
    VerdictCache cache = loaded("0.6.3");
    CacheLookup lookup = cache.get("s", ID_A, "0.7.0");
    assertThat(lookup.outcome()).isEqualTo(CacheLookup.Outcome.VERSION_CHANGED);
    assertThat(lookup.storedVersion()).isEqualTo("0.6.3");
    assertThat(lookup.currentVersion()).isEqualTo("0.7.0");
    assertThat(lookup.versionDropMessage("files-mcp"))
        .isEqualTo(
            "dropping verdict row \"files-mcp\": reported version changed \"0.6.3\" -> \"0.7.0\"");
    assertThat(cache.getByName("s")).isNull();
    assertThat(cache.size()).isZero();
    assertThat(cache.isDirty()).isTrue();
    assertThat(cache.get("s", ID_A, "0.7.0").outcome()).isEqualTo(CacheLookup.Outcome.NO_ROW);
  }

  @Test
  void versionDropMessageEscapesAndBoundsEveryValue() {
    String forged = "0.7.0\n[INFO] all servers safe\u001b[32m";
    assertThat(CacheLookup.versionDropMessage("a\"b", "1", forged))
        .isEqualTo(
            "dropping verdict row \"a\\\"b\": reported version changed \"1\" -> "
                + "\"0.7.0\\n[INFO] all servers safe\\x1b[32m\"");
    String longVersion = "9".repeat(300);
    assertThat(CacheLookup.versionDropMessage("s", longVersion, "1"))
        .contains("\"" + "9".repeat(120) + "...\"");
  }

  @Test
  void anEmptyVersionOnEitherSideNeverInvalidates() {
    assertThat(loaded("").get("s", ID_A, "0.7.0").isHit()).isTrue();
    assertThat(loaded("0.6.3").get("s", ID_A, "").isHit()).isTrue();
    VerdictCache same = loaded("0.6.3");
    CacheLookup hit = same.get("s", ID_A, "0.6.3");
    assertThat(hit.isHit()).isTrue();
    assertThat(hit.row()).isEqualTo(row(ID_A, "0.6.3"));
    assertThat(same.isDirty()).isFalse();
  }

  @Test
  void getByNameSkipsEveryCheck() {
    VerdictCache cache = loaded("1.0");
    assertThat(cache.getByName("s")).isEqualTo(row(ID_A, "1.0"));
    assertThat(cache.getByName("other")).isNull();
  }

  @Test
  void putOverwritesTheSingleRowAndDirties() {
    VerdictCache cache = loaded("1.0");
    cache.put("s", row(ID_B, "2.0"));
    assertThat(cache.isDirty()).isTrue();
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.getByName("s")).isEqualTo(row(ID_B, "2.0"));
    cache.markClean();
    cache.put("", row(ID_B, "2.0"));
    assertThat(cache.isDirty()).isFalse();
    assertThat(cache.serverNames()).containsExactly("s");
  }

  @Test
  void appliedMarkers() {
    VerdictCache cache = VerdictCache.empty();
    cache.markApplied("");
    assertThat(cache.isDirty()).isFalse();
    assertThat(cache.applied()).isEmpty();
    cache.markApplied("b");
    assertThat(cache.isDirty()).isTrue();
    cache.markClean();
    cache.markApplied("b");
    assertThat(cache.isDirty()).isFalse();
    cache.markApplied("a");
    assertThat(cache.wasApplied("a")).isTrue();
    assertThat(cache.wasApplied("c")).isFalse();
    assertThat(cache.applied()).containsExactly("a", "b");
  }

  @Test
  void loadingNeverDirtiesEvenWhenRowsWereDropped() {
    Object doc =
        obj(
            "entries",
            obj(
                "ok",
                CacheCodecTest.specRow(),
                "stale",
                Json.with(CacheCodecTest.specRow(), "identity", "x\u00001")),
            "applied",
            arr("ok", ""));
    CacheLoad load = CacheCodec.decode(doc);
    assertThat(load.dropped()).isNotEmpty();
    VerdictCache cache = VerdictCache.of(load);
    assertThat(cache.isDirty()).isFalse();
    assertThat(cache.serverNames()).containsExactly("ok");
    assertThat(cache.applied()).containsExactly("ok");
    assertThat(cache.toDocument()).isEqualTo(CacheCodec.encode(load.rows(), load.applied()));
  }

  @Test
  void ranFalseRowsAreLoadedAndReadable() {
    Object doc =
        obj(
            "entries",
            obj("s", Json.with(CacheCodecTest.specRow(), "ran", false)),
            "applied",
            arr());
    VerdictCache cache = VerdictCache.of(CacheCodec.decode(doc));
    CacheLookup lookup = cache.get("s", CacheCodecTest.IDENTITY, "0.6.3");
    assertThat(lookup.isHit()).isTrue();
    assertThat(lookup.row().ran()).isFalse();
  }

  @Test
  void documentRoundTripsThroughTheCodec() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("b", row(ID_A, "1"));
    cache.put("a", row(ID_B, ""));
    cache.markApplied("z");
    VerdictCache reread = VerdictCache.of(CacheCodec.decode(cache.toDocument()));
    assertThat(reread.serverNames()).containsExactly("a", "b");
    assertThat(reread.getByName("a")).isEqualTo(row(ID_B, ""));
    assertThat(reread.applied()).containsExactly("z");
    assertThat(reread.toDocument()).isEqualTo(cache.toDocument());
  }
}
