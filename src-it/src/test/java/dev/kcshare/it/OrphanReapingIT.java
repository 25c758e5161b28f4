package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md#process-registry: {@code kcshare measure} is SIGKILLed while its servers — which
 * ignore stdin EOF and SIGTERM, one with a grandchild — are mid-exchange; they keep running as
 * orphans. The next kcshare pass on the same records directory ends all of them, grandchild
 * included, before it does its own work.
 */
final class OrphanReapingIT {
  @TempDir Path dir;
  private final String tag = UUID.randomUUID().toString();

  private Path pids() {
    return dir.resolve("pids");
  }

  private List<Long> recorded() throws IOException {
    Path file = pids().resolve("pids");
    if (!Files.exists(file)) {
      return List.of();
    }
    List<Long> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (!line.isBlank()) {
        out.add(Long.parseLong(line.strip()));
      }
    }
    return out;
  }

  /** Whether pid runs one of this test's fixture processes (its command line carries our tag). */
  private boolean ours(long pid) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    if (h.isEmpty() || !h.get().isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      if (stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z")) {
        return false;
      }
      return new String(
              Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
              StandardCharsets.ISO_8859_1)
          .contains(tag);
    } catch (IOException e) {
      return false;
    }
  }

  private Path config(String name, String mode, String... flags) throws IOException {
    StringBuilder args = new StringBuilder();
    args.append(Json.write(ItProcesses.fixture().toString()))
        .append(", \"")
        .append(mode)
        .append('"');
    for (String f : flags) {
      args.append(", ").append(Json.write(f));
    }
    args.append(", \"--pid-dir\", ")
        .append(Json.write(pids().toString()))
        .append(", \"--tag\", \"")
        .append(tag)
        .append('"');
    Path file = dir.resolve(name + ".json");
    Files.writeString(
        file,
        "{\"mcpServers\": {\"" + name + "\": {\"command\": \"node\", \"args\": [" + args + "]}}}",
        StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void theNextPassEndsWhatAKilledPassLeftRunning() throws Exception {
    ItProcesses.assumeNode();
    Files.createDirectories(pids());
    Path hang =
        config("hang", "silent", "--ignore-eof", "1", "--ignore-sigterm", "1", "--grandchild", "1");
    Path quick = config("quick", "stable");
    Path records = dir.resolve("records");

    List<String> command =
        new ArrayList<>(
            List.of(
                Kcshare.launcher().toString(),
                "measure",
                "--all",
                "--config",
                hang.toString(),
                "--records-dir",
                records.toString(),
                "--timeout",
                "60"));
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectInput(new File("/dev/null"))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(dir.resolve("killed.stderr").toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("KCSHARE_CDS", "0");
    Process kcshare = pb.start();
    List<Long> orphans = List.of();
    try {
      // Both identities and their grandchildren are up.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (recorded().size() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(recorded()).as("two servers and two grandchildren started").hasSize(4);
      assertThat(records.resolve("kcshare-processes.json"))
          .as("the pass records what it spawned while it runs")
          .exists();

      // SIGKILL: no shutdown hook, no teardown.
      assertThat(kcshare.toHandle().destroyForcibly()).isTrue();
      assertThat(kcshare.waitFor(30, TimeUnit.SECONDS)).isTrue();
      Thread.sleep(500);
      orphans = recorded();
      for (long pid : orphans) {
        assertThat(ours(pid)).as("process %d outlives the killed pass", pid).isTrue();
      }

      // The next pass on the same records directory, measuring something else entirely.
      Kcshare.Result next =
          Kcshare.run(
              dir,
              Map.of(),
              "",
              "measure",
              "--all",
              "--config",
              quick.toString(),
              "--records-dir",
              records.toString());
      assertThat(next.exitCode()).as(next.stderr()).isZero();
      for (long pid : orphans) {
        assertThat(ours(pid)).as("process %d after the next pass", pid).isFalse();
      }
      assertThat(records.resolve("kcshare-processes.json"))
          .as("nothing is left to record once the pass is over")
          .doesNotExist();
    } finally {
      kcshare.destroyForcibly();
      for (long pid : recorded()) {
        if (ours(pid)) {
          ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
  }
}
