package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.testing.NodeFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The Node.js fixture server ({@code src-it/fixtures/mcp-fixture.mjs}) as server definitions, plus
 * checks that every process a probe spawned is gone afterwards.
 */
final class FixtureServers {
  static final Path SCRIPT = NodeFixture.SCRIPT;

  private final Path dir;
  private final String tag = UUID.randomUUID().toString();

  /**
   * @param dir a fresh directory for pid files and recordings
   */
  FixtureServers(Path dir) {
    this.dir = dir;
  }

  /** Skips the calling test when {@code node} is not installed. */
  static void assumeNode() {
    NodeFixture.assumeNode();
  }

  /** kcshare's environment for the probes: the test JVM's own. */
  static Map<String, String> env() {
    return System.getenv();
  }

  static StdioProber prober(int timeoutSeconds) {
    return StdioProber.create(
        env(),
        Path.of("").toAbsolutePath(),
        ProbeOptions.defaults().withTimeout(Duration.ofSeconds(timeoutSeconds)),
        ProcessPermits.defaults());
  }

  Path dir() {
    return dir;
  }

  /** {@code node mcp-fixture.mjs MODE FLAGS... --pid-dir DIR --tag TAG}. */
  ServerDefinition server(String mode, String... flags) {
    List<String> args = new ArrayList<>();
    args.add(SCRIPT.toString());
    args.add(mode);
    args.addAll(List.of(flags));
    args.add("--pid-dir");
    args.add(dir.toString());
    args.add("--tag");
    args.add(tag);
    return ServerDefinition.stdio(mode, "node", args);
  }

  /** Pids the fixture processes of this instance wrote (parents and grandchildren). */
  List<Long> pids() throws IOException {
    Path file = dir.resolve("pids");
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file, StandardCharsets.US_ASCII).stream()
        .filter(s -> !s.isBlank())
        .map(Long::parseLong)
        .toList();
  }

  /**
   * Waits (at most a minute) until this instance's fixture processes wrote at least {@code n} pids;
   * a test asserting on them after tearing a process down early needs the pid on file.
   */
  void awaitPids(int n) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
    try {
      while (pids().size() < n && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    } catch (IOException e) {
      // the assertion that follows reports what is missing
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Asserts none of this instance's fixture processes still runs. */
  void assertAllGone() throws IOException {
    for (long pid : pids()) {
      assertThat(runsOurs(pid)).as("fixture process %d still runs", pid).isFalse();
    }
  }

  /** Whether {@code pid} runs and is one of ours (its command line carries our tag). */
  boolean runsOurs(long pid) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !ProcessTree.isRunning(handle.get())) {
      return false;
    }
    try {
      byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(cmdline, StandardCharsets.ISO_8859_1).contains(tag);
    } catch (IOException e) {
      return handle.get().info().arguments().map(a -> List.of(a).contains(tag)).orElse(true);
    }
  }
}
