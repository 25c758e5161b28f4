package dev.kcshare.cli;

import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.policy.host.Backoff;
import dev.kcshare.core.records.host.AttemptRecord;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.text.HumanDuration;
import dev.kcshare.host.evaluation.ServerResult;
import dev.kcshare.host.prober.LaunchSummary;
import dev.kcshare.host.prober.PhaseTimes;
import dev.kcshare.host.prober.ProbeAttempt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The human lines {@code kcshare measure} prints per server; every value is escaped. */
final class MeasureLines {
  private MeasureLines() {}

  /**
   * The result line(s) of one server and, at {@code -v}, how it was started and how each of its
   * processes went.
   */
  static List<String> of(ServerResult r, boolean verbose) {
    List<String> lines = new ArrayList<>();
    PreflightResult p = r.result();
    String name = Escaper.esc(r.name(), Escaper.SHORT_LIMIT);
    if (!p.ran()) {
      lines.add(name + ": could not run: " + Escaper.esc(p.detail(), Escaper.LONG_LIMIT));
      if (!r.stderrTail().isEmpty()) {
        lines.add("  stderr: " + r.stderrTail());
      }
      AttemptRecord last = r.lastAttempt();
      if (last != null && last.failures() >= Backoff.FREE_FAILURES) {
        lines.add(
            "  "
                + last.failures()
                + " failures in a row: `measure --all` skips it for "
                + HumanDuration.span(Backoff.delaySeconds(last.failures()))
                + " (`kcshare measure "
                + name
                + "` or --retry-failed tries it at once)");
      }
    } else {
      lines.add(
          name
              + (p.callerSensitive()
                  ? ": handshake differs between callers ("
                      + Escaper.esc(p.detail(), Escaper.LONG_LIMIT)
                      + ")"
                  : ": handshake reproducible")
              + (r.stored() ? ", stored" : ""));
    }
    if (verbose) {
      lines.addAll(details(r));
    }
    return lines;
  }

  /** {@code -v}: command line (env names only), working directory, and each process's phases. */
  static List<String> details(ServerResult r) {
    List<String> lines = new ArrayList<>();
    LaunchSummary launch = r.launch();
    if (launch != null) {
      lines.add("  command: " + commandLine(launch.commandLine()));
      lines.add(
          "  env: "
              + (launch.declaredEnvNames().isEmpty()
                  ? "none declared (kcshare's own environment)"
                  : String.join(
                          ", ",
                          launch.declaredEnvNames().stream()
                              .map(n -> Escaper.esc(n, Escaper.SHORT_LIMIT))
                              .toList())
                      + " declared (values not shown), over kcshare's own environment"));
      lines.add("  working directory: " + Escaper.esc(launch.directory(), Escaper.LONG_LIMIT));
    }
    for (ProbeAttempt a : r.attempts()) {
      StringBuilder b = new StringBuilder("  ").append(a.label()).append(": ");
      PhaseTimes t = a.phases();
      b.append(t == null ? "not spawned" : t.describe(a.era()));
      if (a.exitStatus() != null) {
        b.append("; ").append(a.exitStatus());
      }
      b.append("; ").append(outcome(a));
      lines.add(b.toString());
    }
    return lines;
  }

  private static String outcome(ProbeAttempt a) {
    return switch (a.status()) {
      case ANSWERED -> "answered";
      case MODERN_DETECTED -> "modern server detected";
      case ABANDONED -> "abandoned";
      case FAILED ->
          "failed: " + Escaper.esc(Objects.requireNonNullElse(a.failure(), ""), Escaper.LONG_LIMIT);
    };
  }

  /** Arguments escaped, and quoted when they hold a space or are empty. */
  static String commandLine(List<String> words) {
    List<String> out = new ArrayList<>(words.size());
    for (String w : words) {
      String e = Escaper.esc(w, Escaper.LONG_LIMIT);
      out.add(e.isEmpty() || e.contains(" ") ? "\"" + e + "\"" : e);
    }
    return String.join(" ", out);
  }

  /**
   * The one line that ends every pass, so that a cron log shows a pass ran even when it measured
   * nothing: how many were measured of those due, could not run, were retried alone after timing
   * out, and were skipped because their pre-flight kept failing; {@code Nothing due} when no server
   * was.
   */
  static String summary(
      int measured, int total, int done, int retried, Map<String, Double> skipped) {
    StringBuilder line = new StringBuilder();
    if (total == 0) {
      line.append("Nothing due");
    } else {
      line.append("Measured ").append(measured).append(" of ").append(total).append(" server(s)");
      if (done > measured) {
        line.append("; ").append(done - measured).append(" could not run (not stored)");
      }
    }
    if (retried > 0) {
      line.append("; ").append(retried).append(" retried alone after timing out");
    }
    if (!skipped.isEmpty()) {
      List<String> names = new ArrayList<>();
      for (String n : skipped.keySet()) {
        names.add(Escaper.esc(n, Escaper.SHORT_LIMIT));
      }
      String shown =
          names.size() <= 5
              ? String.join(", ", names)
              : String.join(", ", names.subList(0, 5)) + " and " + (names.size() - 5) + " more";
      line.append(". Skipped ")
          .append(skipped.size())
          .append(" server(s) whose pre-flight kept failing (")
          .append(shown)
          .append("); --retry-failed tries them now");
    }
    return line.append('.').toString();
  }
}
