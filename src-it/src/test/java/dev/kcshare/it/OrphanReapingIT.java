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
 * included, before it does its own work. A daemon a server double-forked into a session of its own
 * ends with the pass, or with the next one when the pass was killed (its pass token). A registry
 * entry naming a process kcshare cannot prove is its own ends nothing and is dropped.
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

  /** Every running process whose command line carries this test's tag (its fixtures). */
  private List<Long> tagged() throws IOException {
    List<Long> out = new ArrayList<>();
    try (var entries = Files.newDirectoryStream(Path.of("/proc"))) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit) && ours(Long.parseLong(name))) {
          out.add(Long.parseLong(name));
        }
      }
    }
    return out;
  }

  /** Waits up to 20 s for processes with the tag to be gone; what still runs then. */
  private List<Long> taggedAfterSettling() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!tagged().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return tagged();
  }

  private void endTagged() throws IOException {
    for (long pid : tagged()) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private Process startMeasure(Path config, Path records) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(
                Kcshare.launcher().toString(),
                "measure",
                "--all",
                "--config",
                config.toString(),
                "--records-dir",
                records.toString(),
                "--timeout",
                "60")
            .directory(dir.toFile())
            .redirectInput(new File("/dev/null"))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(dir.resolve("killed.stderr").toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("KCSHARE_CDS", "0");
    return pb.start();
  }

  @Test
  void aDaemonAServerDoubleForkedEndsWithThePass() throws Exception {
    ItProcesses.assumeNode();
    Files.createDirectories(pids());
    Path config = config("forks", "stable", "--daemon", "1");
    try {
      Kcshare.Result r =
          Kcshare.run(
              dir,
              Map.of(),
              "",
              "measure",
              "--all",
              "--config",
              config.toString(),
              "--records-dir",
              dir.resolve("records").toString());
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      // Two servers, each with its daemon, were started; none of the four may outlive the pass.
      assertThat(recorded()).hasSize(4);
      assertThat(taggedAfterSettling()).as("processes left running after the pass").isEmpty();
    } finally {
      endTagged();
    }
  }

  @Test
  void aDaemonOfAPreflightEndsWithIt() throws Exception {
    ItProcesses.assumeNode();
    Files.createDirectories(pids());
    Path config = config("forks", "stable", "--daemon", "1");
    try {
      Kcshare.Result r =
          Kcshare.run(dir, Map.of(), "", "preflight", "forks", "--config", config.toString());
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(recorded()).hasSize(4);
      assertThat(taggedAfterSettling()).as("processes left running after the pre-flight").isEmpty();
    } finally {
      endTagged();
    }
  }

  @Test
  void aDaemonOfAKilledPassEndsWithTheNextPass() throws Exception {
    ItProcesses.assumeNode();
    Files.createDirectories(pids());
    Path hang =
        config("hang", "silent", "--ignore-eof", "1", "--ignore-sigterm", "1", "--daemon", "1");
    Path quick = config("quick", "stable");
    Path records = dir.resolve("records");
    Process kcshare = startMeasure(hang, records);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (recorded().size() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(recorded()).as("two servers and two daemons started").hasSize(4);
      assertThat(kcshare.toHandle().destroyForcibly()).isTrue();
      assertThat(kcshare.waitFor(30, TimeUnit.SECONDS)).isTrue();
      // Each daemon's middle child exits on its own once the daemon has written its pid; until
      // then it is a fifth tagged process.
      long settled = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (tagged().size() > 4 && System.nanoTime() < settled) {
        Thread.sleep(20);
      }
      assertThat(tagged()).as("the killed pass's servers and daemons still run").hasSize(4);

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
      assertThat(taggedAfterSettling()).as("processes left running after the next pass").isEmpty();
    } finally {
      kcshare.destroyForcibly();
      endTagged();
    }
  }

  @Test
  void aForgedEntryEndsNothingAndIsDropped() throws Exception {
    Path setsid = Path.of("/usr/bin/setsid");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(setsid), "no setsid");
    Path records = Files.createDirectories(dir.resolve("records"));
    // An unrelated process, leading a session and group of its own: this test's to clean up.
    Process victim =
        new ProcessBuilder(setsid.toString(), "sleep", "300")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(victim.pid()), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long start = Long.parseLong(fields[19]);
      long uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      long self = ProcessHandle.current().pid();
      // Its owner: this JVM's pid with another start time, i.e. a kcshare run that is gone. One
      // entry in the old form (no uid, no token), one with a token the victim does not carry.
      String entry =
          "{\"pid\": %d, \"startTime\": %d, \"group\": true, \"ownerPid\": %d,"
              + " \"ownerStartTime\": 1, %s}";
      Files.writeString(
          records.resolve("kcshare-processes.json"),
          "{\"processes\": ["
              + String.format(entry, victim.pid(), start, self, "\"owner\": \"x\"")
              + ", "
              + String.format(
                  entry,
                  victim.pid(),
                  start,
                  self,
                  "\"uid\": " + uid + ", \"token\": \"00112233445566778899aabbccddeeff\"")
              + "]}",
          StandardCharsets.UTF_8);

      Kcshare.Result r =
          Kcshare.run(
              dir,
              Map.of(),
              "",
              "hazards",
              "clear",
              "x",
              "--force",
              "--records-dir",
              records.toString());
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      // kcshare waits for what it signals to be gone before it exits: a signalled victim would be
      // dead (a zombie at most) by now.
      String state = Files.readString(Path.of("/proc", Long.toString(victim.pid()), "stat"));
      assertThat(state.substring(state.lastIndexOf(')') + 2))
          .as("the victim runs")
          .doesNotStartWith("Z");
      assertThat(records.resolve("kcshare-processes.json")).doesNotExist();
      assertThat(r.stderr().lines().filter(l -> l.contains("kcshare-processes.json")))
          .as(r.stderr())
          .hasSize(1)
          .allMatch(l -> l.startsWith("kcshare: warning: ") && l.contains("2 entries"));
    } finally {
      victim.destroyForcibly();
      victim.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
