package dev.kcshare.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.testing.NodeFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The Node.js fixture server as definitions for the facade tests, and the process checks. */
final class EmbedFixtures {
  static final Path SCRIPT = NodeFixture.SCRIPT;

  private final Path pidDir;
  private final String tag = UUID.randomUUID().toString();

  EmbedFixtures(Path pidDir) {
    this.pidDir = pidDir;
  }

  /** Skips the calling test when {@code node} is not on PATH. */
  static void assumeNode() {
    NodeFixture.assumeNode();
  }

  /** {@code node mcp-fixture.mjs MODE FLAGS... --pid-dir DIR --tag TAG} under {@code name}. */
  ServerDefinition server(String name, String mode, String... flags) {
    List<String> args = new ArrayList<>();
    args.add(SCRIPT.toString());
    args.add(mode);
    args.addAll(List.of(flags));
    args.add("--pid-dir");
    args.add(pidDir.toString());
    args.add("--tag");
    args.add(tag);
    return ServerDefinition.stdio(name, "node", args);
  }

  /** How many fixture processes of this instance were started. */
  int started() throws IOException {
    Path file = pidDir.resolve("pids");
    return Files.exists(file) ? pids(file).size() : 0;
  }

  /** Asserts that none of this instance's fixture processes still runs. */
  void assertAllGone() throws IOException {
    Path file = pidDir.resolve("pids");
    if (!Files.exists(file)) {
      return;
    }
    for (long pid : pids(file)) {
      assertThat(runsOurs(pid)).as("fixture process %d still runs", pid).isFalse();
    }
  }

  private static List<Long> pids(Path file) throws IOException {
    return Files.readAllLines(file, StandardCharsets.US_ASCII).stream()
        .filter(s -> !s.isBlank())
        .map(Long::parseLong)
        .toList();
  }

  private boolean runsOurs(long pid) {
    if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
      return false;
    }
    try {
      byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(cmdline, StandardCharsets.ISO_8859_1).contains(tag);
    } catch (IOException e) {
      return true; // alive, and we cannot tell whose: count it as ours
    }
  }

  /** A stored measurement that reads as {@code measured} for {@code identity}. */
  static CacheRow measuredRow(String identity, double at) {
    return new CacheRow(
        true,
        false,
        List.of(),
        at,
        identity,
        "1.2.3",
        Era.LEGACY,
        new StoredHandshake(
            Map.of("tools", Map.of()), "2024-11-05", Map.of("name", "fixture"), List.of(), true));
  }
}
