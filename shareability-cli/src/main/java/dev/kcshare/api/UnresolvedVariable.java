package dev.kcshare.api;

/**
 * A variable reference in a server definition that kcshare could not substitute the way the
 * configuring tool would at launch. The definition keeps the literal reference (or, for an unset
 * editor {@code ${env:NAME}}, the empty string the editor would use), so spawning it is not what
 * the tool would spawn. Immutable; kcshare implements it (two are equal when their components are),
 * and later versions may add accessors.
 */
public interface UnresolvedVariable {
  /**
   * The configured server name.
   *
   * @return the name
   */
  String server();

  /**
   * The file as displayed.
   *
   * @return the file
   */
  String file();

  /**
   * JSON pointer of the string that holds the reference.
   *
   * @return the pointer
   */
  String pointer();

  /**
   * The reference as written, for example {@code ${input:api-key}}.
   *
   * @return the reference
   */
  String reference();

  /**
   * Why it stayed unresolved.
   *
   * @return the reason
   */
  Reason reason();

  /** Why a reference stayed unresolved. */
  enum Reason {
    /** VS Code prompts the user for {@code ${input:ID}}; kcshare cannot. Left as written. */
    INPUT("input", "VS Code prompts for this value; kcshare cannot, so it stays as written"),
    /**
     * The environment variable is not set for kcshare: an editor reference became the empty string,
     * as the editor does; a Claude Code reference without a default stays as written.
     */
    UNSET("unset", "the environment variable is not set for kcshare"),
    /** A variable kcshare does not substitute. Left as written. */
    UNSUPPORTED("unsupported", "kcshare does not substitute this variable, so it stays as written"),
    /**
     * A secret the client keeps where kcshare does not look (Goose's secret store, a Continue
     * secret in none of its {@code .env} files). Left as written, or left out of the env.
     */
    SECRET(
        "secret",
        "the value comes from the client's secret store, which kcshare does not read; it stays as"
            + " written (an env name is declared without its value)"),
    /**
     * A template variable the gateway renders for each client from that client's context (1MCP's
     * {@code mcpTemplates}): the entry cannot be measured as written, gets no execution identity
     * and is never spawned.
     */
    TEMPLATE(
        "template",
        "1MCP renders this template for each client from that client's context; kcshare cannot"
            + " measure it as written, so it gets no identity and is never spawned");

    private final String id;
    private final String explanation;

    Reason(String id, String explanation) {
      this.id = id;
      this.explanation = explanation;
    }

    /**
     * The stable name used in output ({@code input}, {@code unset}, ...).
     *
     * @return the id
     */
    public String id() {
      return id;
    }

    /**
     * One line for operators.
     *
     * @return the explanation
     */
    public String explanation() {
      return explanation;
    }
  }
}
