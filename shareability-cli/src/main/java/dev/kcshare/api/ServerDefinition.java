package dev.kcshare.api;

import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.core.policy.internal.Transport;
import dev.kcshare.core.text.Secrets;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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
  private final List<String> unsetEnv;
  private final @Nullable List<String> inheritedEnv;

  /**
   * Entry types of things a client runs inside itself rather than as a process or at a URL (Goose
   * {@code builtin}, {@code platform}, {@code frontend} and {@code inline_python} extensions, Zed
   * extensions): docs/config.md#part-of-the-client.
   */
  public static final Set<String> CLIENT_PART_TYPES =
      Set.of("builtin", "platform", "frontend", "inline_python", "extension");

  private ServerDefinition(Builder b) {
    this.name = b.name;
    this.command = b.command;
    this.args = b.args;
    this.env = b.env;
    this.cwd = b.cwd;
    this.disabled = b.disabled;
    this.url = b.url;
    this.type = b.type;
    this.unsetEnv = b.unsetEnv;
    this.inheritedEnv = b.inheritedEnv;
  }

  /**
   * A builder holding everything this definition declares, to build a changed copy.
   *
   * @return the builder
   */
  public Builder toBuilder() {
    Builder b = new Builder(name);
    b.command = command;
    b.args = args;
    b.env = env;
    b.cwd = cwd;
    b.disabled = disabled;
    b.url = url;
    b.type = type;
    b.unsetEnv = unsetEnv;
    b.inheritedEnv = inheritedEnv;
    return b;
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

  /**
   * The names removed from the inherited environment before the declared one is laid over it (VS
   * Code's {@code "NAME": null}); usually none.
   *
   * @return the names, in the order given (unmodifiable)
   */
  public List<String> unsetEnv() {
    return unsetEnv;
  }

  /**
   * The only names of the inherited environment the server receives, when its launcher passes a
   * chosen few (1MCP without {@code inheritParentEnv}, or with an {@code envFilter}:
   * docs/config.md#what-the-gateway-launches); null when it inherits the whole environment, the
   * usual case. The declared env is laid over what is inherited either way.
   *
   * @return the names in code-point order (unmodifiable), or null for the whole environment
   */
  public @Nullable List<String> inheritedEnv() {
    return inheritedEnv;
  }

  /**
   * Whether this entry is part of its client rather than a server: its {@code type} is one of
   * {@link #CLIENT_PART_TYPES} and it has neither a command nor a URL. There is no server process
   * to measure, share or stub.
   *
   * @return true for a part of the client
   */
  public boolean isPartOfClient() {
    return command == null && url == null && type != null && CLIENT_PART_TYPES.contains(type);
  }

  /**
   * Why this definition is never spawned: {@code disabled} (whatever else it declares), else {@code
   * no command} (not a stdio server, or an empty command).
   *
   * @return the refusal, or null when it may be spawned
   */
  public @Nullable String refusal() {
    return DefinitionFacts.refusal(disabled, isStdio(), command);
  }

  /**
   * The arguments as kcshare shows them: a secret-looking argument, or one repeating a declared env
   * value, masked (docs/config.md#what-kcshare-masks).
   *
   * @return the masked arguments
   */
  public List<String> shownArgs() {
    return secrets().maskArgs(args);
  }

  /**
   * The URL as kcshare shows it, credentials and secret-looking query values masked
   * (docs/config.md#what-kcshare-masks).
   *
   * @return the masked URL, or null when none
   */
  public @Nullable String shownUrl() {
    return secrets().maskUrl(url);
  }

  private Secrets secrets() {
    return Secrets.of(env, args, url);
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
        && Objects.equals(type, d.type)
        && unsetEnv.equals(d.unsetEnv)
        && Objects.equals(inheritedEnv, d.inheritedEnv);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, command, args, env, cwd, disabled, url, type, unsetEnv, inheritedEnv);
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
    private List<String> unsetEnv = List.of();
    private @Nullable List<String> inheritedEnv;

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
     * The names removed from the inherited environment before the declared one is laid over it
     * (default: none).
     *
     * @param unsetEnv the names (copied)
     * @return this builder
     * @throws NullPointerException if {@code unsetEnv} or an element is null
     */
    public Builder unsetEnv(List<String> unsetEnv) {
      this.unsetEnv = List.copyOf(Objects.requireNonNull(unsetEnv, "unsetEnv"));
      return this;
    }

    /**
     * The only names of the inherited environment the server receives (default: null, the whole
     * environment): see {@link ServerDefinition#inheritedEnv()}.
     *
     * @param names the names (copied and sorted), or null for the whole environment
     * @return this builder
     * @throws NullPointerException if an element is null
     */
    public Builder inheritedEnv(@Nullable Collection<String> names) {
      if (names == null) {
        this.inheritedEnv = null;
      } else {
        TreeSet<String> sorted = new TreeSet<>(CodePoints.ORDER);
        sorted.addAll(names);
        this.inheritedEnv = List.copyOf(sorted);
      }
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
