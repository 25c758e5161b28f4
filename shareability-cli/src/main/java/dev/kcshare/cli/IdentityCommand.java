package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.IdentityHashes;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.verdict.IdentityKeys;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.records.Fingerprints;
import dev.kcshare.host.records.ServerIdentity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Stack;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcshare identity}: the execution identity of a server definition, part by part. */
@Command(
    name = "identity",
    mixinStandardHelpOptions = true,
    description = {
      "Computes a server's execution identity, so an operator can see why it was re-measured:"
          + " command_args_hash, env hash, launch fingerprint, the verdict-cache identity and the"
          + " ledger's launch identity.",
      "Either for a definition given with --command (and --arg, --env), or, with SERVER, for"
          + " every definition of a configured server (its identity keys are the configured"
          + " mcp_gateway.pool_identity_env unless --identity-key is given).",
      "Each option takes the next argument as its value whatever it looks like, so --arg -v,"
          + " --arg=--json and --arg -- pass those strings as arguments.",
      "--json prints {\"commandArgsHash\", \"envHash\", \"binaryVersion\", \"cacheIdentity\","
          + " \"launchIdentity\"} (identities as JSON strings; NUL appears as \\u0000); with SERVER"
          + " {\"name\", \"identityKeys\", \"identitiesAgree\", \"definitions\": [{\"source\","
          + " \"pointer\", \"stdio\", then those five, null when not stdio}]}.",
      ""
    })
final class IdentityCommand implements Callable<Integer> {
  /** The five parts, in output order. */
  private static final List<String> PARTS =
      List.of("commandArgsHash", "envHash", "binaryVersion", "cacheIdentity", "launchIdentity");

  private final CliContext ctx;

  @Parameters(
      arity = "0..1",
      paramLabel = "SERVER",
      description = "A configured server: the identities of each of its definitions.",
      completionCandidates = ServerNames.class)
  @Nullable String server;

  @Option(
      names = "--command",
      paramLabel = "C",
      parameterConsumer = Verbatim.class,
      description = "The command.")
  @Nullable String command;

  @Option(
      names = "--arg",
      paramLabel = "A",
      parameterConsumer = Verbatim.class,
      description = "One argument (repeatable, in order; taken verbatim, even -v or --).")
  List<String> args = new ArrayList<>();

  @Option(
      names = "--env",
      paramLabel = "K=V",
      parameterConsumer = Verbatim.class,
      description = "One declared env entry (repeatable).")
  List<String> env = new ArrayList<>();

  @Option(
      names = "--identity-key",
      paramLabel = "K",
      parameterConsumer = Verbatim.class,
      description =
          "A pool identity env name (mcp_gateway.pool_identity_env; repeatable). Affects the launch"
              + " identity only.")
  List<String> identityKeys = new ArrayList<>();

  @Option(names = "--json", description = "Machine-readable output.")
  boolean json;

  @Mixin ConfigOptions config = new ConfigOptions();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  IdentityCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  /**
   * Takes exactly the next command-line argument as the option's value, whatever it looks like: an
   * argument of a server may well be {@code -v}, {@code --} or {@code --json}, which picocli would
   * otherwise read as options or as the end of options.
   */
  static final class Verbatim implements CommandLine.IParameterConsumer {
    @Override
    public void consumeParameters(
        Stack<String> remaining,
        CommandLine.Model.ArgSpec argSpec,
        CommandLine.Model.CommandSpec commandSpec) {
      String option =
          argSpec instanceof CommandLine.Model.OptionSpec o ? o.longestName() : "option";
      if (remaining.isEmpty()) {
        throw new CommandLine.ParameterException(
            commandSpec.commandLine(), "Missing required parameter for option '" + option + "'");
      }
      String value = remaining.pop();
      if (argSpec.type() == List.class) {
        List<String> values = argSpec.getValue();
        List<String> next = new ArrayList<>(values == null ? List.of() : values);
        next.add(value);
        argSpec.setValue(next);
      } else {
        argSpec.setValue(value);
      }
    }
  }

