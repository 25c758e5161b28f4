package dev.kcshare.host.report;

import dev.kcshare.core.cost.CostReport;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.host.records.AtomicFiles;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Verdict counts as a metrics textfile for node_exporter's textfile collector
 * (docs/design.md#export-contract, docs/fleet.md): strengths, reason codes, hazard codes and counts
 * only — never a server name, an env name or a detail, because those must not leave the host. Every
 * label value comes from a closed vocabulary ({@link Strength}, {@link ReasonCode}, {@link
 * HazardCodes#ALL}, {@link CostReport#REFERENCE_SESSIONS}), so nothing server-provided can reach
 * the file at all.
 *
 * <p>Format: the Prometheus text exposition format 0.0.4, which is what the textfile collector
 * parses. It is also valid OpenMetrics apart from the terminating {@code # EOF} line, which is
 * deliberately not written: in 0.0.4 it is just a comment, so it would buy nothing, and the
 * textfile collector does not read OpenMetrics. All series are gauges (a snapshot that can go down
 * as well as up), so no {@code _total} counter suffix. Every tier and every code is always present,
 * 0 included, so a dashboard never sees a series vanish. No sample carries a timestamp:
 * node_exporter exports the file's modification time as {@code node_textfile_mtime_seconds}, and
 * the pass file ({@link #passMetrics}) says when the pass completed as a value, {@code
 * kcshare_last_pass_timestamp_seconds}, from the command's clock.
 *
 * <p>What sharing would save ({@code kcshare_fanout_*}, {@code kcshare_sharing_given_back_*}):
 * {@link CostReport}'s totals at each of {@link CostReport#REFERENCE_SESSIONS}, labelled {@code
 * sessions}, so a panel reads "given back at 16 sessions" without arithmetic.
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
    return openMetrics(verdicts, costs, Local.NONE);
  }

  /**
   * What the host's own files say beyond the verdicts: the attempts file and the gateway's
   * settings. Names are only used to match verdicts; none reaches the file.
   *
   * @param failures for each assessed server whose latest pre-flight could not run, its number of
   *     consecutive failed pre-flights (the attempts file's {@code failures})
   * @param sharingOn the gateway's sharing switch ({@code mcp_gateway.enabled}) is on
   * @param stubSet the gateway's effective stub set
   * @param newestRefutation the newest {@code lastSeen} (epoch seconds) of the hazard ledger's
   *     records of the servers refuted now, 0 when none is refuted: it grows whenever the gateway
   *     observes a hazard on a server that ends up refuted, whatever happened to the others, so an
   *     alert on its increase sees every new refutation where the refuted count may stay the same
   */
  public record Local(
      List<Integer> failures, boolean sharingOn, Set<String> stubSet, double newestRefutation) {
    /** Nothing known: no failure, sharing off (an evidence file has no host). */
    public static final Local NONE = new Local(List.of(), false, Set.of(), 0);

    /** Copies the collections; a non-finite or negative time is 0. */
    public Local {
      failures = List.copyOf(failures);
      stubSet = Set.copyOf(stubSet);
      newestRefutation =
          Double.isFinite(newestRefutation) && newestRefutation > 0 ? newestRefutation : 0;
    }

    /** No refutation time known. */
    public Local(List<Integer> failures, boolean sharingOn, Set<String> stubSet) {
      this(failures, sharingOn, stubSet, 0);
    }
  }

  /**
   * The textfile for these verdicts, with the session-cost sums per strength, what sharing would
   * give back at each of {@link CostReport#REFERENCE_SESSIONS}, and the pre-flights that keep
   * failing.
   *
   * @param verdicts one verdict per assessed server
   * @param costs each measured server's session cost, by name (names are only used to match)
   * @param local what the host's own files say beyond the verdicts
   */
  public static String openMetrics(
      List<Verdict> verdicts, Map<String, SessionCost> costs, Local local) {
    List<Integer> failures = local.failures();
    Map<Strength, Integer> byStrength = new EnumMap<>(Strength.class);
    Map<ReasonCode, Integer> byCode = new EnumMap<>(ReasonCode.class);
    Map<String, Integer> byHazard = new LinkedHashMap<>();
    for (Strength s : Strength.values()) {
      byStrength.put(s, 0);
    }
    for (ReasonCode c : ReasonCode.values()) {
      byCode.put(c, 0);
    }
    for (String h : HazardCodes.ALL) {
      byHazard.put(h, 0);
    }
    int stub = 0;
    int share = 0;
    int shared = 0;
    for (Verdict v : verdicts) {
      shared += local.sharingOn() && local.stubSet().contains(v.name()) ? 1 : 0;
      byStrength.merge(v.strength(), 1, Integer::sum);
      EnumSet<ReasonCode> codes = EnumSet.noneOf(ReasonCode.class);
      Set<String> hazards = new HashSet<>();
      for (Reason r : v.reasons()) {
        codes.add(r.code());
        // The detail of an observed hazard is its code; only the closed vocabulary is counted.
        if (r.code() == ReasonCode.OBSERVED_HAZARD && HazardCodes.isKnown(r.detail())) {
          hazards.add(r.detail());
        }
      }
      for (ReasonCode c : codes) {
        byCode.merge(c, 1, Integer::sum);
      }
      for (String h : hazards) {
        byHazard.merge(h, 1, Integer::sum);
      }
      stub += v.recommendStub() ? 1 : 0;
      share += v.recommendShare() ? 1 : 0;
    }

    StringBuilder b = new StringBuilder(8192);
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
        "kcshare_servers_by_hazard",
        "Assessed servers for which the hazard ledger holds the hazard code (a server counts once"
            + " per code, whatever its identities).");
    for (Map.Entry<String, Integer> e : byHazard.entrySet()) {
      sample(b, "kcshare_servers_by_hazard", "code=\"" + e.getKey() + "\"", e.getValue());
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
    family(
        b,
        "kcshare_gateway_sharing_enabled",
        "1 when the gateway's sharing switch (mcp_gateway.enabled) is on, else 0.");
    sample(b, "kcshare_gateway_sharing_enabled", "", local.sharingOn() ? 1 : 0);
    family(
        b,
        "kcshare_servers_shared",
        "Assessed servers the gateway shares now: sharing is on and the server is in its"
            + " effective stub set.");
    sample(b, "kcshare_servers_shared", "", shared);
    family(
        b,
        "kcshare_newest_refutation_timestamp_seconds",
        "When the gateway last observed a hazard on a server that is refuted now, in whole seconds"
            + " since the epoch (0 when no server is refuted); it rises with every new refutation.");
    sample(
        b,
        "kcshare_newest_refutation_timestamp_seconds",
        "",
        byStrength.get(Strength.REFUTED) > 0 ? (long) Math.floor(local.newestRefutation()) : 0);
    int maxFailures = 0;
    for (int f : failures) {
      maxFailures = Math.max(maxFailures, f);
    }
    family(
        b,
        "kcshare_servers_could_not_run",
        "Assessed servers whose latest pre-flight could not run (the attempts file remembers it"
            + " under their current identity).");
    sample(b, "kcshare_servers_could_not_run", "", failures.size());
    family(
        b,
        "kcshare_preflight_consecutive_failures_max",
        "The most consecutive failed pre-flights of any one assessed server (0 when none fails).");
    sample(b, "kcshare_preflight_consecutive_failures_max", "", maxFailures);

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

    Map<Integer, CostReport.Totals> at = CostReport.atReferenceSessions(verdicts, costs);
    sessions(
        b,
        "kcshare_fanout_memory_bytes",
        "Memory the measured servers take at that many concurrent sessions today, every stdio"
            + " server running once per session (PSS where measured, else RSS).",
        at,
        t -> t.today().memoryBytes());
    sessions(
        b,
        "kcshare_fanout_processes",
        "Processes the measured servers run at that many concurrent sessions today, every stdio"
            + " server running once per session.",
        at,
        t -> t.today().processes());
    sessions(
        b,
        "kcshare_sharing_given_back_memory_bytes",
        "Memory sharing one backend of each server recommended for it would give back at that"
            + " many concurrent sessions ((sessions - 1) times their per-session memory).",
        at,
        t -> t.givenBack().memoryBytes());
    sessions(
        b,
        "kcshare_sharing_given_back_processes",
        "Processes sharing one backend of each server recommended for it would give back at that"
            + " many concurrent sessions.",
        at,
        t -> t.givenBack().processes());
    sessions(
        b,
        "kcshare_fanout_with_sharing_memory_bytes",
        "Memory the measured servers would take at that many concurrent sessions with the"
            + " recommended servers shared (fanout minus given back).",
        at,
        t -> t.withSharing().memoryBytes());
    sessions(
        b,
        "kcshare_fanout_with_sharing_processes",
        "Processes the measured servers would run at that many concurrent sessions with the"
            + " recommended servers shared.",
        at,
        t -> t.withSharing().processes());
    return b.toString();
  }

  private static void sessions(
      StringBuilder b,
      String name,
      String help,
      Map<Integer, CostReport.Totals> at,
      ToLongFunction<CostReport.Totals> figure) {
    family(b, name, help);
    for (Map.Entry<Integer, CostReport.Totals> e : at.entrySet()) {
      sample(b, name, "sessions=\"" + e.getKey() + "\"", figure.applyAsLong(e.getValue()));
    }
  }

  /**
   * What one evaluation pass did, for {@link #passMetrics}: counts only, never a name.
   *
   * @param completedAt when the pass completed, epoch seconds (the command's clock)
   * @param durationSeconds how long it took, from its start (the same clock; never negative)
   * @param due servers due in the pass
   * @param measured servers it measured (a verdict stored)
   * @param couldNotRun servers it attempted whose pre-flight could not run
   * @param skippedForBackoff servers due but skipped because their pre-flight kept failing
   */
  public record Pass(
      double completedAt,
      double durationSeconds,
      int due,
      int measured,
      int couldNotRun,
      int skippedForBackoff) {}

  /**
   * The textfile of one completed pass ({@code kcshare measure --metrics}): its own families, none
   * of {@link #openMetrics}'s, so both files can sit in one textfile directory.
   *
   * @param pass what the pass did
   */
  public static String passMetrics(Pass pass) {
    StringBuilder b = new StringBuilder(1024);
    family(
        b,
        "kcshare_last_pass_timestamp_seconds",
        "When the last kcshare evaluation pass on this host completed, in seconds since the epoch.");
    sample(b, "kcshare_last_pass_timestamp_seconds", decimal(pass.completedAt()));
    family(
        b, "kcshare_last_pass_duration_seconds", "How long the last kcshare evaluation pass took.");
    sample(b, "kcshare_last_pass_duration_seconds", decimal(Math.max(0, pass.durationSeconds())));
    family(b, "kcshare_last_pass_servers_due", "Servers due in the last evaluation pass.");
    sample(b, "kcshare_last_pass_servers_due", "", pass.due());
    family(
        b,
        "kcshare_last_pass_servers_measured",
        "Servers the last evaluation pass measured (a verdict stored).");
    sample(b, "kcshare_last_pass_servers_measured", "", pass.measured());
    family(
        b,
        "kcshare_last_pass_servers_could_not_run",
        "Servers the last evaluation pass attempted whose pre-flight could not run.");
    sample(b, "kcshare_last_pass_servers_could_not_run", "", pass.couldNotRun());
    family(
        b,
        "kcshare_last_pass_servers_skipped_for_backoff",
        "Servers due in the last evaluation pass but skipped because their pre-flight kept"
            + " failing.");
    sample(b, "kcshare_last_pass_servers_skipped_for_backoff", "", pass.skippedForBackoff());
    return b.toString();
  }

  /** Seconds with millisecond precision, never in exponent form; a non-finite value is 0. */
  private static String decimal(double seconds) {
    double v = Double.isFinite(seconds) ? seconds : 0;
    return BigDecimal.valueOf(v).setScale(3, RoundingMode.HALF_EVEN).toPlainString();
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

  private static void sample(StringBuilder b, String name, String value) {
    b.append(name).append(' ').append(value).append('\n');
  }

  /**
   * Checks that the textfile's directory exists, as {@link #write} will need: a command that runs
   * for a while before it writes (a pass) calls it first, so that a mistyped path fails at once.
   *
   * @throws NoSuchFileException when the directory does not exist
   * @throws java.nio.file.FileSystemException when it is not a directory
   */
  public static void checkDirectory(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw dir != null && Files.exists(dir)
          ? new java.nio.file.FileSystemException(dir.toString(), null, "Not a directory")
          : new NoSuchFileException(String.valueOf(dir), null, "No such directory");
    }
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
    checkDirectory(file);
    Set<PosixFilePermission> mode = AtomicFiles.modeOf(file);
    AtomicFiles.write(
        file, text.getBytes(StandardCharsets.UTF_8), mode != null ? mode : NEW_FILE_MODE);
  }
}
