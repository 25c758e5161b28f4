package dev.kcshare.host.prober;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The two synthetic client identities (docs/design.md#pre-flight-identities), shared with the Kiro
 * Crew gateway.
 */
enum Identity {
  A("kirocrew-preflight-a", "1.0.0"),
  B("mcp-client-b", "9.9.9");

  private final String clientName;
  private final String clientVersion;

  Identity(String clientName, String clientVersion) {
    this.clientName = clientName;
    this.clientVersion = clientVersion;
  }

  /** A fresh {@code {"name","version"}} object, members in that order. */
  Map<String, Object> clientInfo() {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("name", clientName);
    info.put("version", clientVersion);
    return info;
  }

  /** The capture file name for this identity: {@code a.json} or {@code b.json}. */
  String key() {
    return this == A ? "a" : "b";
  }
}
