package dev.kcshare.host.evaluation;

import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.records.host.AttemptRecord;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.prober.LaunchSummary;
import dev.kcshare.host.prober.ProbeAttempt;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One server measured in a pass.
 *
 * @param name the server name
 * @param result the pre-flight result
 * @param stored whether the result was stored in the cache ({@code ran:true} only)
 * @param stderrTail the escaped stderr tail of the failing (or last) process, for local diagnostics
 * @param exitStatus how that process ended ({@code exit 1}, {@code signal 9 (SIGKILL)}), or null
 *     when nothing was spawned or it is unknown
 * @param attempts every process the pre-flight spawned, with its exit status and phase times
 * @param launch how the server was started, or null when it was never spawned
 * @param lastAttempt when the pre-flight could not run, the attempt now remembered for the server
 *     (with its count of consecutive failures); null when it ran or was refused (disabled, no
 *     command)
 */
public record ServerResult(
    String name,
    PreflightResult result,
    boolean stored,
    String stderrTail,
    @Nullable String exitStatus,
    List<ProbeAttempt> attempts,
    @Nullable LaunchSummary launch,
    @Nullable AttemptRecord lastAttempt) {
  /** Validates. */
  public ServerResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(stderrTail, "stderrTail");
    attempts = List.copyOf(attempts);
  }

  /** A result without process diagnostics. */
  public ServerResult(String name, PreflightResult result, boolean stored, String stderrTail) {
    this(name, result, stored, stderrTail, null, List.of(), null, null);
  }

  /**
   * The JSON form {@code kcshare measure --json} prints: {@code name}, the pre-flight report
   * members ({@code ran}, {@code callerSensitive}, {@code reasons}, {@code detail}, {@code era},
   * {@code reportedVersion}) and {@code stored}; for a server that could not run also {@code
   * stderrTail} (the text itself, escaped only by JSON; {@code ""} when none) and {@code
   * exitStatus} (null when unknown).
   */
  public Map<String, Object> toJson() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", name);
    out.putAll(result.toReportJson());
    out.put("stored", stored);
    if (!result.ran()) {
      out.put("stderrTail", Escaper.unescape(stderrTail));
      out.put("exitStatus", exitStatus);
    }
    return out;
  }
}
