package dev.kcshare.host.config;

import org.jspecify.annotations.Nullable;

/**
 * Whether the reader of a file syntax is on the class path. The TOML and YAML readers are optional
 * dependencies (docs/embedding.md): an embedder that leaves them out gets such a file reported as
 * skipped with what to add, never a {@link NoClassDefFoundError}.
 */
final class ParserPresence {
  private ParserPresence() {}

  private static final String TOML_CLASS = "com.fasterxml.jackson.dataformat.toml.TomlFactory";
  private static final String TOML_ARTIFACT =
      "com.fasterxml.jackson.dataformat:jackson-dataformat-toml";
  private static final String TOML_NEEDS = "com.fasterxml.jackson.databind.ObjectMapper";
  private static final String YAML_CLASS = "org.snakeyaml.engine.v2.api.Load";
  private static final String YAML_ARTIFACT = "org.snakeyaml:snakeyaml-engine";

  private static final class Here {
    static final @Nullable String TOML = missing(FileSyntax.TOML, loader());
    static final @Nullable String YAML = missing(FileSyntax.YAML, loader());

    private static @Nullable ClassLoader loader() {
      return ParserPresence.class.getClassLoader();
    }
  }

  /** Why files in {@code syntax} cannot be read here, or null when they can. */
  static @Nullable String missing(FileSyntax syntax) {
    return switch (syntax) {
      case JSON -> null;
      case TOML -> Here.TOML;
      case YAML -> Here.YAML;
    };
  }

  /** Why files in {@code syntax} cannot be read with the classes {@code loader} sees, or null. */
  static @Nullable String missing(FileSyntax syntax, @Nullable ClassLoader loader) {
    String name;
    String artifact;
    switch (syntax) {
      case TOML -> {
        name = TOML_CLASS;
        artifact = TOML_ARTIFACT;
      }
      case YAML -> {
        name = YAML_CLASS;
        artifact = YAML_ARTIFACT;
      }
      default -> {
        return null;
      }
    }
    try {
      Class.forName(name, false, loader);
      if (syntax == FileSyntax.TOML) {
        // The TOML module parses with Jackson's databind, which Maven brings with it.
        Class.forName(TOML_NEEDS, false, loader);
      }
      return null;
    } catch (ClassNotFoundException | LinkageError e) {
      return "a "
          + syntax.label()
          + " file, and kcshare's "
          + syntax.label()
          + " reader is not on the class path: add "
          + artifact
          + " to read it (docs/embedding.md)";
    }
  }
}
