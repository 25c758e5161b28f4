package dev.kcshare.cli;

import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.text.ByteUnits;
import dev.kcshare.host.report.EpochSeconds;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * How commands show a server's session cost: the {@code assess} table's memory and process columns,
 * the figures of {@code assess NAME}, the {@code sessionCost} member of {@code assess --json}, and
 * the units {@code kcshare cost} prints. An unknown figure is shown as {@code -} (or {@code null}
 * in JSON), never as zero.
 */
final class SessionCostText {
  /** What an unknown figure looks like in a table. */
  static final String UNKNOWN = "-";

  private SessionCostText() {}

  /** The table's extra header cells, aligned with {@link #cells}. */
  static String headerCells() {
    return String.format("%8s  %5s", "MEMORY", "PROCS");
  }

  /** One row's memory (PSS where measured, else RSS) and process count cells. */
  static String cells(ServerVerdict row) {
    SessionCost cost = row.sessionCost().orElse(SessionCost.NONE);
    return String.format("%8s  %5s", memory(cost.memoryBytes()), count(cost.processes()));
  }

  /** {@code 84 MiB}, or {@code -}. */
  static String memory(OptionalLong bytes) {
    return bytes.isPresent() ? ByteUnits.binary(bytes.getAsLong()) : UNKNOWN;
  }

  /** A count, or {@code -}. */
  static String count(OptionalLong n) {
    return n.isPresent() ? Long.toString(n.getAsLong()) : UNKNOWN;
  }

  /** {@code 412 ms}, {@code 1.4 s}, {@code 75 s}, or {@code -}. */
  static String millis(OptionalLong ms) {
    if (ms.isEmpty()) {
      return UNKNOWN;
    }
    long v = ms.getAsLong();
    if (v < 1000) {
      return v + " ms";
    }
    if (v < 10_000) {
      return String.format(java.util.Locale.ROOT, "%.1f s", v / 1000.0);
    }
    return Math.round(v / 1000.0) + " s";
  }

  /** The detail lines of {@code assess NAME}: every figure and when it was measured. */
  static void printDetail(PrintWriter out, ServerVerdict row) {
    if (row.measuredAt().isEmpty() || row.sessionCost().isEmpty()) {
      return;
    }
    SessionCost c = row.sessionCost().get();
    out.printf("  session cost (measured %s):%n", HumanTime.format(row.measuredAt().get()));
    out.printf(
        "    memory: %s proportional (PSS), %s resident (RSS)%n",
        memory(c.pssBytes()), memory(c.rssBytes()));
    out.printf("    processes: %s%n", count(c.processes()));
    out.printf("    ready after: %s (spawn to the initialize answer)%n", millis(c.readyMillis()));
    out.printf("    CPU time: %s (user and system, spawn to the sample)%n", millis(c.cpuMillis()));
  }

  /**
   * The {@code sessionCost} member of {@code assess --json}, or null when never measured: {@code
   * rssBytes}, {@code pssBytes}, {@code processes}, {@code readyMillis}, {@code cpuMillis} (each
   * null when unknown) and {@code measuredAt} (epoch seconds).
   */
  static @Nullable Map<String, @Nullable Object> json(ServerVerdict row) {
    if (row.measuredAt().isEmpty() || row.sessionCost().isEmpty()) {
      return null;
    }
    SessionCost c = row.sessionCost().get();
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("rssBytes", boxed(c.rssBytes()));
    out.put("pssBytes", boxed(c.pssBytes()));
    out.put("processes", boxed(c.processes()));
    out.put("readyMillis", boxed(c.readyMillis()));
    out.put("cpuMillis", boxed(c.cpuMillis()));
    out.put("measuredAt", EpochSeconds.seconds(row.measuredAt().get()));
    return out;
  }

  static @Nullable Long boxed(OptionalLong v) {
    return v.isPresent() ? v.getAsLong() : null;
  }
}
