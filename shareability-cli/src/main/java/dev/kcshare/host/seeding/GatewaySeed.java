package dev.kcshare.host.seeding;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.policy.internal.GatewaySeeding;
import dev.kcshare.core.policy.internal.GatewaySeeding.Gateway;
import dev.kcshare.core.text.Secrets;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.host.HostContext;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.report.RecordViews;
import dev.kcshare.host.report.VerdictRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Seeding another gateway's file (mcphub's {@code perSessionClient}, 1MCP's {@code
 * template.perClient}): the isolation switch of each server kcshare does not recommend sharing is
 * written once, and the servers seeded are recorded in a markers file in the records directory
 * (docs/seeding.md, Other gateways). The {@code kcshare seed --gateway} command prints what it
 * returns. Blocking: file I/O.
 */
public final class GatewaySeed {
  /** Re-reads of a file that keeps changing under the edit before giving up. */
  private static final int ATTEMPTS = 3;

  private static final String MASK = Secrets.MASK;

  private final Gateway gateway;
  private final HostContext host;

  /**
   * Seeding of one gateway's file.
   *
   * @param gateway the gateway
   * @param host where relative paths in the file resolve, and the environment its variables read
   */
  public GatewaySeed(Gateway gateway, HostContext host) {
    this.gateway = Objects.requireNonNull(gateway, "gateway");
    this.host = Objects.requireNonNull(host, "host");
  }

  /**
   * What one run computed and did.
   *
   * @param file the gateway's file
   * @param plan the plan
   * @param noVerdict stdio entries with no verdict for their definition (isolated: both gateways
   *     share by default)
   * @param isolating for each static 1MCP server in the plan's staticShared, the template entry
   *     that would isolate it, its secrets masked
   * @param applied whether the plan was applied
   * @param fileWritten the file was replaced
   * @param markersWritten new seed markers were recorded
   */
  public record Outcome(
      Path file,
      GatewaySeeding.Plan plan,
      List<String> noVerdict,
      Map<String, Map<String, @Nullable Object>> isolating,
      boolean applied,
      boolean fileWritten,
      boolean markersWritten) {
    Outcome withMarkersWritten(boolean written) {
      return new Outcome(file, plan, noVerdict, isolating, applied, fileWritten, written);
    }
  }

  /** What the file and the verdicts give: the entries, and which recommend sharing. */
  private record Reading(
      ConfigEditor.Document doc,
      List<GatewayFile.Parsed> entries,
      Set<String> share,
      List<String> noVerdict) {}

  /**
   * Plans, or plans and applies, the seed of {@code file} from the verdicts of {@code servers} over
   * the records as read now. Applying writes the file (its previous version kept as {@code .bak})
   * and then the markers, under the markers file's lock.
   *
   * @param seeds the seeding service of the records directory
   * @param views the record views of the same directory
   * @param file the gateway's file
   * @param servers the host's configured servers
   * @param profile the host profile in force
   * @param identityKeys the resolved identity keys
   * @param apply whether to write
   * @return what was planned and done
   * @throws IOException if the file or the records cannot be read or written
   * @throws InterruptedException if interrupted while waiting for the markers lock
   */
  public Outcome run(
      SeedService seeds,
      RecordViews views,
      Path file,
      List<ConfiguredServer> servers,
      HostProfile profile,
      Set<String> identityKeys,
      boolean apply)
      throws IOException, InterruptedException {
    VerdictRecords read = views.readVerdictRecords();
    Map<String, ServerVerdict> verdicts = new HashMap<>();
    for (ServerVerdict v : RecordViews.verdicts(servers, read, profile, identityKeys)) {
      verdicts.putIfAbsent(v.verdict().name(), v);
    }
    if (!apply) {
      Reading r = read(file, verdicts);
      return outcome(r, plan(r, seeds.gatewaySeeded(gateway)), false, false, false);
    }
    // The markers are kcshare's own file in the records directory: written only where nobody
    // else can write (docs/security.md).
    Outcome[] edited = new Outcome[1];
    boolean marked =
        seeds.applyGatewaySeed(
            gateway, seeded -> (edited[0] = apply(file, verdicts, seeded)).plan());
    return edited[0].withMarkersWritten(marked);
  }

