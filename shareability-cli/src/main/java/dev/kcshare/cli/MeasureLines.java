package dev.kcshare.cli;

import dev.kcshare.api.PassResult;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.policy.internal.Backoff;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.text.HumanDuration;
import dev.kcshare.host.prober.PhaseTimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The human lines {@code kcshare measure} prints per server; every value is escaped. */
final class MeasureLines {
  private MeasureLines() {}

  /**
   * The result line(s) of one server and, at {@code -v}, how it was started and how each of its
   * processes went.
   */
  static List<String> of(PassResult.Measured r, boolean verbose) {
    List<String> lines = new ArrayList<>();
    PreflightResult p = r.result();
    String name = Escaper.esc(r.name(), Escaper.SHORT_LIMIT);
    if (!p.ran()) {
      lines.add(name + ": could not run: " + Escaper.esc(p.detail(), Escaper.LONG_LIMIT));
      if (!r.stderrTail().isEmpty()) {
        lines.add("  stderr: " + r.stderrTail());
      }
      int failures = r.failuresInARow();
      if (failures >= Backoff.FREE_FAILURES) {
        lines.add(
            "  "
                + failures
                + " failures in a row: `measure --all` skips it for "
                + HumanDuration.span(Backoff.delaySeconds(failures))
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
  static List<String> details(PassResult.Measured r) {
    List<String> lines = new ArrayList<>();
    PassResult.Launch launch = r.launch();
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
    for (PassResult.Spawn a : r.processes()) {
      StringBuilder b = new StringBuilder("  ").append(a.label()).append(": ");
      PassResult.Phases t = a.phases();
      b.append(t == null ? "not spawned" : phases(t).describe(a.era()));
      if (a.exitStatus() != null) {
        b.append("; ").append(a.exitStatus());
      }
      b.append("; ").append(outcome(a));
      lines.add(b.toString());
    }
    return lines;
  }

  /** The phase times as the prober describes them. */
  private static PhaseTimes phases(PassResult.Phases t) {
    return new PhaseTimes(
        t.spawn().toMillis(), millis(t.answer()), millis(t.toolsList()), millis(t.exit()));
  }

  private static @Nullable Long millis(@Nullable Duration d) {
    return d == null ? null : d.toMillis();
  }

  /**
   * The JSON form {@code kcshare measure --json} prints of one server: {@code name}, the pre-flight
   * report members ({@code ran}, {@code callerSensitive}, {@code reasons}, {@code detail}, {@code
   * era}, {@code reportedVersion}) and {@code stored}; for a server that could not run also {@code
   * stderrTail} (the text itself, escaped only by JSON; {@code ""} when none) and {@code
   * exitStatus} (null when unknown).
   */
  static Map<String, @Nullable Object> json(PassResult.Measured r) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("name", r.name());
    out.putAll(r.result().toReportJson());
    out.put("stored", r.stored());
    if (!r.result().ran()) {
      out.put("stderrTail", Escaper.unescape(r.stderrTail()));
      out.put("exitStatus", r.exitStatus());
    }
    return out;
  }

  private static String outcome(PassResult.Spawn a) {
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
  static String summary(int measured, int total, int done, int retried, Map<String, ?> skipped) {
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
