package dev.kcshare.embed;

import dev.kcshare.core.policy.host.Transport;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One MCP server as the gateway's configuration declares it. Immutable; built with {@link #stdio}
 * or {@link #builder}.
 *
 * <pre>{@code
 * ServerDefinition files = ServerDefinition.stdio("files-mcp", "npx", List.of("-y", "files-mcp"));
 * ServerDefinition tool =
 *     ServerDefinition.builder("tool")
 *         .command("tool")
 *         .args(List.of("serve"))
 *         .env(Map.of("MODE", "x"))
 *         .build();
 * ServerDefinition remote =
 *     ServerDefinition.builder("docs").url("https://x/mcp").type("http").build();
 * }</pre>
 */
public final class ServerDefinition {
  private final String name;
  private final @Nullable String command;
  private final List<String> args;
  private final Map<String, String> env;
  private final @Nullable String cwd;
  private final boolean disabled;
  private final @Nullable String url;
  private final @Nullable String type;

  private ServerDefinition(Builder b) {
    this.name = b.name;
    this.command = b.command;
    this.args = b.args;
    this.env = b.env;
    this.cwd = b.cwd;
    this.disabled = b.disabled;
    this.url = b.url;
    this.type = b.type;
  }

  /**
   * A builder for a server named {@code name}; nothing else is declared until set.
   *
   * @param name the configured name (not blank)
   * @return the builder
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if {@code name} is empty or only white space
   */
  public static Builder builder(String name) {
    return new Builder(requireNotBlank(name, "name"));
  }

  /**
   * A stdio server with the given command line and nothing else declared.
   *
   * @param name the configured name (not blank)
   * @param command the executable (looked up on the configured {@code PATH}; not blank)
   * @param args the arguments
   * @return the definition
   * @throws NullPointerException if an argument or an element of {@code args} is null
   * @throws IllegalArgumentException if {@code name} or {@code command} is blank
   */
  public static ServerDefinition stdio(String name, String command, List<String> args) {
    return builder(name).command(Objects.requireNonNull(command, "command")).args(args).build();
  }

  private static String requireNotBlank(String value, String parameter) {
    Objects.requireNonNull(value, parameter);
    if (value.isBlank()) {
      throw new IllegalArgumentException(parameter + " must not be blank");
    }
    return value;
  }

  /**
   * The configured name.
   *
   * @return the name, never blank
   */
  public String name() {
    return name;
  }

  /**
   * The executable, looked up on the configured {@code PATH}.
   *
   * @return the command, or null when the server declares none (an HTTP server)
   */
  public @Nullable String command() {
    return command;
  }

  /**
   * The arguments, verbatim.
   *
   * @return the arguments (unmodifiable)
   */
  public List<String> args() {
    return args;
  }

  /**
   * The declared environment, laid over the inherited one when the server is spawned.
   *
   * @return the declared variables, in the order given (unmodifiable)
   */
  public Map<String, String> env() {
    return env;
  }

  /**
   * The declared working directory, relative to the facade's working directory.
   *
   * @return the directory, or null
   */
  public @Nullable String cwd() {
    return cwd;
  }

  /**
   * Whether the operator withheld consent: such a server is never spawned.
   *
   * @return true when disabled
   */
  public boolean disabled() {
    return disabled;
  }

  /**
   * The endpoint of a non-stdio server, informational.
   *
   * @return the URL, or null
   */
  public @Nullable String url() {
    return url;
  }

  /**
   * The declared transport type ({@code stdio}, {@code http}, ...).
   *
   * @return the type, or null
   */
  public @Nullable String type() {
    return type;
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

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ServerDefinition d
        && name.equals(d.name)
        && Objects.equals(command, d.command)
        && args.equals(d.args)
        && env.equals(d.env)
        && Objects.equals(cwd, d.cwd)
        && disabled == d.disabled
        && Objects.equals(url, d.url)
        && Objects.equals(type, d.type);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, command, args, env, cwd, disabled, url, type);
  }

  /** The name, the command and the argument count; never the environment's values. */
  @Override
  public String toString() {
    return "ServerDefinition["
        + name
        + (command == null ? "" : ", " + command + " (" + args.size() + " argument(s))")
        + (url == null ? "" : ", " + url)
        + "]";
  }

  /** Declares one server; {@link #build()} may be called more than once. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private @Nullable String command;
    private List<String> args = List.of();
    private Map<String, String> env = Map.of();
    private @Nullable String cwd;
    private boolean disabled;
    private @Nullable String url;
    private @Nullable String type;

    private Builder(String name) {
      this.name = name;
    }

    /**
     * The executable, looked up on the configured {@code PATH} (default: none, an HTTP server).
     *
     * @param command the command (not blank)
     * @return this builder
     * @throws NullPointerException if {@code command} is null
     * @throws IllegalArgumentException if {@code command} is blank
     */
    public Builder command(String command) {
      this.command = requireNotBlank(command, "command");
      return this;
    }

    /**
     * The arguments, verbatim (default: none).
     *
     * @param args the arguments (copied)
     * @return this builder
     * @throws NullPointerException if {@code args} or an element is null
     */
    public Builder args(List<String> args) {
      this.args = List.copyOf(Objects.requireNonNull(args, "args"));
      return this;
    }

    /**
     * The declared environment (default: none).
     *
     * @param env the variables (copied, in their order)
     * @return this builder
     * @throws NullPointerException if {@code env}, a name or a value is null
     */
    public Builder env(Map<String, String> env) {
      Objects.requireNonNull(env, "env");
      for (Map.Entry<String, String> e : env.entrySet()) {
        Objects.requireNonNull(e.getKey(), "env name");
        Objects.requireNonNull(e.getValue(), "env value");
      }
      this.env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
      return this;
    }

    /**
     * The declared working directory, relative to the facade's working directory (default: none).
     *
     * @param cwd the directory
     * @return this builder
     * @throws NullPointerException if {@code cwd} is null
     */
    public Builder cwd(String cwd) {
      this.cwd = Objects.requireNonNull(cwd, "cwd");
      return this;
    }

    /**
     * Whether the operator withheld consent (default: false); a disabled server is never spawned.
     *
     * @param disabled true to disable
     * @return this builder
     */
    public Builder disabled(boolean disabled) {
      this.disabled = disabled;
      return this;
    }

    /**
     * The endpoint of a non-stdio server (default: none).
     *
     * @param url the URL
     * @return this builder
     * @throws NullPointerException if {@code url} is null
     */
    public Builder url(String url) {
      this.url = Objects.requireNonNull(url, "url");
      return this;
    }

    /**
     * The declared transport type, {@code stdio}, {@code http}, {@code sse}, ... (default: none,
     * which is stdio when a command is set).
     *
     * @param type the type
     * @return this builder
     * @throws NullPointerException if {@code type} is null
     */
    public Builder type(String type) {
      this.type = Objects.requireNonNull(type, "type");
      return this;
    }

    /**
     * The definition.
     *
     * @return the immutable definition
     */
    public ServerDefinition build() {
      return new ServerDefinition(this);
    }
  }
}