  /**
   * Plans from the file as read, builds the edit, and re-reads the file just before replacing it:
   * when it changed meanwhile (neither gateway offers a lock to take), the plan is made again from
   * the new content.
   */
  private Outcome apply(Path file, Map<String, ServerVerdict> verdicts, Set<String> seeded)
      throws IOException {
    for (int attempt = 1; ; attempt++) {
      Reading r = read(file, verdicts);
      GatewaySeeding.Plan plan = plan(r, seeded);
      Map<String, GatewaySeeding.Entry> byName = new HashMap<>();
      for (GatewayFile.Parsed p : r.entries()) {
        byName.put(p.entry().name(), p.entry());
      }
      ConfigEditor.Document next = r.doc();
      for (String name : plan.write()) {
        next =
            ConfigEditor.withMemberAdded(
                next,
                GatewayFile.switchPath(gateway, byName.get(name)),
                GatewayFile.switchKey(gateway),
                true);
      }
      boolean written = false;
      if (next != r.doc()) {
        ConfigEditor.Document now = ConfigEditor.readDocument(file);
        if (!Arrays.equals(now.bytes(), r.doc().bytes())) {
          if (attempt >= ATTEMPTS) {
            throw new IllegalStateException(
                file + " kept changing while kcshare edited it; not written (run it again)");
          }
          continue;
        }
        ConfigEditor.replace(r.doc(), next);
        written = true;
      }
      return outcome(r, plan, true, written, false); // the markers are recorded after the edit
    }
  }

  private Reading read(Path file, Map<String, ServerVerdict> verdicts) throws IOException {
    ConfigEditor.Document doc = ConfigEditor.readDocument(file);
    List<GatewayFile.Parsed> entries = GatewayFile.entries(gateway, doc, host);
    Set<String> share = new HashSet<>();
    List<String> noVerdict = new ArrayList<>();
    for (GatewayFile.Parsed p : entries) {
      if (!p.entry().stdio()) {
        continue;
      }
      ServerVerdict v = verdicts.get(p.entry().name());
      if (v == null
          || v.verdict().strength() == Strength.UNKNOWN
          || !sameLaunch(v.server().first().definition(), p)) {
        if (!(p.entry().kind() == GatewaySeeding.Kind.TEMPLATE && p.entry().templated())) {
          noVerdict.add(p.entry().name());
        }
      } else if (v.verdict().recommendShare()) {
        share.add(p.entry().name());
      }
    }
    noVerdict.sort(CodePoints.ORDER);
    return new Reading(doc, entries, share, noVerdict);
  }

  /** A verdict counts for an entry only when it was made for the same command and arguments. */
  private static boolean sameLaunch(ServerDefinition d, GatewayFile.Parsed p) {
    return d.command() != null && d.command().equals(p.command()) && d.args().equals(p.args());
  }

  private GatewaySeeding.Plan plan(Reading r, Set<String> seeded) {
    List<GatewaySeeding.Entry> entries = new ArrayList<>();
    for (GatewayFile.Parsed p : r.entries()) {
      entries.add(p.entry());
    }
    return GatewaySeeding.plan(gateway, entries, seeded, r.share()::contains);
  }

  private Outcome outcome(
      Reading r, GatewaySeeding.Plan plan, boolean applied, boolean written, boolean marked) {
    Map<String, Map<String, @Nullable Object>> isolating = new LinkedHashMap<>();
    for (String name : plan.staticShared()) {
      for (GatewayFile.Parsed p : r.entries()) {
        if (p.entry().name().equals(name)) {
          isolating.put(name, masked(GatewayFile.isolatingTemplate(p)));
        }
      }
    }
    return new Outcome(r.doc().file(), plan, r.noVerdict(), isolating, applied, written, marked);
  }

  /**
   * The entry as kcshare shows it (docs/config.md#what-kcshare-masks): each env value of 4
   * characters or more as {@code ***}, in an object or in a list of {@code KEY=VALUE} strings, and
   * the arguments and URL masked by the same rule as every definition (the operator keeps the
   * values of the entry as it is).
   */
  private static Map<String, @Nullable Object> masked(Map<String, @Nullable Object> entry) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>(entry);
    Map<String, String> values = new LinkedHashMap<>();
    if (out.get("env") instanceof Map<?, ?> env) {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : env.entrySet()) {
        Object v = e.getValue();
        if (v instanceof String s) {
          values.put(String.valueOf(e.getKey()), s);
        }
        m.put(String.valueOf(e.getKey()), v instanceof String s && s.length() >= 4 ? MASK : v);
      }
      out.put("env", m);
    } else if (out.get("env") instanceof List<?> env) {
      List<@Nullable Object> m = new ArrayList<>();
      for (Object item : env) {
        if (item instanceof String s && s.indexOf('=') >= 0) {
          String value = s.substring(s.indexOf('=') + 1);
          values.put(s.substring(0, s.indexOf('=')), value);
          m.add(value.length() >= 4 ? s.substring(0, s.indexOf('=') + 1) + MASK : s);
        } else {
          m.add(item);
        }
      }
      out.put("env", m);
    }
    List<String> args = new ArrayList<>();
    if (out.get("args") instanceof List<?> list) {
      for (Object a : list) {
        args.add(String.valueOf(a));
      }
    }
    String url = out.get("url") instanceof String u ? u : null;
    Secrets secrets = Secrets.of(values, args, url);
    if (out.get("args") instanceof List<?>) {
      out.put("args", secrets.maskArgs(args));
    }
    if (url != null) {
      out.put("url", secrets.maskUrl(url));
    }
    return out;
  }
}
