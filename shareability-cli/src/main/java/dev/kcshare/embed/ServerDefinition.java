package dev.kcshare.embed;

import dev.kcshare.core.policy.Transport;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One MCP server as the gateway's configuration declares it. Immutable.
 *
 * <pre>{@code
 * ServerDefinition files = ServerDefinition.stdio("files-mcp", "npx", List.of("-y", "files-mcp"));
 * ServerDefinition remote =
 *     new ServerDefinition("docs", null, List.of(), Map.of(), null, false, "https://x/mcp", "http");
 * }</pre>
 *
 * @param name the configured name
 * @param command the executable (looked up on the configured {@code PATH}); null when the server
 *     declares none (an HTTP server)
 * @param args the arguments, verbatim
 * @param env the declared environment, laid over the inherited one when the server is spawned
 * @param cwd the declared working directory (relative to the facade's working directory), or null
 * @param disabled the operator withheld consent: such a server is never spawned
 * @param url the endpoint of a non-stdio server, informational
 * @param type the declared transport type ({@code stdio}, {@code http}, ...), or null
 */
public record ServerDefinition(
    String name,
    @Nullable String command,
    List<String> args,
    Map<String, String> env,
    @Nullable String cwd,
    boolean disabled,
    @Nullable String url,
    @Nullable String type) {

  /**
   * Validates and copies ({@code env} keeps its order).
   *
   * @throws NullPointerException if {@code name}, a list, a map, or an element of one is null
   */
  public ServerDefinition {
    Objects.requireNonNull(name, "name");
    args = List.copyOf(Objects.requireNonNull(args, "args"));
    Objects.requireNonNull(env, "env");
    for (Map.Entry<String, String> e : env.entrySet()) {
      Objects.requireNonNull(e.getKey(), "env name");
      Objects.requireNonNull(e.getValue(), "env value");
    }
    env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
  }

  /**
   * A stdio server with the given command line and nothing else declared.
   *
   * @param name the configured name
   * @param command the executable (looked up on the configured {@code PATH})
   * @param args the arguments
   * @return the definition
   */
  public static ServerDefinition stdio(String name, String command, List<String> args) {
    return new ServerDefinition(
        name, Objects.requireNonNull(command, "command"), args, Map.of(), null, false, null, null);
  }

  /**
   * Whether the server is launched over stdio: it has a {@code command} and its {@code type} names
   * no other transport ({@code http}, {@code sse}, {@code streamable-http}, ...). The same rule as
   * the {@code kcshare} command's config reader.
   *
   * @return true for a stdio server
   */
  public boolean isStdio() {
    return Transport.isStdio(command, type);
  }

  /** This definition as the library packages take it. */
  dev.kcshare.host.config.ServerDefinition toHost() {
    return new dev.kcshare.host.config.ServerDefinition(
        name, command, args, env, cwd, disabled, url, type);
  }
}
