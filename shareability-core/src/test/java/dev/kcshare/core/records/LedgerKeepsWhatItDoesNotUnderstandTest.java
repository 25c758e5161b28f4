package dev.kcshare.core.records;

import static dev.kcshare.core.records.HazardCodes.UNROUTABLE_SERVER_REQUEST;
import static dev.kcshare.core.records.Json.arr;
import static dev.kcshare.core.records.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.json.JsonWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file for the ledger: members a newer writer
 * added to a server entry, an identity record or the top level survive a merge and a clear of
 * another server; a clear of the server itself removes them with it.
 */
final class LedgerKeepsWhatItDoesNotUnderstandTest {
  private static Map<String, Object> file() {
    return obj(
        "schema", 1,
        "servers",
            obj(
                "kept",
                obj(
                    "identities",
                    obj(
                        "id",
                        obj(
                            "codes",
                            arr(UNROUTABLE_SERVER_REQUEST),
                            "count",
                            2,
                            "lastSeen",
                            10.0,
                            "firstSeen",
                            4.0)),
                    "codes",
                    arr(UNROUTABLE_SERVER_REQUEST),
                    "count",
                    2,
                    "lastSeen",
                    10.0,
                    "note",
                    obj("by", "gateway 2", "tags", arr("a", null)))),
        "x-top", arr(1, obj("k", "v")));
  }

  /** A writer's flush of another server, as LedgerStore writes it. */
  private static Map<String, Object> flushOfAnother(Map<String, Object> file) {
    LedgerLoad onDisk = LedgerCodec.decode(file);
    HazardLedger writer = HazardLedger.of(onDisk);
    writer.record("other", UNROUTABLE_SERVER_REQUEST, "", 20.0);
    HazardLedger.FlushPlan plan = writer.mergeForFlush(onDisk);
    return LedgerCodec.encode(plan.snapshot(), onDisk.extras());
  }

  private static Object at(Map<String, Object> doc, String... path) {
    Object value = doc;
    for (String member : path) {
      value = ((Map<?, ?>) value).get(member);
    }
    return value;
  }

  @Test
  void unknownMembersAtEveryLevelSurviveAMerge() {
    Map<String, Object> written = flushOfAnother(file());
    assertThat(JsonWriter.compact(at(written, "servers", "kept", "note")))
        .isEqualTo(JsonWriter.compact(at(file(), "servers", "kept", "note")));
    assertThat(JsonWriter.compact(at(written, "servers", "kept", "identities", "id", "firstSeen")))
        .isEqualTo("4.0");
    assertThat(JsonWriter.compact(at(written, "x-top")))
        .isEqualTo(JsonWriter.compact(at(file(), "x-top")));
  }

  @Test
  void aClearKeepsOtherServersMembersAndRemovesItsOwn() {
    LedgerLoad onDisk = LedgerCodec.decode(file());
    Map<String, Object> other = LedgerCodec.encodeCleared(onDisk, "other", 30.0);
    assertThat(JsonWriter.compact(at(other, "servers", "kept", "note")))
        .isEqualTo(JsonWriter.compact(at(file(), "servers", "kept", "note")));
    assertThat(other).containsKey("x-top");
    Map<String, Object> kept = LedgerCodec.encodeCleared(onDisk, "kept", 30.0);
    assertThat((Map<?, ?>) kept.get("servers")).isEmpty();
    assertThat(kept).containsKey("x-top");
  }
}
