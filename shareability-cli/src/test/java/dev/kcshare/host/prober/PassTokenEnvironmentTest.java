package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.KcshareThreads;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every spawned server carries its pass's token as {@code KCSHARE_PASS_TOKEN}, over any value it
 * would inherit or declare; the launch (from which identities and output are made) never holds it.
 */
final class PassTokenEnvironmentTest {
  private static final String TOKEN = "0123456789abcdef0123456789abcdef";

  @TempDir Path dir;

  @Test
  void theServerFindsThePassTokenInItsEnvironment() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh");
    Path out = dir.resolve("env");
    Launch launch =
        new Launch(
            List.of("/bin/sh", "-c", "env > \"$OUT\""),
            Map.of("PATH", "/usr/bin:/bin", "OUT", out.toString(), PassToken.VARIABLE, "declared"),
            dir);
    SpawnWatcher watcher =
        new SpawnWatcher() {
          @Override
          public String passToken() {
            return TOKEN;
          }

          @Override
          public void spawned(ProcessHandle process, boolean ownGroup) {}

          @Override
          public void ended(ProcessHandle process) {}
        };
    ServerProcess server =
        ServerProcess.start(launch, ProbeOptions.defaults(), watcher, KcshareThreads.defaults());
    server.exitsWithin(30_000);
    server.tearDown();
    List<String> env = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(env)
        .contains(PassToken.VARIABLE + "=" + TOKEN)
        .doesNotContain(PassToken.VARIABLE + "=declared");
    assertThat(env.stream().filter(l -> l.startsWith(PassToken.VARIABLE + "="))).hasSize(1);
    assertThat(launch.environment()).containsEntry(PassToken.VARIABLE, "declared");
  }
}
