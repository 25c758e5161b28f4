package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kcshare terminated mid-pre-flight (SIGTERM to its JVM) still runs the teardown ladder for every
 * live server before it exits (docs/design.md#teardown).
 */
final class ShutdownTeardownTest {
  @BeforeAll
  static void requireNode() {
    FixtureServers.assumeNode();
  }

  @Test
  void terminatingKcshareTearsDownLiveServers(@TempDir Path dir) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    // Never answers and ignores stdin EOF: without the ladder it would outlive kcshare.
    ServerDefinition silent = f.server("silent", "--ignore-eof", "1");
    Files.writeString(
        dir.resolve("cfg.json"),
        JsonWriter.pretty(
            Map.of(
                "mcpServers", Map.of("silent", Map.of("command", "node", "args", silent.args())))),
        StandardCharsets.UTF_8);
    Process kcshare =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.kcshare.cli.Main",
                "preflight",
                "silent",
                "--config",
                dir.resolve("cfg.json").toString(),
                "--timeout",
                "120")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("kcshare.out").toFile())
            .start();
    try {
      while (f.pids().size() < 2) {
        assertThat(kcshare.isAlive()).as("kcshare exited early").isTrue();
        Thread.sleep(20);
      }
      kcshare.destroy(); // SIGTERM: the JVM runs its shutdown hooks
      assertThat(kcshare.waitFor(30, TimeUnit.SECONDS)).isTrue();
      f.assertAllGone();
    } finally {
      kcshare.destroyForcibly();
    }
  }
}
