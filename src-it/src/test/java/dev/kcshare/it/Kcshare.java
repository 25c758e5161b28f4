package dev.kcshare.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs the packaged {@code kcshare} launcher as a separate process. */
final class Kcshare {
  record Result(int exitCode, String stdout, String stderr) {}

  static Path launcher() {
    return Path.of(System.getProperty("kcshare.launcher", "../shareability-cli/target/kcshare"))
        .toAbsolutePath();
  }

  private static Path forOthers;

  /**
   * The launcher as another user can run it. A checkout under a private directory (a 0700 {@code
   * mktemp -d}, a 0750 home) cannot be reached by a test's throw-away user, so then the staged
   * launcher's directory (the script, its jar and class list) is copied once to a fresh directory
   * of the system's temporary directory that everyone can read; otherwise it is {@link #launcher()}
   * itself.
   */
  static synchronized Path launcherOthersCanRun() throws IOException {
    Path launcher = launcher();
    if (othersCanReach(launcher)) {
      return launcher;
    }
    if (forOthers == null) {
      Path copy = Files.createTempDirectory("kcshare-launcher-");
      Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
      copy.toFile().deleteOnExit(); // after the files below: deleted in reverse order
      try (Stream<Path> files = Files.list(launcher.getParent())) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Path to = copy.resolve(f.getFileName());
          Files.copy(f, to, StandardCopyOption.COPY_ATTRIBUTES);
          to.toFile().deleteOnExit();
        }
      }
      forOthers = copy.resolve(launcher.getFileName());
    }
    return forOthers;
  }

  /** Whether every directory above {@code file} lets others through and the file is readable. */
  private static boolean othersCanReach(Path file) throws IOException {
    for (Path d = file.getParent(); d != null; d = d.getParent()) {
      if (!Files.getPosixFilePermissions(d).contains(PosixFilePermission.OTHERS_EXECUTE)) {
        return false;
      }
    }
    return Files.getPosixFilePermissions(file).contains(PosixFilePermission.OTHERS_READ);
  }

  static Path repo() {
    return Path.of(System.getProperty("kcshare.repo", "..")).toAbsolutePath().normalize();
  }

  static Result run(Path cwd, Map<String, String> env, String stdin, String... args)
      throws IOException, InterruptedException {
    return run(cwd, env, stdin, List.of(), args);
  }

  /** {@link #run(Path, Map, String, String...)} under the command {@code prefix} (strace, ...). */
  static Result run(
      Path cwd, Map<String, String> env, String stdin, List<String> prefix, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(prefix);
    command.add(launcher().toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
    // The launcher must find the same JVM the tests run on.
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putIfAbsent("KCSHARE_CDS", "0");
    pb.environment().putAll(env);
    Path out = Files.createTempFile("kcshare-out", ".txt");
    Path err = Files.createTempFile("kcshare-err", ".txt");
    try {
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      Process p = pb.start();
      try (var in = p.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("kcshare did not finish within 120 s: " + command);
      }
      return new Result(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * Writes {@code dir/fixture.json}: one server {@code f}, the fixture server under node.
   *
   * @return the file
   */
  static Path fixtureConfig(Path dir) throws IOException {
    return Files.writeString(
        dir.resolve("fixture.json"),
        "{\"mcpServers\": {\"f\": {\"command\": \"node\", \"args\": [\""
            + repo().resolve("src-it/fixtures/mcp-fixture.mjs")
            + "\"]}}}");
  }

  /**
   * {@code /usr/bin/strace}, for the tests that count what kcshare opens; they are skipped without
   * it, and fail under {@code CI=true} (.ci/run installs it).
   */
  static Path strace() {
    Path strace = Path.of("/usr/bin/strace");
    if (!Files.isExecutable(strace) && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("strace is not installed (.ci/run installs it)");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isExecutable(strace), "strace is not installed");
    return strace;
  }

  static Result run(String... args) throws IOException, InterruptedException {
    return run(repo(), Map.of(), "", args);
  }

  static String javaBin() {
    return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
  }

  private Kcshare() {}
}
