package dev.kcshare.host.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.cli.CliContext;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.HostConfigLoader;
import dev.kcshare.host.prober.TestProbers;
import dev.kcshare.host.records.CacheStore;
import dev.kcshare.testing.NodeFixture;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A host config of Node.js fixture servers ({@code src-it/fixtures/mcp-fixture.mjs}) written to a
 * temporary directory, with one pid directory per server so a test can tell which servers were
 * spawned and how often, and checks that none of them outlives the test.
 */
public final class FixtureFleet {
  /** The fixture server script. */
  public static final Path SCRIPT = NodeFixture.SCRIPT;

  private final Path dir;
  private final String tag = UUID.randomUUID().toString();
  private final Map<String, Object> servers = new LinkedHashMap<>();

  /**
   * @param dir a fresh directory: the config, pid directories and records go there
   */
  public FixtureFleet(Path dir) {
    this.dir = dir;
  }

  /** Skips the calling test when {@code node} is not on the PATH. */
  public static void assumeNode() {
    NodeFixture.assumeNode();
  }

  /** The working directory of the fleet. */
  public Path dir() {
    return dir;
  }

  /** The records directory the tests use. */
  public Path records() {
    return dir.resolve("records");
  }

  /** The verdict cache file in {@link #records()}. */
  public Path cacheFile() {
    return records().resolve("shareability-verdicts.json");
  }

  /** The fixture's command-line arguments for server {@code name} in {@code mode}. */
  public List<String> args(String name, String mode, String... flags) {
    List<String> args = new ArrayList<>();
    args.add(SCRIPT.toString());
    args.add(mode);
    args.addAll(List.of(flags));
    args.add("--pid-dir");
    args.add(pidDir(name).toString());
    args.add("--tag");
    args.add(tag);
    return args;
  }

  /** Adds (or replaces) a stdio fixture server {@code node mcp-fixture.mjs MODE FLAGS...}. */
  public FixtureFleet fixture(String name, String mode, String... flags) {
    Map<String, Object> def = new LinkedHashMap<>();
    def.put("command", "node");
    def.put("args", args(name, mode, flags));
    return entry(name, def);
  }

  /** Adds (or replaces) a raw config entry; the server's pid directory is created. */
  public FixtureFleet entry(String name, Map<String, Object> definition) {
    try {
      Files.createDirectories(pidDir(name));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    servers.put(name, definition);
    return this;
  }

  /** Removes a server from the config. */
  public FixtureFleet remove(String name) {
    servers.remove(name);
    return this;
  }

  /** Writes the config ({@code mcpServers} format) to {@code cfg.json} and returns its path. */
  public Path write() throws IOException {
    return write("cfg.json");
  }

  /** Writes the config to {@code fileName} in the fleet directory. */
  public Path write(String fileName) throws IOException {
    Path file = dir.resolve(fileName);
    Files.writeString(
        file, JsonWriter.pretty(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);
    return file;
  }

  /** The pid directory of server {@code name} (one line per process it started). */
  public Path pidDir(String name) {
    return dir.resolve("pids").resolve(Integer.toHexString(name.hashCode()));
  }

  /** How many fixture processes server {@code name} started so far. */
  public int spawns(String name) throws IOException {
    return pids(pidDir(name)).size();
  }

  /** Asserts the number of processes each server started so far, for every server given. */
  public void assertSpawns(Map<String, Integer> expected) throws IOException {
    Map<String, Integer> actual = new LinkedHashMap<>();
    for (String name : expected.keySet()) {
      actual.put(name, spawns(name));
    }
    assertThat(actual).as("fixture processes started per server").isEqualTo(expected);
  }

  private static List<Long> pids(Path pidDir) throws IOException {
    Path file = pidDir.resolve("pids");
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file, StandardCharsets.US_ASCII).stream()
        .filter(s -> !s.isBlank())
        .map(String::strip)
        .map(Long::parseLong)
        .toList();
  }

  /** Asserts that no fixture process of this fleet still runs. */
  public void assertAllGone() throws IOException {
    Path root = dir.resolve("pids");
    if (!Files.isDirectory(root)) {
      return;
    }
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path d : dirs.toList()) {
        for (long pid : pids(d)) {
          Optional<ProcessHandle> h = ProcessHandle.of(pid);
          assertThat(h.isPresent() && TestProbers.isRunning(h.get()) && carriesTag(pid))
              .as("fixture process %d still runs", pid)
              .isFalse();
        }
      }
    }
  }

  private boolean carriesTag(long pid) {
    try {
      byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(cmdline, StandardCharsets.ISO_8859_1).contains(tag);
    } catch (IOException e) {
      return true; // cannot tell: count it as ours
    }
  }

  /** Asserts that no descendant process of this JVM runs (measure tests run one at a time). */
  public static void assertNoDescendantRuns() {
    assertThat(TestProbers.runningDescendants())
        .as("processes of the test JVM left behind")
        .isEmpty();
  }

  /** A context over captured streams with {@code env}, working in {@code cwd}. */
  public static CliContext context(Path cwd, Map<String, String> env) {
    return new CliContext(
        new ByteArrayInputStream(new byte[0]),
        new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()),
        env,
        cwd);
  }

  /** Loads a config file as kcshare does (no discovery). */
  public static HostConfig load(Path config, Map<String, String> env) {
    return HostConfigLoader.load(
            context(config.getParent(), env).host(),
            ConfigRequest.files(List.of(config.toString())).profile("default"))
        .requireValid();
  }

  /** Loads the fleet's current config with the test JVM's environment. */
  public List<ConfiguredServer> servers() throws IOException {
    return load(write(), System.getenv()).servers();
  }

  /** The cache as stored now (read without the lock). */
  public VerdictCache storedCache() {
    return VerdictCache.of(CacheStore.read(cacheFile()));
  }

  /** The stored row of a server, or null. */
  public @Nullable CacheRow storedRow(String name) {
    return storedCache().getByName(name);
  }
}
