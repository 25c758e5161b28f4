/**
 * kcshare on a host: the embedding facade a Java MCP gateway uses ({@code dev.kcshare.embed}) and
 * the values it takes and returns ({@code dev.kcshare.api}), the two exported packages; the library
 * packages between them (config discovery, the record files, the stdio prober, evaluation passes,
 * reports), which build on {@code dev.kcshare.api} and never on the facade; and the {@code kcshare}
 * commands on top. See {@code docs/embedding.md} and {@code docs/design.md#layers}.
 *
 * <p>Only jackson-core, slf4j-api and the core are needed at run time by an embedder. The command
 * layer's picocli and logback, and the TOML and YAML readers a client config in those formats
 * needs, are optional: the runnable jar carries them on its class path.
 */
module dev.kcshare.cli {
  requires transitive dev.kcshare.core;
  requires com.fasterxml.jackson.core;
  requires org.slf4j;
  requires static org.jspecify; // nullness annotations: needed neither at run time nor by consumers
  requires static info.picocli;
  requires static ch.qos.logback.classic;
  requires static ch.qos.logback.core;
  requires static com.fasterxml.jackson.dataformat.toml;
  requires static org.snakeyaml.engine;

  exports dev.kcshare.embed;
  exports dev.kcshare.api;
}
