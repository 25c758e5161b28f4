package dev.kcshare.it.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.embed.Shareability;
import dev.kcshare.it.ItProcesses;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What an embedder of {@code shareability-cli} gets: this module depends on the thin jars exactly
 * as a gateway would, so its own test classpath is the embedder's classpath.
 */
final class EmbedderIT {
  private static Path jarOf(Class<?> type) throws Exception {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  @Test
  void bothThinJarsAreNamedModules() throws Exception {
    Map<Class<?>, String> expected = new LinkedHashMap<>();
    expected.put(Verdict.class, "dev.kcshare.core");
    expected.put(Shareability.class, "dev.kcshare.cli");
    Map<String, List<String>> exports = new LinkedHashMap<>();
    for (Map.Entry<Class<?>, String> e : expected.entrySet()) {
      Path jar = jarOf(e.getKey());
      assertThat(jar.getFileName().toString())
          .as("%s comes from a packaged thin jar", e.getKey().getSimpleName())
          .endsWith(".jar")
          .doesNotContain("-exe");
      ModuleDescriptor descriptor = ModuleFinder.of(jar).findAll().iterator().next().descriptor();
      assertThat(descriptor.isAutomatic()).as(jar.toString()).isFalse();
      assertThat(descriptor.name()).as(jar.toString()).isEqualTo(e.getValue());
      exports.put(descriptor.name(), unqualifiedExports(descriptor));
    }
    assertThat(exports.get("dev.kcshare.cli"))
        .as("the CLI jar exports the embedding facade and its values, nothing else")
        .containsExactlyInAnyOrder("dev.kcshare.embed", "dev.kcshare.api");
    assertThat(exports.get("dev.kcshare.core"))
        .containsExactlyInAnyOrder(
            "dev.kcshare.core.verdict",
            "dev.kcshare.core.handshake",
            "dev.kcshare.core.records",
            "dev.kcshare.core.policy",
            "dev.kcshare.core.cost",
            "dev.kcshare.core.json");
  }

  private static List<String> unqualifiedExports(ModuleDescriptor descriptor) {
    return descriptor.exports().stream()
        .filter(x -> !x.isQualified())
        .map(ModuleDescriptor.Exports::source)
        .sorted()
        .toList();
  }

  /** The runnable jar, staged beside the launcher exactly as it ships. */
  private static Path runnableJar() {
    return Path.of(System.getProperty("kcshare.launcher")).resolveSibling("kcshare.jar");
  }

  private static final String LOGBACK_CONFIGURATOR =
      "META-INF/services/ch.qos.logback.classic.spi.Configurator";

  @Test
  void onlyTheRunnableJarConfiguresLogging() throws Exception {
    try (JarFile thin = new JarFile(jarOf(Shareability.class).toFile())) {
      assertThat(thin.getEntry(LOGBACK_CONFIGURATOR))
          .as("a logback configurator in the thin jar would replace an embedder's logging setup")
          .isNull();
      assertThat(thin.stream().map(JarEntry::getName))
          .noneMatch(name -> name.matches("(.*/)?logback(-test)?\\.(xml|groovy)"));
    }
    try (JarFile exe = new JarFile(runnableJar().toFile())) {
      JarEntry service = exe.getJarEntry(LOGBACK_CONFIGURATOR);
      assertThat(service).as("the runnable jar configures its own logging").isNotNull();
      try (InputStream in = exe.getInputStream(service)) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip())
            .isEqualTo("dev.kcshare.cli.log.LogConfigurator");
      }
      assertThat(exe.getEntry("picocli/CommandLine.class"))
          .as("the runnable jar carries picocli")
          .isNotNull();
    }
  }

  @Test
  void picocliDoesNotReachAnEmbedder() {
    assertThatThrownBy(
            () -> Class.forName("picocli.CommandLine", false, getClass().getClassLoader()))
        .as("picocli must not be on an embedder's classpath")
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void noLoggingBackendReachesAnEmbedder() {
    assertThat(org.slf4j.LoggerFactory.class).isNotNull();
    for (String backend :
        List.of("ch.qos.logback.classic.LoggerContext", "ch.qos.logback.core.Appender")) {
      assertThatThrownBy(() -> Class.forName(backend, false, getClass().getClassLoader()))
          .as("%s must not be on an embedder's classpath", backend)
          .isInstanceOf(ClassNotFoundException.class);
    }
  }

  /** The declared scopes, read from the POMs with the JDK's XML parser (no network, no Maven). */
  private static final class Pom {
    final Map<String, Element> dependencies = new LinkedHashMap<>();

    Pom(Path file, boolean managed) throws Exception {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      Document doc = factory.newDocumentBuilder().parse(file.toFile());
      NodeList all = doc.getElementsByTagName("dependency");
      for (int i = 0; i < all.getLength(); i++) {
        Element d = (Element) all.item(i);
        // project/dependencies, profile/dependencies or dependencyManagement/dependencies; not
        // a plugin's own dependencies, which never reach a consumer
        String owner = d.getParentNode().getParentNode().getNodeName();
        boolean wanted =
            managed
                ? owner.equals("dependencyManagement")
                : owner.equals("project") || owner.equals("profile");
        if (wanted) {
          dependencies.put(text(d, "groupId") + ":" + text(d, "artifactId"), d);
        }
      }
    }

    static String text(Element e, String tag) {
      NodeList children = e.getChildNodes();
      for (int i = 0; i < children.getLength(); i++) {
        if (children.item(i) instanceof Element c && c.getTagName().equals(tag)) {
          return c.getTextContent().strip();
        }
      }
      return "";
    }
  }

  /** Scope as Maven resolves it: the dependency's own, else the managed one, else compile. */
  private static String scope(Element dependency, Pom parent, String key) {
    String own = Pom.text(dependency, "scope");
    if (!own.isEmpty()) {
      return own;
    }
    Element managed = parent.dependencies.get(key);
    String inherited = managed == null ? "" : Pom.text(managed, "scope");
    return inherited.isEmpty() ? "compile" : inherited;
  }

  @Test
  void theCoreHasNoRuntimeDependencyAndTheCliForcesNoLoggingBackend() throws Exception {
    Path repo = ItProcesses.repo();
    Pom parent = new Pom(repo.resolve("pom.xml"), true);
    assertThat(parent.dependencies).containsKey("ch.qos.logback:logback-classic");

    Pom core = new Pom(repo.resolve("shareability-core/pom.xml"), false);
    assertThat(core.dependencies).isNotEmpty();
    List<String> runtime = new ArrayList<>();
    core.dependencies.forEach(
        (key, d) -> {
          String scope = scope(d, parent, key);
          if (!scope.equals("test") && !scope.equals("provided")) {
            runtime.add(key + " (" + scope + ")");
          }
        });
    assertThat(runtime).as("the core's runtime dependencies").isEmpty();

    Pom cli = new Pom(repo.resolve("shareability-cli/pom.xml"), false);
    List<String> backends = new ArrayList<>();
    cli.dependencies.forEach(
        (key, d) -> {
          boolean backend =
              key.startsWith("ch.qos.logback:")
                  || key.startsWith("org.apache.logging.log4j:")
                  || key.matches("org\\.slf4j:slf4j-(simple|nop|jdk14|reload4j|log4j12)");
          boolean reaches =
              !"true".equals(Pom.text(d, "optional"))
                  && !List.of("test", "provided").contains(scope(d, parent, key));
          if (backend && reaches) {
            backends.add(key);
          }
        });
    assertThat(cli.dependencies).containsKey("ch.qos.logback:logback-classic");
    assertThat(backends).as("logging backends an embedder would inherit").isEmpty();
  }

  /** An embedder's runtime class path as Maven resolves it for this module (no test scope). */
  private static List<Path> embedderRuntimePath() throws Exception {
    String listed =
        Files.readString(
                Path.of(System.getProperty("kcshare.embedderPath")), StandardCharsets.UTF_8)
            .strip();
    List<Path> out = new ArrayList<>();
    for (String entry : listed.split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        out.add(Path.of(entry));
      }
    }
    return out;
  }

  @Test
  void theRuntimeTreeOfAnEmbedderHasNoPicocliAndNoLoggingBackend() throws Exception {
    List<String> tree =
        Files.readAllLines(
            Path.of(System.getProperty("kcshare.embedderTree")), StandardCharsets.UTF_8);
    String text = String.join("\n", tree);
    assertThat(text)
        .as("mvn dependency:tree -Dscope=runtime of a module depending on the thin jars")
        .contains("dev.kcshare:shareability-cli:jar:")
        .contains("dev.kcshare:shareability-core:jar:")
        .contains("com.fasterxml.jackson.core:jackson-core:jar:")
        .contains("org.slf4j:slf4j-api:jar:")
        .doesNotContain("info.picocli")
        .doesNotContain("ch.qos.logback")
        .doesNotContain("jackson-dataformat-toml")
        .doesNotContain("snakeyaml");
    assertThat(embedderRuntimePath())
        .extracting(p -> p.getFileName().toString())
        .noneMatch(name -> name.startsWith("picocli") || name.startsWith("logback"))
        .hasSize(4);
  }

  /** Compiles {@code sources} as one module against {@code modulePath}; the diagnostics. */
  private static String compileModule(Path out, List<Path> modulePath, List<Path> sources)
      throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> args = new ArrayList<>();
    // The build's own lint set; an empty class path, so nothing but the module path is seen (by
    // default the compiler would also search this JVM's class path).
    args.addAll(List.of("--release", "17", "-Xlint:all,-try", "-Werror", "-d", out.toString()));
    args.add("--class-path");
    args.add(out.toString());
    args.add("--module-path");
    args.add(String.join(File.pathSeparator, modulePath.stream().map(Path::toString).toList()));
    sources.forEach(p -> args.add(p.toString()));
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
    String text = diagnostics.toString(StandardCharsets.UTF_8);
    return status == 0 ? "" : "javac failed (" + status + "):\n" + text;
  }

  @Test
  void aConsumerModuleReachesOnlyTheExportedPackages(@TempDir Path dir) throws Exception {
    Path src = Files.createDirectories(dir.resolve("src/example"));
    Files.writeString(
        src.resolve("module-info.java"), "module example { requires dev.kcshare.cli; }\n");
    Files.writeString(
        src.resolve("Internal.java"),
        "package example;\n"
            + "public class Internal {\n"
            + "  public static Object of() { return dev.kcshare.host.records.LedgerStore.class; }\n"
            + "  public static Object result() { return dev.kcshare.api.internal.Results.class; }\n"
            + "}\n");
    String failure =
        compileModule(
            Files.createDirectories(dir.resolve("out")),
            embedderRuntimePath(),
            List.of(src.resolve("module-info.java"), src.resolve("Internal.java")));
    assertThat(failure)
        .as("an import of a package the module does not export must not compile")
        .contains("package dev.kcshare.host.records is not visible")
        .contains("is declared in module dev.kcshare.cli, which does not export it")
        .as("nor one of the records behind the API's result interfaces")
        .contains("package dev.kcshare.api.internal is not visible");
  }

  @Test
  void theExampleGatewayCompilesAndRunsOnTheModulePathWithoutALoggingBackend(@TempDir Path dir)
      throws Exception {
    ItProcesses.assumeNode();
    Path repo = ItProcesses.repo();
    List<Path> modulePath = embedderRuntimePath();
    Path classes = Files.createDirectories(dir.resolve("gateway-module"));
    String failure =
        compileModule(
            classes,
            modulePath,
            List.of(
                repo.resolve("src-it/src/consumer/module-info.java"),
                repo.resolve("src-it/src/test/java/dev/kcshare/it/gateway/ExampleGateway.java")));
    assertThat(failure).as("the example gateway as a module on the thin jars").isEmpty();

    List<Path> runPath = new ArrayList<>(modulePath);
    runPath.add(0, classes);
    List<String> command = new ArrayList<>();
    command.add(ItProcesses.javaBin());
    command.add("--module-path");
    command.add(String.join(File.pathSeparator, runPath.stream().map(Path::toString).toList()));
    command.add("--module");
    command.add("dev.kcshare.it.gateway/" + ExampleGateway.class.getName());
    command.add(dir.resolve("records").toString());
    command.add(ItProcesses.fixture().toString());
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(3, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the example gateway did not finish");
    }
    String stdout = Files.readString(out, StandardCharsets.UTF_8);
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(stdout + stderr).isZero();
    assertThat(stdout.lines())
        .containsExactly(
            "before: unknown not_probed",
            "measured: measured preflight_passed all_tools_read_only degrades_when_shared(logging_level)",
            "one stub: roots: 1",
            "one stub verdict: measured preflight_passed all_tools_read_only degrades_when_shared(logging_level)",
            "shared: client error: the gateway cannot tell which session this request is for",
            "shared verdict: refuted observed_hazard(unroutable_server_request)",
            "cleared verdict: measured preflight_passed all_tools_read_only degrades_when_shared(logging_level)");
    assertThat(stderr.lines().filter(line -> !line.startsWith("SLF4J")))
        .as("stderr carries at most slf4j's no-provider notice")
        .isEmpty();
  }
}
