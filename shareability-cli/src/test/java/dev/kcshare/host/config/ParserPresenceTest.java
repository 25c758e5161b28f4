package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * An embedder without the optional TOML and YAML readers gets such a file reported, naming what to
 * add, instead of a {@link NoClassDefFoundError} from {@code hostServers()}.
 */
final class ParserPresenceTest {
  /** Sees the JDK only, as an embedder's class path without the optional readers would. */
  private static final ClassLoader JDK_ONLY = ClassLoader.getPlatformClassLoader();

  @Test
  void aMissingReaderIsReportedWithItsArtifact() {
    assertThat(ParserPresence.missing(FileSyntax.TOML, JDK_ONLY))
        .isEqualTo(
            "a TOML file, and kcshare's TOML reader is not on the class path: add"
                + " com.fasterxml.jackson.dataformat:jackson-dataformat-toml to read it"
                + " (docs/embedding.md)");
    assertThat(ParserPresence.missing(FileSyntax.YAML, JDK_ONLY))
        .contains("add org.snakeyaml:snakeyaml-engine");
    assertThat(ParserPresence.missing(FileSyntax.JSON, JDK_ONLY)).isNull();
  }

  @Test
  void presentReadersReadAsBefore() {
    ClassLoader here = ParserPresenceTest.class.getClassLoader();
    assertThat(ParserPresence.missing(FileSyntax.TOML, here)).isNull();
    assertThat(ParserPresence.missing(FileSyntax.YAML, here)).isNull();
    assertThat(ParserPresence.missing(FileSyntax.TOML)).isNull();
  }
}
