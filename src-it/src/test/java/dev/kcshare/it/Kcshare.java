package dev.kcshare.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the packaged {@code kcshare} launcher as a separate process. */
final class Kcshare {
  record Result(int exitCode, String stdout, String stderr) {}

  static Path launcher() {
    return Path.of(System.getProperty("kcshare.launcher", "../shareability-cli/target/kcshare"))
        .toAbsolutePath();
  }

  static Path repo() {
    return Path.of(System.getProperty("kcshare.repo", "..")).toAbsolutePath().normalize();
  }

  static Result run(Path cwd, Map<String, String> env, String stdin, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
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

  static Result run(String... args) throws IOException, InterruptedException {
    return run(repo(), Map.of(), "", args);
  }

  static String javaBin() {
    return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
  }

  private Kcshare() {}
}
