/**
 * The example gateway as an embedder's own module: EmbedderIT compiles it, with {@code
 * src/test/java/dev/kcshare/it/gateway/ExampleGateway.java}, against the thin jars on the module
 * path, so it can reach nothing but what they export.
 */
module dev.kcshare.it.gateway {
  requires dev.kcshare.cli;
  requires com.fasterxml.jackson.core;
}
