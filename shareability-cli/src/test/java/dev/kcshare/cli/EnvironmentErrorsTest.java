package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.records.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Environment problems — a records directory that is a file, an unwritable or full disk, a path
 * that cannot hold captures or metrics — are one plain line naming the path and the reason in
 * words, never a Java class name or a stack trace at any verbosity; {@code -vv} adds the causes in
 * words. A path given on the command line that cannot be used exits 2, any other 1. Files already
 * there stay byte-identical.
 */
final class EnvironmentErrorsTest {
  private static final String LEDGER =
      "{\"schema\": 1, \"servers\": {\"kept\": {\"identities\": {\"\": {\"codes\":"
          + " [\"unroutable_server_request\"], \"count\": 1, \"lastSeen\": 1.0}}}}}";

  @TempDir Path dir;

  @AfterEach
  void noFault() {
    AtomicFiles.simulateFault(null);
  }

  private CliRun run(Map<String, String> env, String... args) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("HOME", dir.resolve("home").toString());
    return CliRun.run(dir, "", all, args);
  }

  private CliRun run(String... args) {
    return run(Map.of(), args);
  }

  /** No class name, no stack trace, no exception word: plain words only. */
  private static void assertPlain(String stderr) {
    assertThat(stderr)
        .doesNotContain("Exception")
        .doesNotContain("java.")
        .doesNotContain("\tat ")
        .doesNotContain("internal error");
  }

  @Test
  void aRecordsDirectoryThatIsAFileIsOneLineAndExitsTwoWhenGiven() throws Exception {
    Path file = Files.writeString(dir.resolve("records"), "not a directory\n");
    CliRun given = run("hazards", "clear", "s", "--force", "--records-dir", file.toString());
    assertThat(given.exitCode()).isEqualTo(2);
    assertThat(given.stderr())
        .isEqualTo(
            "kcshare: cannot write "
                + file.resolve("observed-hazards.json")
                + ": "
                + file
                + ": not a directory\n");
    assertPlain(given.stderr());
    assertThat(Files.readString(file)).isEqualTo("not a directory\n");

    // The same directory from the environment is not a usage error: exit 1, same line.
    CliRun fromEnv =
        run(Map.of("KCSHARE_RECORDS_DIR", file.toString()), "hazards", "clear", "s", "--force");
    assertThat(fromEnv.exitCode()).isEqualTo(1);
    assertThat(fromEnv.stderr()).isEqualTo(given.stderr());

    // -vv: the same line, then the causes in words; still no class name, no stack trace.
    CliRun verbose =
        run("-vv", "hazards", "clear", "s", "--force", "--records-dir", file.toString());
    assertThat(verbose.exitCode()).isEqualTo(2);
    assertThat(verbose.stderr()).startsWith(given.stderr());
    assertThat(verbose.stderr()).contains("  because: " + file + ": not a directory");
    assertPlain(verbose.stderr());
  }

  @Test
  void aFullDiskIsOneLineAndTheLedgerStaysByteIdentical() throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    Path ledger = Files.writeString(records.resolve("observed-hazards.json"), LEDGER);
    AtomicFiles.simulateFault(
        (target, tmp) -> {
          if (target.startsWith(dir)) {
            throw new FileSystemException(tmp.toString(), null, "No space left on device");
          }
        });
    CliRun r =
        run("-vv", "hazards", "clear", "kept", "--force", "--records-dir", records.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr())
        .startsWith("kcshare: cannot write " + ledger + ": no space left on device\n");
    assertPlain(r.stderr());
    assertThat(Files.readString(ledger)).isEqualTo(LEDGER);
    try (Stream<Path> files = Files.list(records)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no temporary file left behind")
          .containsExactlyInAnyOrder("observed-hazards.json", "observed-hazards.json.lock");
    }
  }

  @Test
  void permissionDeniedIsOneLine() throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    Path ledger = Files.writeString(records.resolve("observed-hazards.json"), LEDGER);
    AtomicFiles.simulateFault(
        (target, tmp) -> {
          if (target.startsWith(dir)) {
            throw new AccessDeniedException(tmp.toString());
          }
        });
    CliRun r =
        run(
            Map.of("KCSHARE_RECORDS_DIR", records.toString()),
            "hazards",
            "clear",
            "kept",
            "--force");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr()).isEqualTo("kcshare: cannot write " + ledger + ": permission denied\n");
    assertThat(Files.readString(ledger)).isEqualTo(LEDGER);
  }

  @Test
  void aReadOnlyDirectoryForAnOrdinaryUser() throws Exception {
    Assumptions.assumeFalse(
        "root".equals(System.getProperty("user.name")), "root writes read-only directories");
    Path records = Files.createDirectories(dir.resolve("records"));
    Path ledger = Files.writeString(records.resolve("observed-hazards.json"), LEDGER);
    Files.writeString(records.resolve("observed-hazards.json.lock"), "");
    Files.setPosixFilePermissions(records, PosixFilePermissions.fromString("r-x------"));
    try {
      CliRun r = run("hazards", "clear", "kept", "--force", "--records-dir", records.toString());
      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.stderr())
          .startsWith("kcshare: cannot write " + ledger + ": ")
          .endsWith("permission denied\n");
      assertThat(Files.readString(ledger)).isEqualTo(LEDGER);
    } finally {
      Files.setPosixFilePermissions(records, PosixFilePermissions.fromString("rwx------"));
    }
  }

  /** A real full disk: a 64 KiB tmpfs, where this process may mount one (root on Linux). */
  @Test
  void aRealFullTmpfs() throws Exception {
    Path mount = Files.createDirectories(dir.resolve("tiny"));
    Assumptions.assumeTrue(
        // mode=0700: a tmpfs is 1777 by default, a directory kcshare refuses to write.
        exec("mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", mount.toString()) == 0,
        "cannot mount a tmpfs here");
    try {
      Path ledger = Files.writeString(mount.resolve("observed-hazards.json"), LEDGER);
      try (var out = Files.newOutputStream(mount.resolve("filler"))) {
        byte[] block = new byte[4096];
        while (true) {
          out.write(block);
          out.flush();
        }
      } catch (IOException full) {
        // the disk is full now
      }
      CliRun r = run("hazards", "clear", "kept", "--force", "--records-dir", mount.toString());
      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.stderr())
          .isEqualTo("kcshare: cannot write " + ledger + ": no space left on device\n");
      assertThat(Files.readString(ledger)).isEqualTo(LEDGER);
    } finally {
      exec("umount", mount.toString());
    }
  }

  @Test
  void capturesAndMetricsThatCannotBeWrittenAreUsageErrors() throws Exception {
    Path blocker = Files.writeString(dir.resolve("blocker"), "x");
    Path config = dir.resolve("cfg.json");
    Files.writeString(
        config, "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\"}}}", StandardCharsets.UTF_8);
    Path metrics = blocker.resolve("kcshare.prom");
    CliRun assess =
        run(
            "assess",
            "--all",
            "--config",
            config.toString(),
            "--records-dir",
            dir.resolve("r").toString(),
            "--metrics",
            metrics.toString());
    assertThat(assess.exitCode()).isEqualTo(2);
    assertThat(assess.stderr())
        .endsWith(
            "kcshare: cannot write metrics to " + metrics + ": " + blocker + ": not a directory\n");
    assertPlain(assess.stderr());

    Path captures = blocker.resolve("captures");
    CliRun preflight =
        run(
            "preflight",
            "s",
            "--config",
            config.toString(),
            "--timeout",
            "5",
            "--capture",
            captures.toString());
    assertThat(preflight.exitCode()).isEqualTo(2);
    assertThat(preflight.stderr()).startsWith("kcshare: cannot write " + captures);
    assertThat(preflight.stderr()).endsWith(": " + blocker + ": not a directory\n");
    assertPlain(preflight.stderr());
  }

  private static int exec(String... command) throws Exception {
    Process p =
        new ProcessBuilder(List.of(command))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }
}
