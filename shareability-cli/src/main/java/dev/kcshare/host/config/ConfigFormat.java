package dev.kcshare.host.config;

/**
 * The shape of a configuration file, which decides where its servers live and which variables are
 * substituted in them (see {@code docs/config.md}).
 */
public enum ConfigFormat {
  /** Kiro's {@code mcp.json}: {@code mcpServers}; values used verbatim. */
  KIRO("kiro"),
  /** A Kiro agent file ({@code ~/.kiro/agents/*.json}): its {@code mcpServers}; verbatim. */
  KIRO_AGENT("kiro-agent"),
  /** Claude Desktop's {@code claude_desktop_config.json}: {@code mcpServers}; verbatim. */
  CLAUDE_DESKTOP("claude-desktop"),
  /**
   * Claude Code's project {@code .mcp.json}: {@code mcpServers}; {@code ${VAR}} and {@code
   * ${VAR:-default}} expanded from the environment.
   */
  CLAUDE_CODE("claude-code"),
  /**
   * Claude Code's {@code ~/.claude.json}: top-level {@code mcpServers} and {@code projects.<current
   * directory>.mcpServers}; verbatim.
   */
  CLAUDE_CODE_USER("claude-code-user"),
  /**
   * Cursor's {@code mcp.json}: {@code mcpServers}; {@code ${env:NAME}}, {@code ${userHome}}, {@code
   * ${workspaceFolder}} and friends substituted.
   */
  CURSOR("cursor"),
  /**
   * VS Code's {@code .vscode/mcp.json}: top-level {@code servers}; the Cursor variables plus {@code
   * ${input:ID}}, which is left unresolved and reported.
   */
  VSCODE("vscode"),
  /** Any other file with an {@code mcpServers} object; verbatim. */
  MCP_SERVERS("mcp-servers"),
  /** The Kiro Crew configuration: its {@code mcp_gateway} section only. */
  KIROCREW("kirocrew"),
  /** Definitions handed over in memory by an embedding gateway ({@code Shareability.servers}). */
  EMBEDDED("embedded");

  private final String id;

  ConfigFormat(String id) {
    this.id = id;
  }

  /** The stable name used in output. */
  public String id() {
    return id;
  }

  /** Whether the format keeps its servers in a top-level {@code servers} object (VS Code). */
  boolean usesServersMember() {
    return this == VSCODE;
  }

  /** Which substitution applies to the server entries of this format. */
  Substitution.Style substitution() {
    return switch (this) {
      case CLAUDE_CODE -> Substitution.Style.SHELL;
      case CURSOR -> Substitution.Style.EDITOR;
      case VSCODE -> Substitution.Style.EDITOR_WITH_INPUTS;
      default -> Substitution.Style.NONE;
    };
  }
}
