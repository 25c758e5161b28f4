package dev.kcshare.cli;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.policy.internal.GatewaySeeding;
import dev.kcshare.core.policy.internal.GatewaySeeding.Gateway;
import dev.kcshare.core.text.Secrets;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.report.RecordViews;
import dev.kcshare.host.report.VerdictRecords;
import dev.kcshare.host.seeding.GatewayFile;
import dev.kcshare.host.seeding.SeedService;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code kcshare seed --gateway mcphub|1mcp}: writes the isolation switch of the servers kcshare
 * does not recommend sharing into that gateway's file, once per server (docs/seeding.md, Other
 * gateways).
 */
final class OtherGatewaySeed {
  /** Re-reads of a file that keeps changing under the edit before giving up. */
  private static final int ATTEMPTS = 3;

  private static final String MASK = Secrets.MASK;

  private final CliContext ctx;
  private final Gateway gateway;

  OtherGatewaySeed(CliContext ctx, Gateway gateway) {
    this.ctx = ctx;
    this.gateway = gateway;
  }

  /** The gateway's name on the command line. */
  static String label(Gateway g) {
    return g == Gateway.MCPHUB ? "mcphub" : "1mcp";
  }

  /**
   * What one run computed and did.
   *
   * @param file the gateway's file
   * @param plan the plan
   * @param noVerdict stdio entries with no verdict for their definition (isolated: both gateways
   *     share by default)
   * @param isolating for each static 1MCP server in the plan's staticShared, the template entry
   *     that would isolate it
   * @param applied --apply
   * @param fileWritten the file was replaced
   * @param markersWritten new seed markers were recorded
   */
  private record Outcome(
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

  int run(
      HostConfig host,
      RecordsDirectory dir,
      @Nullable Path explicitFile,
      boolean apply,
      boolean json)
      throws IOException, InterruptedException {
    Path file =
        explicitFile != null ? explicitFile : GatewayFile.locate(gateway, ctx.env(), ctx.cwd());
    Outcome outcome;
    {
      VerdictRecords read = CommandFacade.views(dir).readVerdictRecords();
      SeedService seeds = CommandFacade.seeds(dir);
      Map<String, ServerVerdict> verdicts = new HashMap<>();
      for (ServerVerdict v :
          RecordViews.verdicts(host.servers(), read, host.hostProfile(), host.identityKeys())) {
        verdicts.putIfAbsent(v.verdict().name(), v);
      }
      if (!apply) {
        Reading r = read(file, verdicts);
        GatewaySeeding.Plan plan = plan(r, seeds.gatewaySeeded(gateway));
        outcome = outcome(r, plan, false, false, false);
      } else {
        // The markers are kcshare's own file in the records directory: written only where nobody
        // else can write (docs/security.md).
        Outcome[] edited = new Outcome[1];
        boolean marked =
            seeds.applyGatewaySeed(
                gateway, seeded -> (edited[0] = apply(file, verdicts, seeded)).plan());
        outcome = edited[0].withMarkersWritten(marked);
      }
    }
    if (json) {
      Output.json(ctx, toJson(outcome));
    } else {
      printHuman(ctx.out(), outcome);
      ctx.out().flush();
    }
    return Main.EXIT_OK;
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
    List<GatewayFile.Parsed> entries = GatewayFile.entries(gateway, doc, ctx.host());
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

  private Map<String, Object> toJson(Outcome o) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("gateway", label(gateway));
    out.put("file", o.file().toString());
    Map<String, Object> plan = new LinkedHashMap<>();
    plan.put("write", o.plan().write());
    plan.put("markSeeded", o.plan().markSeeded());
    plan.put("keptExplicit", o.plan().keptExplicit());
    plan.put("shareRecommended", o.plan().shareRecommended());
    out.put("plan", plan);
    out.put("noVerdict", o.noVerdict());
    out.put("notStdio", o.plan().notStdio());
    if (gateway == Gateway.ONE_MCP) {
      out.put("templated", o.plan().templated());
      List<Object> shared = new ArrayList<>();
      for (Map.Entry<String, Map<String, @Nullable Object>> e : o.isolating().entrySet()) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("name", e.getKey());
        s.put("template", e.getValue());
        shared.add(s);
      }
      out.put("staticShared", shared);
    }
    out.put("applied", o.applied());
    if (o.applied()) {
      out.put("fileWritten", o.fileWritten());
      out.put("backup", o.fileWritten() ? ConfigEditor.backupFile(o.file()).toString() : null);
      out.put("markersWritten", o.markersWritten());
    }
    return out;
  }

