package dev.kcshare.host.records;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Starts main classes of the test tree in fresh JVMs, cheaply: tests that kill hundreds of child
 * JVMs spend most of their time starting them. Client compiler only, serial GC, no logback (logging
 * is not under test there), and an AppCDS archive of the child's classes dumped once by a warm-up
 * run. CDS archives only classes from jar files, so the classpath's directories are jarred first.
 * When anything of that fails the children still start, only slower.
 */
final class ChildJvm {
  private final List<String> prefix;

  private ChildJvm(List<String> prefix) {
    this.prefix = List.copyOf(prefix);
  }

  /**
   * Prepares children in {@code work}: jars the classpath's directories, then runs {@code main}
   * once with {@code warmUpArgs} to dump the class archive.
   */
  static ChildJvm prepare(Path work, Class<?> main, String... warmUpArgs)
      throws IOException, InterruptedException {
    Files.createDirectories(work);
    List<String> entries = new ArrayList<>();
    int i = 0;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (Files.isDirectory(p)) {
        Path jar = work.resolve("cp-" + i++ + ".jar");
        jar(p, jar);
        entries.add(jar.toString());
      } else if (Files.isRegularFile(p)) {
        entries.add(entry);
      }
    }
    List<String> prefix = new ArrayList<>();
    prefix.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    prefix.add("-XX:TieredStopAtLevel=1");
    prefix.add("-XX:+UseSerialGC");
    prefix.add("-XX:-UsePerfData");
    prefix.add("-Xmx64m");
    // JVM warnings (for example about an unusable archive) must never reach the child's stdout.
    prefix.add("-Xlog:disable");
    prefix.add("-Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider");
    prefix.add("-cp");
    prefix.add(String.join(File.pathSeparator, entries));

    Path archive = work.resolve("child.jsa");
    List<String> dump = new ArrayList<>(prefix);
    dump.add(dump.size() - 2, "-XX:ArchiveClassesAtExit=" + archive);
    dump.add(main.getName());
    dump.addAll(List.of(warmUpArgs));
    Process p =
        new ProcessBuilder(dump)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    p.getOutputStream().close(); // a child waiting for a go signal on stdin sees EOF and proceeds
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    if (Files.isRegularFile(archive)) {
      prefix.add(prefix.size() - 2, "-XX:SharedArchiveFile=" + archive);
      prefix.add(prefix.size() - 2, "-Xshare:auto");
    }
    return new ChildJvm(prefix);
  }

  /** Starts {@code main}; its stderr is appended to {@code stderr}, stdout and stdin are pipes. */
  Process start(Class<?> main, Path stderr, String... args) throws IOException {
    List<String> command = new ArrayList<>(prefix);
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
        .start();
  }

  private static void jar(Path dir, Path jar) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream zip = new JarOutputStream(out);
        Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        zip.putNextEntry(
            new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/')));
        Files.copy(f, zip);
        zip.closeEntry();
      }
    }
  }
}
