package dev.kcshare.host.config;

/**
 * The shape of a configuration file, as named in output (see {@code docs/config.md}). Where its
 * servers live, how an entry maps onto command, args, env, cwd and disabled, which variables are
 * substituted and how non-string env values are read is up to the client that owns it ({@link
 * ClientFamily}).
 */
public enum ConfigFormat {
  /** Kiro's {@code mcp.json}: {@code mcpServers}; values used verbatim. */
  KIRO("kiro", "Kiro"),
  /** A Kiro agent file ({@code ~/.kiro/agents/*.json}): its {@code mcpServers}; verbatim. */
  KIRO_AGENT("kiro-agent", "Kiro"),
  /** Claude Desktop's {@code claude_desktop_config.json}: {@code mcpServers}; verbatim. */
  CLAUDE_DESKTOP("claude-desktop", "Claude Desktop"),
  /**
   * Claude Code's project {@code .mcp.json}: {@code mcpServers}; {@code ${VAR}} and {@code
   * ${VAR:-default}} expanded from the environment.
   */
  CLAUDE_CODE("claude-code", "Claude Code"),
  /**
   * Claude Code's {@code ~/.claude.json}: top-level {@code mcpServers} and {@code projects.<current
   * directory>.mcpServers}; verbatim.
   */
  CLAUDE_CODE_USER("claude-code-user", "Claude Code"),
  /**
   * Cursor's {@code mcp.json}: {@code mcpServers}; {@code ${env:NAME}}, {@code ${userHome}}, {@code
   * ${workspaceFolder}} and friends substituted.
   */
  CURSOR("cursor", "Cursor"),
  /**
   * VS Code's {@code mcp.json} (workspace, user, profiles): top-level {@code servers}; the Cursor
   * variables plus {@code ${input:ID}}, which is left unresolved and reported; {@code envFile};
   * number and null env values as VS Code reads them.
   */
  VSCODE("vscode", "VS Code"),
  /**
   * VS Code 1.101 and earlier: the {@code mcp.servers} section of the user {@code settings.json}.
   */
  VSCODE_SETTINGS("vscode-settings", "VS Code"),
  /**
   * Windsurf's {@code mcp_config.json}: {@code mcpServers}, {@code serverUrl}; {@code ${env:X}}.
   */
  WINDSURF("windsurf", "Windsurf"),
  /**
   * Cline's {@code cline_mcp_settings.json}: {@code mcpServers}, also the nested transport form.
   */
  CLINE("cline", "Cline"),
  /** Roo Code's {@code mcp_settings.json} and {@code .roo/mcp.json}; {@code ${env:NAME}}. */
  ROO("roo", "Roo Code"),
  /** Gemini CLI's {@code settings.json}: {@code mcpServers}; {@code $VAR}, {@code ${VAR:-x}}. */
  GEMINI("gemini", "Gemini CLI"),
  /** Codex CLI's {@code config.toml}: {@code [mcp_servers.NAME]} tables with {@code enabled}. */
  CODEX("codex", "Codex CLI"),
  /** Zed's {@code settings.json}: {@code context_servers} in any of its three entry forms. */
  ZED("zed", "Zed"),
  /** Continue's {@code config.yaml}: {@code mcpServers}, a list of named entries. */
  CONTINUE("continue", "Continue"),
  /** A Continue block file ({@code mcpServers/*.yaml}): one {@code mcpServers} entry. */
  CONTINUE_BLOCK("continue-block", "Continue"),
  /** A Continue JSON file ({@code mcpServers/*.json}): Claude's {@code mcpServers} shape. */
  CONTINUE_JSON("continue-json", "Continue"),
  /** Goose's {@code config.yaml}: {@code extensions} with {@code cmd}, {@code envs}, enabled. */
  GOOSE("goose", "Goose"),
  /** LM Studio's {@code mcp.json}: Cursor's {@code mcpServers} notation; verbatim. */
  LMSTUDIO("lmstudio", "LM Studio"),
  /** Amazon Q Developer CLI's {@code mcp.json}: {@code mcpServers}; {@code ${env:VAR}} in env. */
  AMAZONQ("amazonq", "Amazon Q Developer CLI"),
  /** An Amazon Q Developer CLI agent ({@code cli-agents/*.json}): its {@code mcpServers}. */
  AMAZONQ_AGENT("amazonq-agent", "Amazon Q Developer CLI"),
  /** opencode's {@code opencode.json(c)}: {@code mcp} with a command array and environment. */
  OPENCODE("opencode", "opencode"),
  /** mcphub's {@code mcp_settings.json}: {@code mcpServers} with {@code enabled}; verbatim. */
  MCPHUB("mcphub", "mcphub"),
  /**
   * 1MCP's {@code mcp.json}: static {@code mcpServers} and {@code mcpTemplates}; a template whose
   * launch holds a variable ({@code {{...}}}) cannot be measured as written.
   */
  ONE_MCP("1mcp", "1MCP"),
  /** Any other file with an {@code mcpServers} object; verbatim. */
  MCP_SERVERS("mcp-servers", "a named file"),
  /** The Kiro Crew configuration: its {@code mcp_gateway} section only. */
  KIROCREW("kirocrew", "Kiro Crew"),
  /** Definitions handed over in memory by an embedding gateway ({@code Shareability.servers}). */
  EMBEDDED("embedded", "the embedding gateway");

  private final String id;
  private final String client;

  ConfigFormat(String id, String client) {
    this.id = id;
    this.client = client;
  }

  /** The stable name used in output. */
  public String id() {
    return id;
  }

  /** The client that reads files of this format, as named in output ("VS Code"). */
  public String client() {
    return client;
  }

  /**
   * The format of a definition ({@link dev.kcshare.api.ConfiguredDefinition#format()} is its id).
   *
   * @throws IllegalArgumentException if no format has that id
   */
  public static ConfigFormat of(String id) {
    for (ConfigFormat f : values()) {
      if (f.id.equals(id)) {
        return f;
      }
    }
    throw new IllegalArgumentException("no config format " + id);
  }

  /**
   * How a client turns a non-string env value into the text its server sees, or refuses it.
   * Strongly typed clients (Codex, Zed, Goose, opencode, ...) refuse the file; VS Code and Gemini
   * CLI convert as JavaScript does; the other JSON formats keep the established rule of the Kiro
   * Crew gateway (Python).
   */
  enum EnvValues {
    /** Integers as decimal text, booleans {@code True}/{@code False}; anything else refused. */
    PYTHON,
    /** Numbers and booleans as JavaScript's {@code String(value)}; null unsets the variable. */
    VSCODE,
    /** Numbers and booleans as JavaScript's {@code String(value)}; anything else refused. */
    JAVASCRIPT,
    /** Strings only. */
    STRINGS
  }
}
