package dev.kcshare.host.evaluation;

import dev.kcshare.core.handshake.PreflightResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One server measured in a pass.
 *
 * @param name the server name
 * @param result the pre-flight result
 * @param stored whether the result was stored in the cache ({@code ran:true} only)
 * @param stderrTail the escaped stderr tail for local diagnostics; never persisted
 */
public record ServerResult(String name, PreflightResult result, boolean stored, String stderrTail) {
  /** Validates. */
  public ServerResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(stderrTail, "stderrTail");
  }

  /**
   * The JSON form {@code kcshare measure --json} prints: {@code name}, the pre-flight report
   * members ({@code ran}, {@code callerSensitive}, {@code reasons}, {@code detail}, {@code era},
   * {@code reportedVersion}) and {@code stored}.
   */
  public Map<String, Object> toJson() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", name);
    out.putAll(result.toReportJson());
    out.put("stored", stored);
    return out;
  }
}
