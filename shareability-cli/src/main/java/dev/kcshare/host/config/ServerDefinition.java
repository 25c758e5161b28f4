package dev.kcshare.host.config;

import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.core.policy.host.Transport;
import dev.kcshare.core.text.Secrets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One configured MCP server as a host config declares it. Immutable: the prober never changes the
 * definition it was given (docs/design.md#pre-flight-ground-rules).
 *
 * @param name the configured name (the key in {@code mcpServers})
 * @param command the executable; null when the server declares none (an HTTP server)
 * @param args the arguments, verbatim
 * @param env the declared environment, laid over kcshare's own when the server is spawned
 * @param cwd the declared working directory, or null for kcshare's current directory
 * @param disabled the operator withheld consent: such a server is never spawned
 * @param url the endpoint of a non-stdio server, informational
 * @param type the declared transport type ({@code stdio}, {@code http}, ...), informational
 * @param unsetEnv names removed from kcshare's own environment before the declared env is laid over
 *     it (VS Code's {@code "NAME": null}); usually empty
 */
public record ServerDefinition(
    String name,
    @Nullable String command,
    List<String> args,
    Map<String, String> env,
    @Nullable String cwd,
    boolean disabled,
    @Nullable String url,
    @Nullable String type,
    List<String> unsetEnv) {

  /**
   * Validates and copies ({@code env} keeps its order).
   *
   * @throws NullPointerException if {@code name}, a list, a map, or an env name or value is null
   */
  public ServerDefinition {
    Objects.requireNonNull(name, "name");
    args = List.copyOf(args);
    env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
    for (Map.Entry<String, String> e : env.entrySet()) {
      Objects.requireNonNull(e.getKey(), "env name");
      Objects.requireNonNull(e.getValue(), "env value");
    }
    unsetEnv = List.copyOf(unsetEnv);
  }

  /**
   * Entry types of things a client runs inside itself rather than as a process or at a URL (Goose
   * {@code builtin}, {@code platform}, {@code frontend} and {@code inline_python} extensions, Zed
   * extensions): docs/config.md#part-of-the-client.
   */
  public static final java.util.Set<String> CLIENT_PART_TYPES =
      java.util.Set.of("builtin", "platform", "frontend", "inline_python", "extension");

  /**
   * True when this entry is part of the client itself ({@link #CLIENT_PART_TYPES}, with neither a
   * command nor a url): there is no server process to measure, share or stub.
   */
  public boolean partOfClient() {
    return command == null && url == null && type != null && CLIENT_PART_TYPES.contains(type);
  }

  /** A definition that removes nothing from the inherited environment. */
  public ServerDefinition(
      String name,
      @Nullable String command,
      List<String> args,
      Map<String, String> env,
      @Nullable String cwd,
      boolean disabled,
      @Nullable String url,
      @Nullable String type) {
    this(name, command, args, env, cwd, disabled, url, type, List.of());
  }

  /**
   * A stdio server with the given command line and nothing else declared.
   *
   * <pre>{@code
   * ServerDefinition files = ServerDefinition.stdio("files-mcp", "npx", List.of("-y", "files-mcp"));
   * }</pre>
   *
   * @param name the configured name
   * @param command the executable (looked up on PATH)
   * @param args the arguments
   * @return the definition
   */
  public static ServerDefinition stdio(String name, String command, List<String> args) {
    return new ServerDefinition(name, command, args, Map.of(), null, false, null, null);
  }

  /**
   * Whether the definition is launched over stdio: it has a {@code command} and its {@code type}
   * names no other transport ({@link Transport#isStdio}).
   */
  public boolean isStdio() {
    return Transport.isStdio(command, type);
  }

  /**
   * Why this definition is never spawned ({@code disabled}, {@code no command}), or null when it
   * may be: {@link DefinitionFacts#refusal(boolean, boolean, String)}.
   */
  public @Nullable String refusal() {
    return DefinitionFacts.refusal(disabled, isStdio(), command);
  }

  /**
   * What of this definition is secret (its declared env values, secret-looking arguments, URL
   * credentials) and masks it in any text shown or stored (docs/config.md#what-kcshare-masks). The
   * identity hashes are computed from the raw values, never from a masked form.
   */
  public Secrets secrets() {
    return Secrets.of(env, args, url);
  }

  /** The arguments as output shows them: secrets masked ({@link #secrets}). */
  public List<String> shownArgs() {
    return secrets().maskArgs(args);
  }

  /** The URL as output shows it, secrets masked ({@link #secrets}); null when none. */
  public @Nullable String shownUrl() {
    return secrets().maskUrl(url);
  }

  /** A copy with a different declared environment. */
  public ServerDefinition withEnv(Map<String, String> newEnv) {
    return new ServerDefinition(name, command, args, newEnv, cwd, disabled, url, type, unsetEnv);
  }

  /** A copy with a different working directory. */
  public ServerDefinition withCwd(@Nullable String newCwd) {
    return new ServerDefinition(name, command, args, env, newCwd, disabled, url, type, unsetEnv);
  }

  /** A copy with the disabled flag set as given. */
  public ServerDefinition withDisabled(boolean newDisabled) {
    return new ServerDefinition(name, command, args, env, cwd, newDisabled, url, type, unsetEnv);
  }
}
