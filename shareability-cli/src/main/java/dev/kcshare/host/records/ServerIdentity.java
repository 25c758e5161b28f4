package dev.kcshare.host.records;

import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.IdentityHashes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The verdict-cache execution identity of one server definition (docs/design.md#cache-identity):
 * the command and args as configured, the declared env hashed with no identity keys, and the launch
 * fingerprint of the command and every file argument. Blocking I/O (it hashes files): never on a
 * latency-critical path.
 */
public final class ServerIdentity {
  private ServerIdentity() {}

  /**
   * The identity string {@code command_args_hash NUL env_hash NUL binary_version NUL 2}.
   *
   * @param command the command as configured ({@code ""} when absent)
   * @param args the arguments as configured
   * @param env the declared env
   * @param fingerprints the fingerprint function bound to kcshare's PATH and working directory
   */
  public static String cacheIdentity(
      String command, List<String> args, Map<String, String> env, Fingerprints fingerprints) {
    return ExecutionIdentity.cacheIdentity(
        IdentityHashes.commandArgsHash(command, args),
        IdentityHashes.envHash(env, Set.of()),
        fingerprints.binaryVersion(command, args));
  }

  /**
   * The ledger's launch identity (docs/design.md#launch-identity) of a backend spawned from this
   * command line: the command resolved on the configured {@code PATH} to an absolute path (kept as
   * given when the lookup fails) with its arguments, the declared env hashed WITH the identity
   * keys, and the fingerprint of the command only. Blocking: hashes the command's binary.
   *
   * @param command the command as configured
   * @param args the arguments as configured
   * @param env the declared env
   * @param identityKeys the resolved {@code pool_identity_env} names
   * @param fingerprints the fingerprint function bound to kcshare's PATH and working directory
   * @return {@code command_args_hash NUL env_hash NUL binary_version}
   */
  public static String launchIdentity(
      String command,
      List<String> args,
      Map<String, String> env,
      Set<String> identityKeys,
      Fingerprints fingerprints) {
    Path resolved = fingerprints.lookup(command);
    String launched = resolved == null ? command : resolved.toAbsolutePath().toString();
    return ExecutionIdentity.launchIdentity(
        IdentityHashes.commandArgsHash(launched, args),
        IdentityHashes.envHash(env, identityKeys),
        fingerprints.fingerprint(command));
  }
}
