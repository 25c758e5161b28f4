package dev.kcshare.host.report;

import dev.kcshare.core.cost.CostReport;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.host.records.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Verdict counts as a metrics textfile for node_exporter's textfile collector
 * (docs/design.md#export-contract, docs/design.md#export-contract): strengths, reason codes and
 * recommendation counts only — never a server name, an env name or a detail, because those must not
 * leave the host. Every label value comes from a closed vocabulary ({@link Strength}, {@link
 * ReasonCode}), so nothing server-provided can reach the file at all.
 *
 * <p>Format: the Prometheus text exposition format 0.0.4, which is what the textfile collector
 * parses. It is also valid OpenMetrics apart from the terminating {@code # EOF} line, which is
 * deliberately not written: in 0.0.4 it is just a comment, so it would buy nothing, and the
 * textfile collector does not read OpenMetrics. All series are gauges (a snapshot that can go down
 * as well as up), so no {@code _total} counter suffix. Every tier and every code is always present,
 * 0 included, so a dashboard never sees a series vanish. No timestamp is written: node_exporter
 * exports the file's modification time as {@code node_textfile_mtime_seconds}.
 *
 * <p>Session cost ({@code kcshare_session_*}): what one session's copy of the assessed servers
 * takes, summed per strength tier, memory as PSS where measured and RSS otherwise ({@link
 * SessionCost#memoryBytes()}); servers never measured are not in the sums, and {@code
 * kcshare_servers_without_session_cost} counts them, so a 0 is never mistaken for "free".
 */
public final class Metrics {
  /** Readable by node_exporter, which usually runs as its own user; the file holds no secret. */
  private static final Set<PosixFilePermission> NEW_FILE_MODE =
      PosixFilePermissions.fromString("rw-r--r--");

  private Metrics() {}

  /**
   * The textfile for these verdicts.
   *
   * @param verdicts one verdict per assessed server
   */
  public static String openMetrics(List<Verdict> verdicts) {
    return openMetrics(verdicts, Map.of());
  }

  /**
   * The textfile for these verdicts, with the session-cost sums per strength.
   *
   * @param verdicts one verdict per assessed server
   * @param costs each measured server's session cost, by name (names are only used to match)
   */
  public static String openMetrics(List<Verdict> verdicts, Map<String, SessionCost> costs) {
    Map<Strength, Integer> byStrength = new EnumMap<>(Strength.class);
    Map<ReasonCode, Integer> byCode = new EnumMap<>(ReasonCode.class);
    for (Strength s : Strength.values()) {
      byStrength.put(s, 0);
    }
    for (ReasonCode c : ReasonCode.values()) {
      byCode.put(c, 0);
    }
    int stub = 0;
    int share = 0;
    for (Verdict v : verdicts) {
      byStrength.merge(v.strength(), 1, Integer::sum);
      EnumSet<ReasonCode> codes = EnumSet.noneOf(ReasonCode.class);
      for (Reason r : v.reasons()) {
        codes.add(r.code());
      }
      for (ReasonCode c : codes) {
        byCode.merge(c, 1, Integer::sum);
      }
      stub += v.recommendStub() ? 1 : 0;
      share += v.recommendShare() ? 1 : 0;
    }

    StringBuilder b = new StringBuilder(4096);
    family(
        b,
        "kcshare_servers",
        "Configured MCP servers assessed by kcshare (each name once, whatever its definitions).");
    sample(b, "kcshare_servers", "", verdicts.size());
    family(b, "kcshare_servers_by_strength", "Assessed servers by verdict strength tier.");
    for (Map.Entry<Strength, Integer> e : byStrength.entrySet()) {
      sample(
          b, "kcshare_servers_by_strength", "strength=\"" + e.getKey().json() + "\"", e.getValue());
    }
    family(
        b,
        "kcshare_servers_by_reason",
        "Assessed servers whose verdict carries the reason code (a server counts once per code).");
    for (Map.Entry<ReasonCode, Integer> e : byCode.entrySet()) {
      sample(b, "kcshare_servers_by_reason", "code=\"" + e.getKey().code() + "\"", e.getValue());
    }
    family(
        b,
        "kcshare_servers_recommend_stub",
        "Assessed servers whose verdict recommends a per-session stub.");
    sample(b, "kcshare_servers_recommend_stub", "", stub);
    family(
        b,
        "kcshare_servers_recommend_share",
        "Assessed servers whose verdict recommends sharing one backend across sessions.");
    sample(b, "kcshare_servers_recommend_share", "", share);

    Map<Strength, CostReport.Tier> tiers = CostReport.of(verdicts, costs, 1).perStrength();
    family(
        b,
        "kcshare_session_memory_bytes",
        "Memory one session's copy of the assessed servers takes, by verdict strength (PSS where"
            + " measured, else RSS; servers never measured are not counted).");
    for (Map.Entry<Strength, CostReport.Tier> e : tiers.entrySet()) {
      sample(
          b,
          "kcshare_session_memory_bytes",
          "strength=\"" + e.getKey().json() + "\"",
          e.getValue().perSession().memoryBytes());
    }
    family(
        b,
        "kcshare_session_processes",
        "Processes one session's copy of the assessed servers runs, by verdict strength (servers"
            + " never measured are not counted).");
    for (Map.Entry<Strength, CostReport.Tier> e : tiers.entrySet()) {
      sample(
          b,
          "kcshare_session_processes",
          "strength=\"" + e.getKey().json() + "\"",
          e.getValue().perSession().processes());
    }
    family(
        b,
        "kcshare_servers_without_session_cost",
        "Assessed servers with a local process whose session cost was never measured, by verdict"
            + " strength.");
    for (Map.Entry<Strength, CostReport.Tier> e : tiers.entrySet()) {
      sample(
          b,
          "kcshare_servers_without_session_cost",
          "strength=\"" + e.getKey().json() + "\"",
          e.getValue().missing());
    }
    return b.toString();
  }

  private static void family(StringBuilder b, String name, String help) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(" gauge\n");
  }

  private static void sample(StringBuilder b, String name, String labels, long value) {
    b.append(name);
    if (!labels.isEmpty()) {
      b.append('{').append(labels).append('}');
    }
    b.append(' ').append(value).append('\n');
  }

  /**
   * Writes the textfile atomically: a temporary file in the same directory (named {@code .*.tmp},
   * which the collector's {@code *.prom} glob never matches), then a rename, so node_exporter never
   * reads a half-written file. An existing file keeps its mode; a new one is 0644 so that
   * node_exporter, usually another user, can read it. The directory must exist: a collector
   * directory kcshare created itself (0700) would be unreadable to node_exporter.
   *
   * @throws NoSuchFileException when the directory does not exist
   */
  public static void write(Path file, String text) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw dir != null && Files.exists(dir)
          ? new java.nio.file.FileSystemException(dir.toString(), null, "Not a directory")
          : new NoSuchFileException(String.valueOf(dir), null, "No such directory");
    }
    Set<PosixFilePermission> mode = AtomicFiles.modeOf(file);
    AtomicFiles.write(
        file, text.getBytes(StandardCharsets.UTF_8), mode != null ? mode : NEW_FILE_MODE);
  }
}
