package dev.kcshare.host.config;

/** How a configuration file is written: JSON with comments, TOML or YAML. */
enum FileSyntax {
  /** JSON; comments and trailing commas allowed (JSONC). */
  JSON("JSON"),
  /** TOML 1.0 (Codex). */
  TOML("TOML"),
  /** YAML 1.2, core schema (Continue, Goose). */
  YAML("YAML");

  private final String label;

  FileSyntax(String label) {
    this.label = label;
  }

  /** The name used in messages: {@code not valid TOML}. */
  String label() {
    return label;
  }
}
