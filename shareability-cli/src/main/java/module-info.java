/**
 * kcshare on a host: the embedding facade a Java MCP gateway uses ({@code dev.kcshare.embed}, the
 * only exported package), the library packages under it (config discovery, the record files, the
 * stdio prober, evaluation passes, reports) and the {@code kcshare} commands on top. See {@code
 * docs/embedding.md}.
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
}
