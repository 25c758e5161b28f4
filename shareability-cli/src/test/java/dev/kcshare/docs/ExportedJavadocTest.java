package dev.kcshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an embedder reads: the Javadoc of every exported package passes {@code -Xdoclint:all}
 * without a single warning (every public member documented, every reference resolved). The packages
 * are those the two modules export unqualified.
 */
final class ExportedJavadocTest {
  private static final List<String> EXPORTED =
      List.of(
          "dev.kcshare.api",
          "dev.kcshare.embed",
          "dev.kcshare.core.verdict",
          "dev.kcshare.core.handshake",
          "dev.kcshare.core.records",
          "dev.kcshare.core.policy",
          "dev.kcshare.core.cost",
          "dev.kcshare.core.json");

  /** Both modules' sources without their module descriptors, so javadoc reads them as packages. */
  private static Path sources(Path into) throws IOException {
    for (Path root :
        List.of(
            Path.of("src", "main", "java"),
            Path.of("..", "shareability-core", "src", "main", "java"))) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          Path rel = root.relativize(f);
          if (rel.toString().equals("module-info.java")) {
            continue;
          }
          Path target = into.resolve(rel.toString());
          Files.createDirectories(target.getParent());
          Files.copy(f, target);
        }
      }
    }
    return into;
  }

  /** The test's own class and module path: the dependencies the sources compile against. */
  private static String classPath() {
    List<String> parts = new ArrayList<>();
    for (String property : List.of("jdk.module.path", "java.class.path")) {
      String value = System.getProperty(property);
      if (value != null && !value.isEmpty()) {
        parts.add(value);
      }
    }
    return String.join(java.io.File.pathSeparator, parts);
  }

  @Test
  void theExportedPackagesHaveNoDoclintWarning(@TempDir Path tmp)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "javadoc").toString());
    args.addAll(
        List.of(
            "-quiet",
            "-Xdoclint:all",
            "-Xmaxwarns",
            "100000",
            "-d",
            tmp.resolve("out").toString(),
            "-cp",
            classPath(),
            "-sourcepath",
            sources(tmp.resolve("src")).toString()));
    args.addAll(EXPORTED);
    Path log = tmp.resolve("javadoc.log");
    Process javadoc =
        new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    int exit = javadoc.waitFor();
    List<String> warnings =
        Files.readString(log, StandardCharsets.UTF_8)
            .lines()
            .filter(l -> l.contains("warning:") || l.contains("error:"))
            .toList();
    assertThat(warnings).as("doclint findings in the exported packages").isEmpty();
    assertThat(exit).as("javadoc's exit status").isZero();
  }
}
