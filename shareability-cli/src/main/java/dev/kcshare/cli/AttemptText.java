package dev.kcshare.cli;

import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.policy.internal.Backoff;
import dev.kcshare.core.policy.internal.FailureAdvice;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.text.HumanDuration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How {@code kcshare assess} shows a server's last pre-flight that could not run (from {@code
 * kcshare-attempts.json}): in the table, in the detail of one server, and in JSON. Only an attempt
 * under the server's current execution identity is shown: an edited definition has not failed yet.
 */
final class AttemptText {
  private AttemptText() {}

  /** The failed pre-flight of the row's server ({@code RecordViews.failedPreflights}), or null. */
  static @Nullable AttemptRecord of(Map<String, AttemptRecord> failed, ServerVerdict row) {
    return failed.get(row.name());
  }

  /** The table cell in place of a bare {@code not_probed}: {@code could not run 3h ago}. */
  static String cell(AttemptRecord a, double now) {
    return "could not run " + HumanDuration.ago(a.at(), now);
  }

  /** The lines of {@code assess NAME}: when, what, the stderr tail, the advice, the next try. */
  static List<String> detail(String server, AttemptRecord a, double now) {
    List<String> lines = new ArrayList<>();
    String name = Escaper.esc(server, Escaper.SHORT_LIMIT);
    lines.add(
        "  last attempt: could not run "
            + HumanDuration.ago(a.at(), now)
            + " ("
            + HumanTime.format(a.at())
            + ")"
            + (a.failures() > 1 ? ", " + a.failures() + " failures in a row" : ""));
    lines.add("    detail: " + Escaper.esc(a.detail(), Escaper.LONG_LIMIT));
    if (a.exitStatus() != null) {
      lines.add("    exit status: " + a.exitStatus());
    }
    if (!a.stderrTail().isEmpty()) {
      lines.add("    stderr: " + a.stderrTail());
    }
    lines.add(
        "    advice: " + FailureAdvice.of(a.detail(), a.exitStatus(), a.stderrTail()).text(server));
    if (Backoff.holdsBack(a, a.identity(), now)) {
      lines.add(
          "    next try: `kcshare measure --all` skips it until "
              + HumanTime.format(Backoff.retryAt(a))
              + "; `kcshare measure "
              + name
              + "` tries it now");
    }
    return lines;
  }

  /**
   * {@code {"at", "detail", "exitStatus", "stderrTail", "failures"}}; the tail is stored escaped
   * for terminals and carried here as the text itself, escaped once by JSON.
   */
  static Map<String, Object> json(AttemptRecord a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("at", a.at());
    m.put("detail", a.detail());
    m.put("exitStatus", a.exitStatus());
    m.put("stderrTail", Escaper.unescape(a.stderrTail()));
    m.put("failures", a.failures());
    return m;
  }
}
