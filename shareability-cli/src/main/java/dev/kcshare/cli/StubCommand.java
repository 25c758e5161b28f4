package dev.kcshare.cli;

import dev.kcshare.cli.config.ConfigEditor;
import dev.kcshare.cli.config.ConfigOptions;
import dev.kcshare.cli.config.ConfiguredServer;
import dev.kcshare.cli.config.GatewaySettings;
import dev.kcshare.cli.config.HostConfig;
import dev.kcshare.cli.records.RecordsDirectory;
import dev.kcshare.cli.report.VerdictReport;
import dev.kcshare.core.policy.Eligibility;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.policy.ServerFacts;
import dev.kcshare.core.text.Escaper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
      "Without --resolve-eligibility exactly the names given are written. With it, each name is"
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
    Path file = GatewayWrites.configFile(ctx, host);
    Eligibility.Result result;
    boolean written;
    Path edited;
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      edited = editor.file();
      GatewaySettings settings = editor.settings();
      if (resolveEligibility) {
        // Every input is read under the lock: the section (above), the definitions, the records.
        HostConfig locked = config.load(ctx).requireValid();
        RecordsDirectory dir = records.resolve(ctx);
        VerdictReport report = VerdictReport.load(dir);
        Map<String, ServerFacts> servers = new HashMap<>();
        for (ConfiguredServer s : locked.servers()) {
          servers.put(s.name(), VerdictReport.facts(s));
        }
        Eligibility.Settings eligibility =
            new Eligibility.Settings(
                settings.sharingOn(),
                GatewayWrites.forwardDeclaredEnv(settings),
                settings.identityKeys(),
                locked.hostProfile());
        result =
            Eligibility.resolve(
                requested, eligibility, servers, report.ledger()::codesForName, report.cache());
      } else {
        result = new Eligibility.Result(requested, List.of(), settings.sharingOn());
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
      List<Object> skipped = new ArrayList<>();
      for (Eligibility.Skip s : result.skipped()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name());
        m.put("reason", s.reason().code());
        skipped.add(m);
      }
      out.put("skipped", skipped);
      out.put("sharingOn", result.sharingOn());
      out.put("written", written);
      Output.json(ctx, out);
    } else {
      printHuman(ctx.out(), result, written, edited, resolveEligibility);
      ctx.out().flush();
    }
    return Main.EXIT_OK;
  }

  private static void printHuman(
      PrintWriter out, Eligibility.Result r, boolean written, Path file, boolean resolved) {
    for (String name : r.stubbed()) {
      out.printf("stubbed %s%n", Escaper.esc(name, Escaper.SHORT_LIMIT));
    }
    for (Eligibility.Skip s : r.skipped()) {
      out.printf(
          "skipped %s: %s (%s)%n",
          Escaper.esc(s.name(), Escaper.SHORT_LIMIT),
          s.reason().code(),
          explain(s.reason(), r.sharingOn()));
    }
    if (resolved) {
      out.printf(
          "Sharing is %s, so eligibility asked for a verdict that recommends %s.%n",
          r.sharingOn() ? "on" : "off", r.sharingOn() ? "sharing" : "a stub");
    }
    if (written) {
      out.printf(
          "Wrote stub_overrides in %s (previous version in %s).%n",
          GatewayWrites.path(file), GatewayWrites.path(ConfigEditor.backupFile(file)));
    } else if (r.stubbed().isEmpty()) {
      out.printf("Nothing eligible: %s not changed.%n", GatewayWrites.path(file));
    } else {
      out.printf("Already stubbed: %s not changed.%n", GatewayWrites.path(file));
    }
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
