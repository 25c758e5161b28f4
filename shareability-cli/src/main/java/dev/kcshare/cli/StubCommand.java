package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.GatewaySettings;
import dev.kcshare.host.config.GatewaySources;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.records.RecordsDirectory;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcshare stub}: sets {@code stub_overrides[name] = true}. */
@Command(
    name = "stub",
    mixinStandardHelpOptions = true,
    description = {
      "Stubs the named servers: writes stub_overrides[name] = true in the Kiro Crew"
          + " configuration (only that member changes; the previous file is kept as"
          + " config.json.bak).",
      "Every name must be a configured server (else exit 2 and nothing is written). Only servers"
          + " the Kiro Crew gateway fronts (defined in ~/.kiro/settings/mcp.json or"
          + " ~/.kiro/agents/*.json) are stubbed; others are skipped as not_served.",
      "Without --resolve-eligibility the served names given are written. With it, each name is"
          + " checked under the config lock against the configuration and records as they are"
          + " at that moment, and only eligible names are written: defined in a loaded"
          + " configuration (else unknown), a stdio server the host profile lets be stubbed"
          + " (else cannot_stub), when sharing is on no declared env variable the gateway would"
          + " withhold from a shared backend (else pooling_blocked_by_env), and a verdict that"
          + " recommends sharing when sharing is on, a stub when it is off (else"
          + " evidence_insufficient). When nothing is eligible the file is not touched.",
      "--json prints {\"stubbed\": [...], \"skipped\": [{\"name\", \"reason\"}], \"sharingOn\","
          + " \"written\"}.",
      ""
    })
final class StubCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Mixin ConfigOptions config = new ConfigOptions();

  @Mixin RecordsOptions records = new RecordsOptions();

  @Parameters(
      arity = "1..*",
      paramLabel = "NAME",
      description = "Configured server names.",
      completionCandidates = ServerNames.class)
  List<String> names = new ArrayList<>();

  @Option(
      names = "--resolve-eligibility",
      description = "Write only the names whose evidence allows it (see above).")
  boolean resolveEligibility;

  @Option(names = "--json", description = "Machine-readable output.")
  boolean json;

  StubCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    List<String> requested = GatewayWrites.names(names);
    HostConfig host = config.load(ctx);
    GatewayWrites.requireKnown(host, null, requested);
    GatewaySources sources = GatewaySources.of(ctx.env());
    Path file = host.gatewayConfigFile(ctx.host());
    Eligibility.Result result;
    List<Skipped> skipped = new ArrayList<>();
    boolean written;
    Path edited;
    ConfigEditor.Before before;
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      edited = editor.file();
      before = editor.before();
      GatewaySettings settings = editor.settings();
      // With eligibility, every input is read under the lock: the section (above), the
      // definitions, the records.
      HostConfig locked = resolveEligibility ? config.load(ctx).requireValid() : host;
      Map<String, ConfiguredServer> notServed = new LinkedHashMap<>();
      List<String> candidates = new ArrayList<>();
      for (String name : requested) {
        ConfiguredServer s = locked.serverNamed(name);
        if (s != null && !sources.serves(s)) {
          notServed.put(name, s);
        } else {
          candidates.add(name);
        }
      }
      if (resolveEligibility) {
        RecordsDirectory dir = records.resolveForReading(ctx);
        Map<String, ServerFacts> servers = new HashMap<>();
        for (ConfiguredServer s : locked.servers()) {
          servers.put(s.name(), s.facts());
        }
        Eligibility.Settings eligibility =
            new Eligibility.Settings(
                settings.sharingOn(),
                settings.forwardsDeclaredEnv(),
                settings.identityKeys(),
                locked.hostProfile());
        // reads the records once
        result = CommandFacade.views(dir).eligibility(candidates, eligibility, servers);
      } else {
        result = new Eligibility.Result(candidates, List.of(), settings.sharingOn());
      }
      for (String name : requested) {
        ConfiguredServer s = notServed.get(name);
        if (s != null) {
          skipped.add(new Skipped(name, NOT_SERVED, notServed(s)));
        }
        for (Eligibility.Skip k : result.skipped()) {
          if (k.name().equals(name)) {
            skipped.add(
                new Skipped(name, k.reason().code(), explain(k.reason(), result.sharingOn())));
          }
        }
      }
      written = false;
      if (!result.stubbed().isEmpty()) {
        Map<String, @Nullable Object> section = editor.section();
        if (Seeding.setOverrides(section, result.stubbed(), true)) {
          written = editor.writeStubOverrides(Seeding.validOverrides(section));
        }
      }
    }
    if (json) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("stubbed", result.stubbed());
      List<Object> skips = new ArrayList<>();
      for (Skipped s : skipped) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name());
        m.put("reason", s.code());
        skips.add(m);
      }
      out.put("skipped", skips);
      out.put("sharingOn", result.sharingOn());
      out.put("written", written);
      Output.json(ctx, out);
    } else {
      PrintWriter out = ctx.out();
      for (String name : result.stubbed()) {
        out.printf("stubbed %s%n", Escaper.esc(name, Escaper.SHORT_LIMIT));
      }
      for (Skipped s : skipped) {
        out.printf(
            "skipped %s: %s (%s)%n",
            Escaper.esc(s.name(), Escaper.SHORT_LIMIT), s.code(), s.explanation());
      }
      if (resolveEligibility) {
        out.printf(
            "Sharing is %s, so eligibility asked for a verdict that recommends %s.%n",
            result.sharingOn() ? "on" : "off", result.sharingOn() ? "sharing" : "a stub");
      }
      if (written) {
        out.println(GatewayWrites.wrote(edited, before));
        if (!before.fileExisted()) {
          out.println(GatewayWrites.profileAfterCreation(ctx));
        }
      } else if (result.stubbed().isEmpty()) {
        out.printf(
            "Nothing eligible: %s %s.%n",
            GatewayWrites.path(edited), before.fileExisted() ? "not changed" : "not created");
      } else {
        out.printf("Already stubbed: %s not changed.%n", GatewayWrites.path(edited));
      }
      out.flush();
    }
    return Main.EXIT_OK;
  }

  /** The JSON reason of a configured server the gateway does not front. */
  static final String NOT_SERVED = "not_served";

  /** A requested name that was not stubbed, and why. */
  private record Skipped(String name, String code, String explanation) {}

  /** Why a configured server the gateway does not front is not stubbed, naming its files. */
  static String notServed(ConfiguredServer server) {
    Set<String> files = new LinkedHashSet<>();
    for (ConfiguredDefinition d : server.configured()) {
      files.add(Escaper.esc(d.file(), Escaper.LONG_LIMIT));
    }
    return "not served by the Kiro Crew gateway: defined only in "
        + String.join(", ", files)
        + "; the gateway fronts the servers of "
        + GatewaySources.describe();
  }

  private static String explain(Eligibility.SkipReason reason, boolean sharingOn) {
    return switch (reason) {
      case UNKNOWN -> "not defined in any loaded configuration";
      case CANNOT_STUB -> "not a stdio server, or the host profile keeps it unstubbed";
      case POOLING_BLOCKED_BY_ENV ->
          "the gateway would withhold a declared env variable from a shared backend";
      case EVIDENCE_INSUFFICIENT ->
          sharingOn
              ? "its verdict does not recommend sharing"
              : "its verdict does not recommend" + " a stub";
    };
  }
}
