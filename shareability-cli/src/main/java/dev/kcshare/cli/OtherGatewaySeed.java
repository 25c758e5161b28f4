package dev.kcshare.cli;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.policy.internal.GatewaySeeding;
import dev.kcshare.core.policy.internal.GatewaySeeding.Gateway;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.records.RecordsDirectory;
import dev.kcshare.host.seeding.GatewayFile;
import dev.kcshare.host.seeding.GatewaySeed;
import dev.kcshare.host.seeding.GatewaySeed.Outcome;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code kcshare seed --gateway mcphub|1mcp}: prints what {@link GatewaySeed} planned or wrote in
 * that gateway's file (docs/seeding.md, Other gateways).
 */
final class OtherGatewaySeed {
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

  int run(
      HostConfig host,
      RecordsDirectory dir,
      @Nullable Path explicitFile,
      boolean apply,
      boolean json)
      throws IOException, InterruptedException {
    Path file =
        explicitFile != null ? explicitFile : GatewayFile.locate(gateway, ctx.env(), ctx.cwd());
    Outcome outcome =
        new GatewaySeed(gateway, ctx.host())
            .run(
                CommandFacade.seeds(dir),
                CommandFacade.views(dir),
                file,
                host.servers(),
                host.hostProfile(),
                host.identityKeys(),
                apply);
    if (json) {
      Output.json(ctx, toJson(outcome));
    } else {
      printHuman(ctx.out(), outcome);
      ctx.out().flush();
    }
    return Main.EXIT_OK;
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