  @Override
  public Integer call() {
    if ((server == null) == (command == null)) {
      throw usage("give either SERVER or --command (exactly one of the two)");
    }
    Map<String, String> declared = new LinkedHashMap<>();
    for (String entry : env) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new BadInputException("--env " + Escaper.quoted(entry, 120) + ": expected K=V");
      }
      declared.put(entry.substring(0, eq), entry.substring(eq + 1));
    }
    Fingerprints fingerprints = new Fingerprints(ctx.env().get("PATH"), ctx.cwd());
    if (server != null) {
      if (!args.isEmpty() || !env.isEmpty()) {
        throw usage("--arg and --env describe a definition given with --command, not SERVER");
      }
      return ofServer(server, fingerprints);
    }
    Set<String> keys = IdentityKeys.resolve(new ArrayList<>(identityKeys));
    Map<String, Object> out = parts(command, args, declared, keys, fingerprints);
    if (json) {
      Output.json(ctx, out);
    } else {
      printParts(out, "");
    }
    return Main.EXIT_OK;
  }

  private int ofServer(String name, Fingerprints fingerprints) {
    HostConfig host;
    try (Shareability kc = CommandFacade.of(ctx)) {
      host = config.load(ctx, kc).requireValid();
    }
    ConfiguredServer s = host.require(List.of(name)).get(0);
    Set<String> keys =
        identityKeys.isEmpty()
            ? host.identityKeys()
            : IdentityKeys.resolve(new ArrayList<>(identityKeys));
    List<Map<String, @Nullable Object>> definitions = new ArrayList<>();
    for (ConfiguredDefinition d : s.configured()) {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      m.put("source", d.file());
      m.put("pointer", d.pointer());
      m.put("stdio", d.isStdio());
      ServerDefinition def = d.definition();
      if (d.isStdio() && def.command() != null) {
        m.putAll(parts(def.command(), def.args(), def.env(), keys, fingerprints));
      } else {
        for (String part : PARTS) {
          m.put(part, null);
        }
      }
      definitions.add(m);
    }
    boolean agree = s.commonIdentity() != null;
    if (json) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("name", s.name());
      out.put("identityKeys", List.copyOf(keys));
      out.put("identitiesAgree", agree);
      out.put("definitions", definitions);
      Output.json(ctx, out);
      return Main.EXIT_OK;
    }
    String shown = Escaper.esc(s.name(), Escaper.SHORT_LIMIT);
    ctx.out().println(shown);
    for (Map<String, @Nullable Object> m : definitions) {
      ctx.out()
          .printf(
              "  %s %s%n",
              Escaper.esc((String) m.get("source"), Escaper.LONG_LIMIT),
              Escaper.esc((String) m.get("pointer"), Escaper.LONG_LIMIT));
      if (m.get("cacheIdentity") == null) {
        ctx.out().println("    not stdio: no execution identity");
      } else {
        printParts(m, "    ");
      }
    }
    if (s.definitions().size() > 1) {
      ctx.out()
          .println(
              agree
                  ? "  every definition has the same cache identity"
                  : "  the definitions have different cache identities: no pre-flight counts for "
                      + shown
                      + " (see kcshare assess "
                      + shown
                      + ")");
    }
    ctx.out().flush();
    return Main.EXIT_OK;
  }

  /**
   * The five parts for one definition. The ledger's launch identity is the gateway's pool key: the
   * command resolved to an absolute path, the env hashed WITH the identity keys, and the command's
   * fingerprint only.
   */
  private static Map<String, Object> parts(
      String command,
      List<String> args,
      Map<String, String> declared,
      Set<String> keys,
      Fingerprints fingerprints) {
    String commandArgsHash = IdentityHashes.commandArgsHash(command, args);
    String envHash = IdentityHashes.envHash(declared, Set.of());
    String binaryVersion = fingerprints.binaryVersion(command, args);
    String cacheIdentity = ExecutionIdentity.cacheIdentity(commandArgsHash, envHash, binaryVersion);
    String launchIdentity =
        ServerIdentity.launchIdentity(command, args, declared, keys, fingerprints);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("commandArgsHash", commandArgsHash);
    out.put("envHash", envHash);
    out.put("binaryVersion", binaryVersion);
    out.put("cacheIdentity", cacheIdentity);
    out.put("launchIdentity", launchIdentity);
    return out;
  }

  private void printParts(Map<String, ?> parts, String indent) {
    for (String part : PARTS) {
      ctx.out().printf("%s%-16s %s%n", indent, part, Escaper.esc((String) parts.get(part), 1000));
    }
    ctx.out().flush();
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
