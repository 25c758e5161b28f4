package dev.kcshare.cli;

import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.IdentityHashes;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.verdict.IdentityKeys;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.records.Fingerprints;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kcshare identity}: the execution identity of a server definition, part by part. */
@Command(
    name = "identity",
    mixinStandardHelpOptions = true,
    description = {
      "Computes a server's execution identity, so an operator can see why it was re-measured:"
          + " command_args_hash, env hash, launch fingerprint, the verdict-cache identity and the"
          + " ledger's launch identity.",
      "--json prints {\"commandArgsHash\", \"envHash\", \"binaryVersion\", \"cacheIdentity\","
          + " \"launchIdentity\"} (identities as JSON strings; NUL appears as \\u0000).",
      ""
    })
final class IdentityCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Option(names = "--command", required = true, paramLabel = "C", description = "The command.")
  String command;

  @Option(names = "--arg", paramLabel = "A", description = "One argument (repeatable, in order).")
  List<String> args = new ArrayList<>();

  @Option(names = "--env", paramLabel = "K=V", description = "One declared env entry (repeatable).")
  List<String> env = new ArrayList<>();

  @Option(
      names = "--identity-key",
      paramLabel = "K",
      description =
          "A pool identity env name (mcp_gateway.pool_identity_env; repeatable). Affects the launch"
              + " identity only.")
  List<String> identityKeys = new ArrayList<>();

  @Option(names = "--json", description = "Machine-readable output.")
  boolean json;

  IdentityCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    Map<String, String> declared = new LinkedHashMap<>();
    for (String entry : env) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new BadInputException("--env " + Escaper.quoted(entry, 120) + ": expected K=V");
      }
      declared.put(entry.substring(0, eq), entry.substring(eq + 1));
    }
    Set<String> keys = IdentityKeys.resolve(new ArrayList<>(identityKeys));
    Fingerprints fingerprints = new Fingerprints(ctx.env().get("PATH"), ctx.cwd());

    String commandArgsHash = IdentityHashes.commandArgsHash(command, args);
    String envHash = IdentityHashes.envHash(declared, Set.of());
    String binaryVersion = fingerprints.binaryVersion(command, args);
    String cacheIdentity = ExecutionIdentity.cacheIdentity(commandArgsHash, envHash, binaryVersion);

    // The ledger's launch identity is the gateway's pool key: the command resolved to an absolute
    // path, the env hashed WITH the identity keys, and the command's fingerprint only.
    Path resolved = fingerprints.lookup(command);
    String launchCommand = resolved == null ? command : resolved.toAbsolutePath().toString();
    String launchIdentity =
        ExecutionIdentity.launchIdentity(
            IdentityHashes.commandArgsHash(launchCommand, args),
            IdentityHashes.envHash(declared, keys),
            fingerprints.fingerprint(command));

    Map<String, Object> out = new LinkedHashMap<>();
    out.put("commandArgsHash", commandArgsHash);
    out.put("envHash", envHash);
    out.put("binaryVersion", binaryVersion);
    out.put("cacheIdentity", cacheIdentity);
    out.put("launchIdentity", launchIdentity);
    if (json) {
      Output.json(ctx, out);
    } else {
      for (Map.Entry<String, Object> e : out.entrySet()) {
        ctx.out().printf("%-16s %s%n", e.getKey(), Escaper.esc((String) e.getValue(), 1000));
      }
    }
    return Main.EXIT_OK;
  }
}
