package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.testing.NodeFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md#teardown with the server in a process group of its own (docs/design.md#spawning):
 * a descendant that left the tree before any snapshot could see it (a double fork, re-parented to
 * init) is still in the group, and the teardown ends it.
 */
final class ProcessGroupTeardownTest {
  @TempDir Path dir;

  @Test
  void aDoubleForkedGrandchildIsEndedWithTheGroup() throws Exception {
    FixtureServers.assumeNode();
    Assumptions.assumeTrue(ServerProcess.SETSID != null, "no setsid");
    Path pidFile = dir.resolve("escaped");
    String node = NodeFixture.node().orElseThrow().toString();
    String script =
        "( sleep 300 & echo $! >> '"
            + pidFile
            + "' ); exec '"
            + node
            + "' '"
            + FixtureServers.SCRIPT
            + "' stable";
    ServerDefinition server = ServerDefinition.stdio("escapes", "/bin/sh", List.of("-c", script));
    var result = FixtureServers.prober(15).preflight(server);
    assertThat(result.ran()).as(result.detail()).isTrue();
    List<String> pids = Files.readAllLines(pidFile);
    assertThat(pids).hasSize(2); // one per identity
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (String line : pids) {
      long pid = Long.parseLong(line.strip());
      while (running(pid) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      try {
        assertThat(running(pid)).as("escaped grandchild %d", pid).isFalse();
      } finally {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  private static boolean running(long pid) {
    ProcFs.Stat s = ProcFs.system().stat(pid);
    return s != null && s.isRunning();
  }
}
