package dev.kcshare.core.records;

import static dev.kcshare.core.records.Json.arr;
import static dev.kcshare.core.records.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.RawJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file for the verdict cache: a flush
 * replaces only the rows this writer measured or removed; every other row is written back as the
 * file held it, unknown members and newer entry schemas included, and unknown top-level members
 * survive.
 */
final class CacheKeepsWhatItDoesNotUnderstandTest {
  private static final String ID = "a\u0000e\u0000fp\u0000bin\u00002";

  private static Map<String, Object> kcshareRow(double at) {
    return obj(
        "ran",
        true,
        "callerSensitive",
        false,
        "reasons",
        arr(),
        "evaluatedAt",
        at,
        "identity",
        ID,
        "reportedVersion",
        "1.0",
        "era",
        "legacy");
  }

  /** Rows and members a future or foreign writer may leave in the file. */
  static List<Object[]> foreignRows() {
    return List.of(
        new Object[] {
          "newer entry schema",
          Json.with(
              Json.with(kcshareRow(5.0), "identity", "a\u0000e\u0000fp\u0000bin\u00003"),
              "verdictShape",
              obj("tier", "shared", "weights", arr(1, 2.5, obj("x", null))))
        },
        new Object[] {"unknown member", Json.with(kcshareRow(6.0), "future", obj("a", arr()))},
        new Object[] {"lenient member replaced on read", Json.with(kcshareRow(7.0), "era", "next")},
        new Object[] {"integer time", Json.with(kcshareRow(7.0), "evaluatedAt", 1712000000)},
        new Object[] {"ran missing", Json.without(kcshareRow(8.0), "ran")},
        new Object[] {"not an object", arr("a", 1)},
        new Object[] {
          "handshake with members of its own",
          Json.with(
              kcshareRow(9.0),
              "handshake",
              obj(
                  "capabilities",
                  obj(),
                  "protocolVersion",
                  "2099-01-01",
                  "serverInfo",
                  obj("name", "n"),
                  "toolAnnotations",
                  arr(),
                  "hasTools",
                  false,
                  "transport",
                  "h3"))
        });
  }

  private static Map<String, Object> file(Object foreign) {
    return obj(
        "entries", obj("mine", kcshareRow(1.0), "theirs", foreign),
        "applied", arr("theirs"),
        "schema", 3,
        "x-gateway", obj("note", "kept \"as is\", {with: [punctuation]}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("foreignRows")
  void aFlushOfAnotherServerWritesTheRowBackAsRead(String what, Object foreign) {
    Map<String, Object> file = file(foreign);
    VerdictCache cache = VerdictCache.of(CacheCodec.decode(file));
    assertThat(
            cache.put(
                "mine", new CacheRow(true, false, List.of(), 2.0, ID, "1.1", Era.MODERN, null)))
        .isTrue();
    Map<String, Object> written = cache.merge(CacheCodec.decode(file)).toDocument();

    @SuppressWarnings("unchecked")
    Map<String, Object> entries = (Map<String, Object>) written.get("entries");
    assertThat(entries).containsOnlyKeys("mine", "theirs");
    assertThat(JsonWriter.compact(entries.get("theirs")))
        .as("the other server's row, as a JSON value")
        .isEqualTo(JsonWriter.compact(foreign));
    assertThat(((RawJson) written.get("x-gateway")).text())
        .isEqualTo(JsonWriter.compact(file.get("x-gateway")));
    assertThat(((RawJson) written.get("schema")).text()).isEqualTo("3");
    // The pretty file text holds the same values as writing the originals would.
    assertThat(JsonWriter.pretty(entries.get("theirs"))).isEqualTo(JsonWriter.pretty(foreign));
  }

  @Test
  void aRowThisWriterReplacesIsWrittenAsItsOwn() {
    Map<String, Object> file = file(Json.with(kcshareRow(6.0), "future", 1));
    VerdictCache cache = VerdictCache.of(CacheCodec.decode(file));
    cache.put("theirs", new CacheRow(true, true, List.of("r"), 3.0, ID, "", Era.LEGACY, null));
    Map<String, Object> written = cache.merge(CacheCodec.decode(file)).toDocument();
    @SuppressWarnings("unchecked")
    Map<String, Object> theirs =
        (Map<String, Object>) ((Map<?, ?>) written.get("entries")).get("theirs");
    assertThat(theirs).doesNotContainKey("future").containsEntry("evaluatedAt", 3.0);
  }

  @Test
  void aVersionDropRemovesTheRowItDroppedEvenWithUnknownMembers() {
    Map<String, Object> file = file(Json.with(kcshareRow(6.0), "future", 1));
    VerdictCache cache = VerdictCache.of(CacheCodec.decode(file));
    assertThat(cache.get("theirs", ID, "2.0").outcome())
        .isEqualTo(CacheLookup.Outcome.VERSION_CHANGED);
    Map<String, Object> written = cache.merge(CacheCodec.decode(file)).toDocument();
    assertThat(List.copyOf(((Map<?, ?>) written.get("entries")).keySet()))
        .isEqualTo(List.of("mine"));
  }

  @Test
  void rowsWrittenBackIdenticallyAreNotHeldTwice() {
    CacheLoad load = CacheCodec.decode(file(kcshareRow(6.0)));
    assertThat(load.asRead()).isEmpty();
    assertThat(load.rows()).containsOnlyKeys("mine", "theirs");
    // A plain read (a reader that never writes) keeps nothing as read.
    CacheCodec.Decoder plain = CacheCodec.decoder();
    RecordDecoder.feed(file(Json.with(kcshareRow(6.0), "future", 1)), plain);
    assertThat(plain.finish().asRead()).isEmpty();
    assertThat(plain.finish().otherMembers()).isEmpty();
  }
}
