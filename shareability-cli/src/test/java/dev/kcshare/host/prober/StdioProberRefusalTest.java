package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.json.JsonWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Servers that are never spawned, or that the OS refuses to start (docs/design.md#spawning). */
final class StdioProberRefusalTest {
  @TempDir Path dir;

  private PreflightResult preflight(ServerDefinition server, Map<String, String> env)
      throws InterruptedException {
    return StdioProber.create(env, dir, ProbeOptions.defaults(), ProcessPermits.defaults())
        .preflight(server);
  }

  private PreflightResult preflight(ServerDefinition server) throws InterruptedException {
    return preflight(server, Map.of("PATH", "/usr/bin:/bin"));
  }

  private static void assertRefused(PreflightResult r, String detail) {
    assertThat(r).isEqualTo(new PreflightResult(false, false, detail, null, "", null));
    assertThat(JsonWriter.compact(r.toReportJson()))
        .isEqualTo(
            "{\"ran\":false,\"callerSensitive\":false,\"reasons\":[\"preflight_unavailable\"],"
                + "\"detail\":"
                + JsonWriter.compact(detail)
                + ",\"era\":null,\"reportedVersion\":\"\"}");
  }

  @Test
  void disabledServerIsNeverSpawned() throws Exception {
    Path marker = dir.resolve("spawned");
    ServerDefinition s =
        ServerDefinition.stdio("d", "/bin/sh", List.of("-c", "touch " + marker)).toBuilder()
            .disabled(true)
            .build();
    assertRefused(preflight(s), "disabled");
    assertThat(marker).doesNotExist();
  }

  @Test
  void serverWithoutCommand() throws Exception {
    assertRefused(
        preflight(ServerDefinition.builder("h").url("https://x").type("http").build()),
        "no command");
  }

  @Test
  void aDefinitionWhoseTypeNamesAnotherTransportIsNeverSpawnedEvenWithACommand() throws Exception {
    // the pass, the config reader and the prober share one rule: the declared type wins
    Path marker = dir.resolve("spawned");
    ServerDefinition http =
        ServerDefinition.builder("h")
            .command("/bin/sh")
            .args(List.of("-c", "touch " + marker))
            .type("http")
            .build();
    assertRefused(preflight(http), "no command");
    assertThat(marker).doesNotExist();
  }

  @Test
  void commandNotFoundInTheChildsPath() throws Exception {
    assertRefused(
        preflight(ServerDefinition.stdio("n", "kcshare-no-such-command", List.of())),
        "command not found: kcshare-no-such-command");
    // The declared PATH wins over kcshare's: sh exists in kcshare's PATH, not in the declared one.
    ServerDefinition declared =
        ServerDefinition.stdio("p", "sh", List.of()).toBuilder()
            .env(Map.of("PATH", dir.toString()))
            .build();
    assertRefused(preflight(declared), "command not found: sh");
    assertRefused(
        preflight(ServerDefinition.stdio("none", "sh", List.of()), Map.of()),
        "command not found: sh");
  }

  @Test
  void commandFoundOnlyInTheDeclaredPath() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path server = bin.resolve("my-server");
    Files.writeString(server, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(server, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> env = new HashMap<>();
    env.put("PATH", "/usr/bin:/bin");
    ServerDefinition s =
        ServerDefinition.stdio("m", "my-server", List.of()).toBuilder()
            .env(Map.of("PATH", bin + ":/bin"))
            .build();
    assertRefused(preflight(s, env), "no response (process exited with status 0)");
  }

  @Test
  void pathWithSlashMustBeAnExecutableFile() throws Exception {
    Files.writeString(dir.resolve("plain.sh"), "#!/bin/sh\n");
    assertRefused(
        preflight(ServerDefinition.stdio("x", "./plain.sh", List.of())),
        "command not found: ./plain.sh");
    assertRefused(preflight(ServerDefinition.stdio("x", "./", List.of())), "command not found: ./");
  }

  @Test
  void osRefusalIsSpawnFailed() throws Exception {
    Path badInterpreter = dir.resolve("bad.sh");
    Files.writeString(badInterpreter, "#!/kcshare/no/such/interpreter\n");
    Files.setPosixFilePermissions(badInterpreter, PosixFilePermissions.fromString("rwx------"));
    assertRefused(
        preflight(ServerDefinition.stdio("b", badInterpreter.toString(), List.of())),
        "spawn failed: No such file or directory");
    assertRefused(
        preflight(
            ServerDefinition.stdio("c", "/bin/sh", List.of()).toBuilder()
                .cwd(dir.resolve("gone").toString())
                .build()),
        "spawn failed: No such file or directory");
  }
}
