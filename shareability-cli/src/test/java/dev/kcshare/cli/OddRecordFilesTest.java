package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.kcshare.host.json.JsonReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whatever sits where a record file should be — a named pipe nobody writes, a link to {@code
 * /dev/zero} or {@code /dev/urandom}, a directory, a dangling link, a file beyond the size bound —
 * every read-only command finishes at once, reads it as empty (nothing observed, not measured) and
 * says why (docs/design.md#read-tolerance). The generous time limit only turns a hang into a
 * failure.
 */
final class OddRecordFilesTest {
  private static final Duration HANG = Duration.ofSeconds(30);

  @TempDir Path dir;

  static Stream<Arguments> oddFiles() {
    return Stream.of(
            "named pipe",
            "link to /dev/zero",
            "link to /dev/urandom",
            "directory",
            "dangling link",
            "too large")
        .flatMap(
            kind ->
                Stream.of(
                    Arguments.of(kind, "observed-hazards.json"),
                    Arguments.of(kind, "shareability-verdicts.json")));
  }

  /** Puts the odd file at {@code file}; returns the problem {@code kcshare records} must show. */
  static String make(String kind, Path file) throws Exception {
    switch (kind) {
      case "named pipe" -> {
        Process p = new ProcessBuilder("mkfifo", file.toString()).start();
        Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo failed");
        return "not a regular file (a named pipe)";
      }
      case "link to /dev/zero", "link to /dev/urandom" -> {
        Path device = Path.of(kind.substring("link to ".length()));
        Assumptions.assumeTrue(Files.exists(device), device + " is missing");
        Files.createSymbolicLink(file, device);
        return "not a regular file (a character device)";
      }
      case "directory" -> {
        Files.createDirectory(file);
        return "not a regular file (a directory)";
      }
      case "dangling link" -> {
        Files.createSymbolicLink(file, file.resolveSibling("nowhere"));
        return "not a regular file (a symbolic link to nothing)";
      }
      case "too large" -> {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
          f.setLength(256L * 1024 * 1024 + 1); // sparse: costs no disk
        }
        return "too large: 268435457 bytes, more than 268435456 bytes (256 MiB)";
      }
      default -> throw new IllegalArgumentException(kind);
    }
  }

  private CliRun run(String... args) {
    return assertTimeoutPreemptively(
        HANG,
        () -> CliRun.run(dir, "", Map.of("HOME", dir.resolve("home").toString()), args),
        () -> "kcshare " + String.join(" ", args) + " did not finish");
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("oddFiles")
  void readOnlyCommandsFinishAtOnceAndReadItAsEmpty(String kind, String name) throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    String problem = make(kind, records.resolve(name));
    Path config = dir.resolve("cfg.json");
    Files.writeString(
        config, "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\"}}}", StandardCharsets.UTF_8);

    CliRun list = run("hazards", "list", "--json", "--records-dir", records.toString());
    assertThat(list.exitCode()).as(list.stderr()).isZero();
    assertThat(list.stdout()).isEqualTo("{}\n");

    CliRun shown = run("records", "--json", "--records-dir", records.toString());
    assertThat(shown.exitCode()).as(shown.stderr()).isZero();
    Map<?, ?> state = (Map<?, ?>) JsonReader.withDepthLimit(100).parse(shown.stdout());
    Map<?, ?> file = (Map<?, ?>) state.get(name.startsWith("observed") ? "ledger" : "cache");
    assertThat(file.get("exists")).isEqualTo(true);
    assertThat(file.get("problem")).isEqualTo(problem);

    CliRun assess =
        run(
            "assess",
            "--all",
            "--json",
            "--config",
            config.toString(),
            "--records-dir",
            records.toString());
    assertThat(assess.exitCode()).as(assess.stderr()).isZero();
    assertThat(assess.stdout()).contains("\"strength\": \"unknown\"");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ledgerOnly")
  void aClearReplacesWhatHoldsNoRecordsAndLeavesWhatItCouldNotRead(String kind) throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    Path ledger = records.resolve("observed-hazards.json");
    make(kind, ledger);
    CliRun clear = run("hazards", "clear", "s", "--force", "--records-dir", records.toString());
    switch (kind) {
      case "too large" -> {
        // Its records could not be read, so they could not be kept: left as it is.
        assertThat(clear.exitCode()).isNotZero();
        assertThat(clear.stderr())
            .isEqualTo(
                "kcshare: "
                    + ledger
                    + " could not be read to merge (too large: 268435457 bytes, more than"
                    + " 268435456 bytes (256 MiB)); left unchanged\n");
        assertThat(Files.size(ledger)).isEqualTo(256L * 1024 * 1024 + 1);
      }
      case "directory" -> {
        assertThat(clear.exitCode()).isNotZero();
        assertThat(clear.stderr()).startsWith("kcshare: cannot write " + ledger + ": ");
        assertThat(Files.isDirectory(ledger)).isTrue();
      }
      default -> {
        // A pipe or a device link holds no record: the clear writes a real ledger in its place.
        assertThat(clear.exitCode()).as(clear.stderr()).isZero();
        assertThat(Files.isRegularFile(ledger, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertThat(Files.readString(ledger)).contains("\"cleared\"");
      }
    }
  }

  static List<String> ledgerOnly() {
    return List.of("named pipe", "link to /dev/zero", "directory", "too large");
  }
}