  private void printHuman(PrintWriter out, Outcome o) {
    String file = GatewayWrites.path(o.file());
    String g = label(gateway);
    GatewaySeeding.Plan plan = o.plan();
    if (o.applied()) {
      out.printf("Seeded %s (%s)%n", file, g);
    } else {
      out.printf("Seeding plan for %s (%s; nothing written):%n", file, g);
    }
    String key =
        gateway == Gateway.MCPHUB ? "perSessionClient = true:" : "template.perClient = true:";
    out.printf("  %-42s %s%n", key, GatewayWrites.list(plan.write()));
    out.printf("  %-42s %s%n", "mark seeded:", GatewayWrites.list(plan.markSeeded()));
    if (!plan.keptExplicit().isEmpty()) {
      out.printf(
          "  %-42s %s%n",
          "kept (the entry sets it already):", GatewayWrites.list(plan.keptExplicit()));
    }
    if (!plan.shareRecommended().isEmpty()) {
      out.printf(
          "  %-42s %s%n",
          "left shared (the verdict allows sharing):", GatewayWrites.list(plan.shareRecommended()));
    }
    if (!o.noVerdict().isEmpty()) {
      out.printf(
          "  no verdict for this definition (not measured, or defined differently for kcshare;"
              + " isolated, since %s shares by default): %s%n",
          g, GatewayWrites.list(o.noVerdict()));
    }
    if (!plan.notStdio().isEmpty()) {
      out.printf(
          "  %-42s %s%n",
          "not stdio servers (never touched):", GatewayWrites.list(plan.notStdio()));
    }
    if (!plan.templated().isEmpty()) {
      out.printf(
          "  cannot be measured as written (template variables in its launch; never seeded): %s%n",
          GatewayWrites.list(plan.templated()));
    }
    for (Map.Entry<String, Map<String, @Nullable Object>> e : o.isolating().entrySet()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put(e.getKey(), e.getValue());
      String text = JsonWriter.compact(entry);
      out.printf(
          "  shared by every 1MCP client (a static server; only templates can be isolated): %s%n"
              + "    to isolate it, move it from mcpServers into mcpTemplates (clients without a"
              + " verified context, such as direct HTTP ones, then no longer get it) as (env"
              + " values shown as ***, keep your own): %s%n",
          GatewayWrites.list(List.of(e.getKey())), text.substring(1, text.length() - 1));
    }
    if (o.applied()) {
      if (o.fileWritten()) {
        out.printf(
            "  Wrote %s (previous version in %s).%n",
            file, GatewayWrites.path(ConfigEditor.backupFile(o.file())));
        out.printf(
            "  %s%n",
            gateway == Gateway.MCPHUB
                ? "mcphub reads this file when it starts and rewrites it from memory when its"
                    + " settings change: restart mcphub now so it reads the change."
                : "1MCP reloads it by itself when hot reload is on; otherwise restart it.");
      } else {
        out.printf("  %s unchanged%n", file);
      }
      out.printf(
          "  %s%n",
          o.markersWritten()
              ? "recorded " + plan.markSeeded().size() + " seed marker(s)"
              : "no new seed markers");
    } else if (!plan.isEmpty()) {
      out.printf("Run kcshare seed --gateway %s --apply to write this.%n", g);
    } else {
      out.printf("Nothing to seed.%n");
    }
  }
}
