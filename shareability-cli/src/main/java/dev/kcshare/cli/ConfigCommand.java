package dev.kcshare.cli;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.UnresolvedVariable;
import dev.kcshare.api.UnusableEntry;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.config.Conflict;
import dev.kcshare.host.config.Definitions;
import dev.kcshare.host.config.GatewaySettings;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.ProfileSelection;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kcshare config}: which MCP configuration kcshare sees, and where each server came from.
 */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = {
      "Shows the MCP server configuration kcshare reads: the files (read, missing, skipped or"
          + " failed, with the reason), each server with every definition, the clients that"
          + " define it and where, conflicting definitions and the fields they differ in,"
          + " variables that could not be substituted, the Kiro Crew gateway settings and the"
          + " host profile with the reason it was chosen. Env values are never printed;"
          + " secret-looking arguments and URL credentials print as *** (docs/config.md);"
          + " identity hashes are shown only with -v or --json.",
      "--json prints {profile, files, gateway, identityKeys, servers, clientParts, conflicts, unresolved,"
          + " errors, skipped} (see docs/config.md).",
      "A discovered file that cannot be used is skipped with a warning; an entry that cannot be"
          + " used is left out on its own, with a warning, and the file's other entries are"
          + " read. Exit code 2 when a file"
          + " named with --config cannot be used (the report is still printed).",
      ""
    })
final class ConfigCommand implements Callable<Integer> {
  /** Command-line tokens printed bare; anything else is quoted and escaped. */
  private static final Pattern PLAIN_TOKEN = Pattern.compile("[A-Za-z0-9@%+=:,./_~^-]+");

  /** A server name {@code --names} prints: printable, no white space, no shell quoting needed. */
  private static final Pattern COMPLETABLE_NAME = Pattern.compile("[A-Za-z0-9@%+=:,./_~^-]{1,200}");

  private final CliContext ctx;

  @Mixin ConfigOptions config = new ConfigOptions();

  @CommandLine.Spec CommandLine.Model.@Nullable CommandSpec spec;

  @Option(names = "--json", description = "Machine-readable output.")
  boolean json;

  /**
   * For the completion scripts: the configured server names, one a line, and nothing else on
   * stdout. Hidden from help; names a shell could not offer as one word are left out.
   */
  @Option(names = "--names", hidden = true)
  boolean names;

  ConfigCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    HostConfig host;
    try (Shareability kc = CommandFacade.of(ctx)) {
      host = config.load(ctx, kc);
    }
    if (names) {
      for (ConfiguredServer s : host.servers()) {
        if (COMPLETABLE_NAME.matcher(s.name()).matches()) {
          ctx.out().println(s.name());
        }
      }
      ctx.out().flush();
      return Main.EXIT_OK;
    }
    List<String> errors = host.errors();
    if (!errors.isEmpty()) {
      // Exit code 2 prints nothing on stdout: each named file's problem goes to stderr alone.
      for (String e : errors) {
        ctx.err().println("kcshare: " + Escaper.esc(e, Escaper.LONG_LIMIT));
      }
      return Main.EXIT_USAGE;
    }
    if (json) {
      Output.json(ctx, host.toJson());
    } else {
      boolean verbose =
          spec != null
              && KcshareCommand.verbosityOf(spec.root().commandLine().getParseResult()) > 0;
      printHuman(ctx.out(), host, verbose);
      ctx.out().flush();
    }
    return Main.EXIT_OK;
  }

  /**
   * The human report. Identity strings (which carry the env hash, an unsalted SHA-256 a weak value
   * can be guessed from) are printed only when {@code verbose}.
   */
  private static void printHuman(PrintWriter out, HostConfig host, boolean verbose) {
    out.printf("Profile: %s (because %s)%n", host.profile().name(), esc(host.profile().reason()));
    out.printf("  rule: %s%n", ProfileSelection.RULE);

    out.printf("%nFiles:%n");
    for (ConfigFile f : host.files()) {
      StringBuilder line = new StringBuilder();
      line.append(String.format("  %-9s %s", f.status().id(), esc(f.display())));
      if (!f.formats().isEmpty()) {
        line.append(" [").append(String.join(", ", f.formats())).append(']');
      }
      if (f.servers() > 0) {
        line.append(' ').append(f.servers()).append(f.servers() == 1 ? " server" : " servers");
      }
      line.append(" (").append(f.origin()).append(')');
      out.println(line);
      for (String problem : f.problems()) {
        out.printf("              %s%n", esc(problem));
      }
      if (f.status() == ConfigFile.Status.READ) {
        for (UnusableEntry u : f.unusableEntries()) {
          out.printf(
              "              entry %s left out: %s: %s%n",
              Escaper.quoted(u.server(), Escaper.SHORT_LIMIT),
              esc(u.pointer().isEmpty() ? "(root)" : u.pointer()),
              esc(u.problem()));
        }
      }
      for (String warning : f.warnings()) {
        out.printf("              note: %s%n", esc(warning));
      }
    }

    GatewaySettings g = host.gateway();
    if (g.source() != null) {
      out.printf("%nGateway (%s):%n", esc(g.source()));
      if (!g.present()) {
        out.printf("  no mcp_gateway section%n");
      } else {
        out.printf("  sharing:              %s%n", g.sharingOn() ? "on" : "off");
        String socket = g.socketPath();
        out.printf("  socket_path:          %s%n", socket == null ? "(none)" : esc(socket));
        out.printf(
            "  roster:               %s%n",
            g.rosterSource().equals("none")
                ? "(none: neither stub_servers nor poolable_servers is set)"
                : names(g.roster()) + " (from " + g.rosterSource() + ")");
        List<String> overrides = new ArrayList<>();
        for (Map.Entry<String, Boolean> e : g.stubOverrides().entrySet()) {
          overrides.add(esc(e.getKey()) + "=" + e.getValue());
        }
        out.printf(
            "  stub_overrides:       %s%n",
            overrides.isEmpty() ? "(none)" : String.join(", ", overrides));
        out.printf("  effective stub set:   %s%n", names(g.effectiveStubSet()));
        Boolean forward = g.forwardDeclaredEnv();
        out.printf(
            "  forward_declared_env: %s%n",
            forward == null ? "(not set: the gateway's default applies)" : forward);
        out.printf("  identity keys:        %s%n", names(List.copyOf(g.identityKeys())));
      }
    }

    out.printf("%nServers:%n");
    if (host.servers().isEmpty()) {
      out.printf("  (none)%n");
    }
    for (ConfiguredServer s : host.servers()) {
      out.printf(
          "  %s  %s%s%n",
          esc(s.name()),
          s.isStdio() ? "stdio" : "not stdio",
          s.declaredEnvNames().isEmpty() ? "" : "  env: " + names(s.declaredEnvNames()));
      if (s.definitions().size() > 1) {
        out.printf("    defined by: %s%n", String.join(", ", s.clients()));
        List<String> differences = s.differences();
        if (!differences.isEmpty()) {
          out.printf("    definitions differ in: %s%n", String.join(", ", differences));
        }
      }
      for (ConfiguredDefinition d : s.configured()) {
        printDefinition(out, d, verbose);
      }
    }

    if (!host.clientParts().isEmpty()) {
      out.printf("%nPart of the client, not server processes (never assessed or measured):%n");
      for (ConfiguredServer s : host.clientParts()) {
        out.printf("  %s  %s%n", esc(s.name()), String.join(", ", s.clients()));
        for (ConfiguredDefinition d : s.configured()) {
          String type = d.definition().type();
          out.printf(
              "    %s %s [type %s]%n",
              esc(d.file()), esc(d.pointer()), esc(type == null ? "" : type));
        }
      }
    }

    List<Conflict> conflicts = host.conflictDetails();
    out.printf("%nConflicts:%n");
    if (conflicts.isEmpty()) {
      out.printf("  (none)%n");
    }
    for (Conflict c : conflicts) {
      out.printf("  %s: %s%n", esc(c.name()), c.reason());
      out.printf("    they differ in: %s%n", String.join(", ", c.differences()));
      for (ConfiguredDefinition d : c.definitions()) {
        String identity =
            d.identity() == null
                ? "  (no identity: not stdio)"
                : verbose
                    ? "  identity " + esc(Definitions.secrets(d.definition()).mask(d.identity()))
                    : "";
        out.printf("    %s %s%s%n", esc(d.file()), esc(d.pointer()), identity);
      }
    }

    List<UnresolvedVariable> unresolved = host.unresolved();
    if (!unresolved.isEmpty()) {
      out.printf("%nUnresolved variables:%n");
      for (UnresolvedVariable u : unresolved) {
        out.printf(
            "  %s  %s %s  %s (%s: %s)%n",
            esc(u.server()),
            esc(u.file()),
            esc(u.pointer()),
            esc(u.reference()),
            u.reason().id(),
            u.reason().explanation());
      }
    }
  }

  private static void printDefinition(PrintWriter out, ConfiguredDefinition d, boolean verbose) {
    ServerDefinition def = d.definition();
    List<String> flags = new ArrayList<>();
    flags.add(d.format());
    flags.add(d.isStdio() ? "stdio" : "not stdio");
    if (def.type() != null) {
      flags.add("type " + esc(def.type()));
    }
    if (def.disabled()) {
      flags.add("disabled");
    }
    out.printf("    %s %s [%s]%n", esc(d.file()), esc(d.pointer()), String.join(", ", flags));
    if (def.command() != null) {
      out.printf("      command: %s%n", commandLine(def.command(), def.shownArgs()));
    }
    String url = def.shownUrl();
    if (url != null) {
      out.printf("      url: %s%n", esc(url));
    }
    if (def.cwd() != null) {
      out.printf("      cwd: %s%n", esc(def.cwd()));
    }
    if (!def.env().isEmpty()) {
      out.printf("      env: %s%n", names(d.envNames()));
    }
    if (!def.unsetEnv().isEmpty()) {
      out.printf("      removes env: %s%n", names(def.unsetEnv()));
    }
    List<String> inherited = def.inheritedEnv();
    if (inherited != null && d.isStdio()) {
      out.printf("      inherits only: %s%n", names(inherited));
    }
    if (verbose && d.isStdio()) {
      out.printf("      environment:%n");
      for (String name : d.envNames()) {
        out.printf("        %s  %s%n", Escaper.esc(name, Escaper.SHORT_LIMIT), d.envOrigin(name));
      }
      out.printf(
          "        %s  inherited from kcshare's environment%n",
          inherited == null ? "(every other variable)" : "(" + names(inherited) + ", if set)");
    }
    if (verbose && d.identity() != null) {
      out.printf("      identity: %s%n", esc(Definitions.secrets(def).mask(d.identity())));
    }
  }

  /**
   * The command line with each token shown bare when plain, else quoted and escaped. {@code args}
   * are the masked ones ({@link ServerDefinition#shownArgs}).
   */
  static String commandLine(String command, List<String> args) {
    StringBuilder b = new StringBuilder(token(command));
    for (String arg : args) {
      b.append(' ').append(token(arg));
    }
    return b.toString();
  }

  private static String token(String s) {
    return PLAIN_TOKEN.matcher(s).matches() && s.length() <= Escaper.LONG_LIMIT
        ? s
        : Escaper.quoted(s, Escaper.LONG_LIMIT);
  }

  private static String names(List<String> names) {
    if (names.isEmpty()) {
      return "(none)";
    }
    List<String> escaped = new ArrayList<>(names.size());
    for (String n : names) {
      escaped.add(Escaper.esc(n, Escaper.SHORT_LIMIT));
    }
    return String.join(", ", escaped);
  }

  private static String esc(String s) {
    return Escaper.esc(s, Escaper.LONG_LIMIT);
  }
}
