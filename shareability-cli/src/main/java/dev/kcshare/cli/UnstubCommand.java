package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.GatewaySources;
import dev.kcshare.host.config.HostConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcshare unstub}: sets {@code stub_overrides[name] = false}. */
@Command(
    name = "unstub",
    mixinStandardHelpOptions = true,
    description = {
      "Unstubs the named servers: writes stub_overrides[name] = false in the Kiro Crew"
          + " configuration, which also takes a server out of the stub_servers roster. Evidence"
          + " is never consulted. Seeding never overwrites this choice.",
      "Every name must be a configured server or one the gateway section already names (else"
          + " exit 2 and nothing is written).",
      "--json prints {\"unstubbed\": [...], \"written\"}.",
      ""
    })
final class UnstubCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Mixin ConfigOptions config = new ConfigOptions();

  @Parameters(
      arity = "1..*",
      paramLabel = "NAME",
      description = "Configured server names.",
      completionCandidates = ServerNames.class)
  List<String> names = new ArrayList<>();

  @Option(names = "--json", description = "Machine-readable output.")
  boolean json;

  UnstubCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    List<String> requested = GatewayWrites.names(names);
    HostConfig host = config.load(ctx);
    GatewaySources sources = GatewaySources.of(ctx.env());
    Path file = host.gatewayConfigFile(ctx.host());
    boolean written = false;
    Path edited;
    ConfigEditor.Before before;
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      edited = editor.file();
      before = editor.before();
      // Under the lock: a name the section stubs is known even when it left the configuration.
      GatewayWrites.requireKnown(host, editor.settings(), requested);
      Map<String, @Nullable Object> section = editor.section();
      if (Seeding.setOverrides(section, requested, false)) {
        written = editor.writeStubOverrides(Seeding.validOverrides(section));
      }
    }
    if (json) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("unstubbed", requested);
      out.put("written", written);
      Output.json(ctx, out);
    } else {
      for (String name : requested) {
        ConfiguredServer s = host.serverNamed(name);
        ctx.out()
            .printf(
                "unstubbed %s%s%n",
                Escaper.esc(name, Escaper.SHORT_LIMIT),
                s != null && !sources.serves(s) ? " (not served by the Kiro Crew gateway)" : "");
      }
      if (written) {
        ctx.out().println(GatewayWrites.wrote(edited, before));
        if (!before.fileExisted()) {
          ctx.out().println(GatewayWrites.profileAfterCreation(ctx));
        }
      } else {
        ctx.out().printf("Already unstubbed: %s not changed.%n", GatewayWrites.path(edited));
      }
      ctx.out().flush();
    }
    return Main.EXIT_OK;
  }
}
