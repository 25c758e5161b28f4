package dev.kcshare.core.policy;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.StoredHandshake;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Small builders shared by the policy tests. */
public final class PolicyFixtures {
  private PolicyFixtures() {}

  public static String identity(String tag) {
    return "a".repeat(64) + "\u0000" + "b".repeat(64) + "\u0000" + tag + "\u00002";
  }

  public static CacheRow row(String identity, boolean callerSensitive, String version) {
    return row(identity, callerSensitive, version, null);
  }

  public static CacheRow row(
      String identity, boolean callerSensitive, String version, @Nullable StoredHandshake hs) {
    return new CacheRow(
        true,
        callerSensitive,
        callerSensitive ? List.of("handshake_not_reproducible") : List.of(),
        1712000000.25,
        identity,
        version,
        Era.LEGACY,
        hs);
  }

  public static StoredHandshake handshake(Map<String, Object> capabilities, boolean readOnly) {
    return new StoredHandshake(
        capabilities,
        "2024-11-05",
        Map.of("name", "s"),
        readOnly ? List.of(Map.of("readOnlyHint", true)) : List.of(),
        true);
  }
}
