package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packaged launcher against odd record files (docs/design.md#read-tolerance) and private
 * captures: a named pipe nobody writes, links to {@code /dev/zero} and {@code /dev/urandom} in
 * place of both record files — every read-only command finishes promptly, reads them as empty and
 * says why on stderr; {@code preflight --capture} under {@code umask 000} still creates 0700
 * directories and 0600 files.
 */
final class OddFilesIT {
  @TempDir Path dir;

  static Stream<String> kinds() {
    return Stream.of("named pipe", "/dev/zero", "/dev/urandom");
  }

  private void make(String kind, Path file) throws Exception {
    if (kind.equals("named pipe")) {
      Process p = new ProcessBuilder("mkfifo", file.toString()).start();
      Assumptions.assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo");
    } else {
      Assumptions.assumeTrue(Files.exists(Path.of(kind)), kind);
      Files.createSymbolicLink(file, Path.of(kind));
    }
  }

  private Kcshare.Result timed(String... args) throws Exception {
    long start = System.nanoTime();
    Kcshare.Result r = Kcshare.run(dir, Map.of("HOME", dir.resolve("home").toString()), "", args);
    // A hang is what is tested, not speed: the bound only has to separate the two.
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start))
        .as("kcshare %s", List.of(args))
        .isLessThan(60);
    return r;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void readOnlyCommandsFinishAndSayWhy(String kind) throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    make(kind, records.resolve("observed-hazards.json"));
    make(kind, records.resolve("shareability-verdicts.json"));
    Path config = dir.resolve("cfg.json");
    Files.writeString(
        config, "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\"}}}", StandardCharsets.UTF_8);
    String why =
        kind.equals("named pipe")
            ? "not a regular file (a named pipe)"
            : "not a regular file (a character device)";

    Kcshare.Result list = timed("hazards", "list", "--json", "--records-dir", records.toString());
    assertThat(list.exitCode()).as(list.stderr()).isZero();
    assertThat(list.stdout()).isEqualTo("{}\n");
    assertThat(list.stderr()).contains("observed-hazards.json\" as empty: " + why);

    Kcshare.Result assess =
        timed(
            "assess", "--all", "--config", config.toString(), "--records-dir", records.toString());
    assertThat(assess.exitCode()).as(assess.stderr()).isZero();
    assertThat(assess.stderr()).contains("shareability-verdicts.json\" as empty: " + why);
    assertThat(assess.stderr()).doesNotContain("Exception", "OutOfMemory");
    // One voice: every warning reads like kcshare's own lines, with no timestamp or class name.
    for (Kcshare.Result r : new Kcshare.Result[] {list, assess}) {
      assertThat(r.stderr().lines()).isNotEmpty().allMatch(l -> l.startsWith("kcshare: warning: "));
    }

    Kcshare.Result shown = timed("records", "--records-dir", records.toString());
    assertThat(shown.exitCode()).as(shown.stderr()).isZero();
    assertThat(shown.stdout()).contains("read as empty: " + why);
  }

  /**
   * Configuration files obey the same rule (docs/config.md#errors-and-skipped-files): a named pipe,
   * a device or a 2 GB sparse file where a client keeps its configuration is skipped with a warning
   * at once, never opened or read; named with {@code --config}, it is bad input (exit 2, one line).
   * The timeout is this test's own: a reader that opened the pipe would wait for a writer forever.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("configKinds")
  @Timeout(value = 100, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void oddConfigFilesAreSkippedOrRefusedWithoutBeingRead(String kind) throws Exception {
    Path discovered = Files.createDirectories(dir.resolve("home/.cursor")).resolve("mcp.json");
    Path named = dir.resolve("named.json");
    String why;
    if (kind.equals("sparse 2 GB file")) {
      for (Path p : List.of(discovered, named)) {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
          f.setLength(2L * 1024 * 1024 * 1024);
        }
      }
      why = "larger than 256 MiB (2147483648 bytes)";
    } else {
      make(kind, discovered);
      make(kind, named);
      why =
          kind.equals("named pipe")
              ? "not a regular file (a named pipe)"
              : "not a regular file (a character device)";
    }
    Files.writeString(
        dir.resolve(".mcp.json"),
        "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\"}}}",
        StandardCharsets.UTF_8);

    Kcshare.Result listed = timed("config");
    assertThat(listed.exitCode()).as(listed.stderr()).isZero();
    assertThat(listed.stderr())
        .contains(
            "kcshare: warning: ~/.cursor/mcp.json: "
                + why
                + " (file skipped; its servers are left out)")
        .doesNotContain("Exception", "OutOfMemory");
    assertThat(listed.stdout()).contains("/bin/true");

    Kcshare.Result refused = timed("assess", "--all", "--config", named.toString());
    assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(2);
    assertThat(refused.stdout()).isEmpty();
    assertThat(refused.stderr()).contains(named + ": " + why).doesNotContain("Exception");
  }

  /**
   * Every parser has a depth limit (docs/security.md#parser-depth): a workspace file 100,000 levels
   * deep, as a cloned repository can carry it, is skipped with the warning every bad file gets,
   * naming it, and the other servers are still listed; no stack trace, no exit 1.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("deepFiles")
  void deeplyNestedConfigFilesAreSkippedWithAWarning(String where, String text) throws Exception {
    Path file = dir.resolve(where);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve(".mcp.json"),
        "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\"}}}",
        StandardCharsets.UTF_8);

    for (String[] args : List.of(new String[] {"config"}, new String[] {"config", "--json"})) {
      Kcshare.Result listed = timed(args);
      assertThat(listed.exitCode()).as(listed.stderr()).isZero();
      assertThat(listed.stderr())
          .contains("kcshare: warning: ")
          .contains(where)
          .contains("file skipped")
          .doesNotContain("Exception", "Error", "\tat ");
      assertThat(listed.stderr().lines().count()).isLessThan(5);
      assertThat(listed.stdout()).contains("/bin/true");
    }
  }

  static Stream<org.junit.jupiter.params.provider.Arguments> deepFiles() {
    int n = 100_000;
    return Stream.of(
        org.junit.jupiter.params.provider.Arguments.of(
            ".continue/mcpServers/evil.yaml", "[".repeat(n) + "]".repeat(n) + "\n"),
        org.junit.jupiter.params.provider.Arguments.of(
            ".continue/mcpServers/block.yaml", "a:\n" + "- ".repeat(n) + "x\n"),
        org.junit.jupiter.params.provider.Arguments.of(
            ".cursor/mcp.json", "{\"mcpServers\":" + "[".repeat(n) + "]".repeat(n) + "}"),
        org.junit.jupiter.params.provider.Arguments.of(
            ".codex/config.toml", "a = " + "[".repeat(n) + "]".repeat(n) + "\n"));
  }

  static Stream<String> configKinds() {
    return Stream.of("named pipe", "/dev/zero", "/dev/urandom", "sparse 2 GB file");
  }

  @Test
  void capturesArePrivateWhateverTheUmask() throws Exception {
    ItProcesses.assumeNode();
    Path config = dir.resolve("cfg.json");
    Files.writeString(
        config,
        "{\"mcpServers\": {\"s\": {\"command\": \"node\", \"args\": ["
            + Json.write(ItProcesses.fixture().toString())
            + ", \"stable\"]}}}",
        StandardCharsets.UTF_8);
    Path captures = dir.resolve("captures");
    ProcessBuilder pb =
        new ProcessBuilder(
                "/bin/sh",
                "-c",
                "umask 000; exec \"$0\" \"$@\"",
                Kcshare.launcher().toString(),
                "preflight",
                "s",
                "--config",
                config.toString(),
                "--capture",
                captures.toString())
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("KCSHARE_CDS", "0");
    Process p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(Files.readString(dir.resolve("out.txt"))).isZero();
    assertThat(mode(captures)).isEqualTo("rwx------");
    assertThat(mode(captures.resolve("s"))).isEqualTo("rwx------");
    for (String name : List.of("a.json", "b.json")) {
      assertThat(mode(captures.resolve("s").resolve(name))).as(name).isEqualTo("rw-------");
    }
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
