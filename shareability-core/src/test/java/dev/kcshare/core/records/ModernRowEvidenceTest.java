package dev.kcshare.core.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.CacheHints;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.EraBasis;
import dev.kcshare.core.handshake.HandshakeComparison;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.handshake.internal.Answers;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.verdict.Evidence;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a modern exchange keeps and what the evidence reads of it
 * (docs/design.md#what-a-modern-exchange-reads): the caching hints of discover and of every page in
 * the stored handshake, the {@code cache_scope_differs} facet, {@code listingPublic} and {@code
 * modernOnly}.
 */
final class ModernRowEvidenceTest {
  private static final Map<String, Object> TOOL = Map.of("name", "echo");

  private static Answer modern(String discoverScope, String... pageScopes) {
    List<Object> pages = new java.util.ArrayList<>();
    for (String scope : pageScopes) {
      pages.add(Map.of("cacheScope", scope, "ttlMs", 1000, "tools", List.of(TOOL)));
    }
    Map<String, Object> discover =
        Map.of(
            "capabilities",
            Map.of("tools", Map.of()),
            "supportedVersions",
            List.of("2026-07-28"),
            "cacheScope",
            discoverScope,
            "ttlMs",
            3_600_000);
    return Answers.modern(discover, List.of(TOOL), pages);
  }

  @Test
  void theHintsOfDiscoverAndEveryPageAreReadFromTheResults() {
    CacheHints hints = modern("public", "public", "private").cacheHints();
    assertThat(hints.discoverScope()).isEqualTo("public");
    assertThat(hints.discoverTtlMs()).isEqualTo(3_600_000);
    assertThat(hints.pageScopes()).isEqualTo(List.of("public", "private"));
    assertThat(hints.pageTtlMs()).isEqualTo(List.of(1000, 1000));
    assertThat(hints.allPublic()).isFalse();
    assertThat(modern("public", "public", "public").cacheHints().allPublic()).isTrue();
  }

  @ParameterizedTest(name = "A {0}/{1}, B {2}/{3} -> {4}")
  @CsvSource({
    "public, public, public, public, ''",
    "private, private, private, private, ''",
    "public, public, private, public, cache_scope_differs",
    "public, public, public, private, cache_scope_differs",
  })
  void aCacheScopeThatDiffersIsTheThirdFacet(
      String discoverA, String pageA, String discoverB, String pageB, String detail) {
    PreflightResult r = PreflightResult.decide(modern(discoverA, pageA), modern(discoverB, pageB));
    assertThat(r.ran()).isTrue();
    assertThat(r.detail()).isEqualTo(detail);
    assertThat(r.callerSensitive()).isEqualTo(!detail.isEmpty());
  }

  @Test
  void aDifferentListingIsNamedBeforeADifferentScope() {
    Answer a = modern("public", "public");
    Answer b = Answers.modern(Map.of("cacheScope", "private"), List.of(), List.of(Map.of()));
    assertThat(PreflightResult.decide(a, b).detail())
        .isEqualTo(HandshakeComparison.DISCOVER_SHAPE_DIFFERS);
  }

  @Test
  void theStoredHandshakeKeepsTheHintsAndSupportedVersionsAndReadsThemBack() {
    StoredHandshake stored = StoredHandshake.of(modern("public", "public", "private"));
    CacheRow row =
        new CacheRow(
            true,
            false,
            List.of(),
            1,
            CacheCodecTest.IDENTITY,
            "",
            Era.MODERN,
            stored,
            null,
            EraBasis.INITIALIZE_REJECTED,
            null);
    Map<String, Object> doc = CacheCodec.encode(Map.of("s", row), List.of());
    assertThat(JsonWriter.compact(doc))
        .contains(
            "\"supportedVersions\":[\"2026-07-28\"],\"cache\":{\"discover\":{\"cacheScope\":"
                + "\"public\",\"ttlMs\":3600000},\"toolsList\":[{\"cacheScope\":\"public\","
                + "\"ttlMs\":1000},{\"cacheScope\":\"private\",\"ttlMs\":1000}]}");
    CacheRow read = CacheCodec.decode(doc).rows().get("s");
    assertThat(read.handshake().cacheHints().pageScopes()).isEqualTo(List.of("public", "private"));
    assertThat(read.handshake().supportedVersions()).isEqualTo(List.of("2026-07-28"));
  }

  @Test
  void aLegacyHandshakeIsWrittenAsBefore() {
    Answer legacy = Answers.legacy(Map.of("capabilities", Map.of()), List.of(TOOL));
    String text = JsonWriter.compact(StoredHandshake.of(legacy).toJson());
    assertThat(text)
        .isEqualTo(
            "{\"capabilities\":{},\"protocolVersion\":\"\",\"serverInfo\":{},"
                + "\"toolAnnotations\":[],\"hasTools\":true}");
  }

  private static Evidence evidenceOf(CacheRow row) {
    return row.applyTo(Evidence.builder()).build();
  }

  private static CacheRow row(Answer a, boolean sensitive, EraBasis basis) {
    return new CacheRow(
        true,
        sensitive,
        List.of(),
        1,
        CacheCodecTest.IDENTITY,
        "",
        a.era(),
        StoredHandshake.of(a),
        null,
        basis,
        null);
  }

  @Test
  void theEvidenceOfAModernRowSaysItsEraWhetherItsListingIsPublicAndWhetherItIsModernOnly() {
    Evidence e = evidenceOf(row(modern("public", "public"), false, EraBasis.INITIALIZE_REJECTED));
    assertThat(e.era()).isEqualTo(Era.MODERN);
    assertThat(e.listingPublic()).isTrue();
    assertThat(e.modernOnly()).isTrue();
    // A divergent row: the callers did not answer alike, so nothing says B was public too.
    assertThat(evidenceOf(row(modern("public", "public"), true, EraBasis.DISCOVER)).listingPublic())
        .isFalse();
    // Opened with discover: nothing says initialize would be rejected.
    assertThat(evidenceOf(row(modern("public", "public"), false, EraBasis.DISCOVER)).modernOnly())
        .isFalse();
    Answer dual =
        Answers.modern(
            Map.of("supportedVersions", List.of("2026-07-28", "2025-06-18")),
            List.of(TOOL),
            List.of(Map.of()));
    assertThat(evidenceOf(row(dual, false, EraBasis.INITIALIZE_REJECTED)).modernOnly()).isFalse();
    Evidence legacy =
        evidenceOf(
            row(
                Answers.legacy(Map.of("capabilities", Map.of("logging", Map.of())), List.of()),
                false,
                EraBasis.INITIALIZE));
    assertThat(legacy.era()).isEqualTo(Era.LEGACY);
    assertThat(legacy.modernOnly()).isFalse();
  }
}
