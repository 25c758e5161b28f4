package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Debian package's metrics units meet Debian's {@code prometheus-node-exporter}
 * (docs/fleet.md): they publish into the textfile directory that node_exporter reads by default,
 * and the unit's own commands, run as systemd would run them (its {@code ExecStart=} as the
 * instance user in a runtime directory of hers, its {@code ExecStartPost=+} as root), leave a 0644
 * file of root's there. A link the user plants in her runtime directory gives root's step nothing
 * she could not read.
 *
 * <p>Needs root, {@code setpriv}, {@code dpkg-deb} and Debian's node_exporter, which .ci/run
 * installs (it installs without starting a service); under CI=true a missing one fails.
 */
final class TextfileUnitsIT {
  private static final String NOBODY = "nobody";
  private Path work;

  @BeforeEach
  void setUp() throws IOException {
    require(isRoot(), "needs root (the units' publishing step runs as root)");
    require(Files.isExecutable(Path.of("/usr/sbin/runuser")), "needs runuser (util-linux)");
    require(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux)");
    DistributionIT.requireTool("dpkg-deb", "--version");
    DistributionIT.requireTool("prometheus-node-exporter", "--version");
    // Everyone must reach what nobody runs: a fresh 0755 directory of the system's /tmp.
    work = Files.createTempDirectory("kcshare-units-");
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void tearDown() throws IOException {
    if (work != null) {
      try (Stream<Path> all = Files.walk(work)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"kcshare-metrics@.service", "kcshare-measure@.service"})
  void theUnitPublishesWhereDebiansNodeExporterReads(String unitName) throws Exception {
    Path root = extractDeb();
    Map<String, String> unit = unit(root.resolve("usr/lib/systemd/system/" + unitName));
    assertThat(unit.get("Environment:KCSHARE_TEXTFILE_DIR"))
        .as("node_exporter's default --collector.textfile.directory")
        .isEqualTo(nodeExporterTextfileDirectory());

    Fixture f = new Fixture(root, unit);
    Result start = f.start();
    assertThat(start.exitCode()).as(start.stderr()).isZero();
    Result post = f.post();
    assertThat(post.exitCode()).as(post.stderr()).isZero();

    Path published = f.textfiles.resolve(f.name);
    assertThat(published).isRegularFile();
    assertThat(Files.isSymbolicLink(published)).isFalse();
    assertThat(Files.getAttribute(published, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(0);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(published)))
        .isEqualTo("rw-r--r--");
    assertThat(Files.readString(published)).contains("# TYPE kcshare_");
    try (Stream<Path> left = Files.list(f.textfiles)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly(f.name);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"kcshare-metrics@.service"})
  void aLinkInTheUsersRuntimeDirectoryGivesRootsStepNothing(String unitName) throws Exception {
    Path root = extractDeb();
    Fixture f = new Fixture(root, unit(root.resolve("usr/lib/systemd/system/" + unitName)));
    Path secret = work.resolve("secret");
    Files.writeString(secret, "root-only-secret\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    Files.createSymbolicLink(f.runtime.resolve(f.name), secret);

    Result post = f.post();
    assertThat(post.exitCode()).isNotZero();
    try (Stream<Path> left = Files.list(f.textfiles)) {
      assertThat(left.toList()).as("nothing published, no temporary file left").isEmpty();
    }
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * One instance of a unit for nobody: its runtime directory and a textfile directory of root's.
   */
  private final class Fixture {
    final Map<String, String> unit;
    final Path runtimeRoot;
    final Path runtime;
    final Path textfiles;
    final Path launcher;
    final String name;

    Fixture(Path debRoot, Map<String, String> unit) throws Exception {
      this.unit = unit;
      launcher = debRoot.resolve("usr/bin/kcshare");
      runtimeRoot = Files.createDirectories(work.resolve("run"));
      Matcher m = Pattern.compile("%t/([^ /]+)/([^ /]+)$").matcher(unit.get("ExecStartPost"));
      assertThat(m.find()).as(unit.get("ExecStartPost")).isTrue();
      name = m.group(2);
      // RuntimeDirectory=: made by systemd for User=, with RuntimeDirectoryMode=.
      runtime = Files.createDirectory(runtimeRoot.resolve(specifiers(m.group(1))));
      assertThat(unit.get("RuntimeDirectoryMode")).isEqualTo("0700");
      Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwx------"));
      chown(runtime);
      textfiles = Files.createDirectory(work.resolve("textfiles"));
      Path home = Files.createDirectory(work.resolve("home"));
      chown(home);
    }

    /** ExecStart=, as the instance user, with the package's kcshare. */
    Result start() throws Exception {
      List<String> command =
          new ArrayList<>(
              List.of(
                  "/usr/bin/setpriv",
                  "--reuid=" + NOBODY,
                  "--regid=nogroup",
                  "--clear-groups",
                  "--"));
      for (String word : words(unit.get("ExecStart"))) {
        command.add(word.equals("/usr/bin/kcshare") ? launcher.toString() : word);
      }
      return run(command, env(Map.of("HOME", work.resolve("home").toString())));
    }

    /** ExecStartPost=+, as root, as systemd would run it. */
    Result post() throws Exception {
      String line = unit.get("ExecStartPost");
      assertThat(line).as("runs with full privileges").startsWith("+");
      return run(words(line.substring(1)), env(Map.of()));
    }

    private Map<String, String> env(Map<String, String> more) {
      Map<String, String> env = new LinkedHashMap<>(more);
      env.put("PATH", unit.getOrDefault("Environment:PATH", "/usr/bin:/bin"));
      env.put("KCSHARE_TEXTFILE_DIR", textfiles.toString());
      env.put("JAVA_HOME", System.getProperty("java.home"));
      env.put("KCSHARE_CDS", "0");
      return env;
    }

    /** A command line's words, single quotes kept together, specifiers and $$ resolved. */
    private List<String> words(String line) {
      List<String> out = new ArrayList<>();
      Matcher m = Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
      while (m.find()) {
        String w = m.group(1) != null ? m.group(1) : m.group(2);
        out.add(specifiers(w).replace("$$", "$"));
      }
      return out;
    }

    private String specifiers(String word) {
      return word.replace("%i", NOBODY).replace("%t", runtimeRoot.toString());
    }
  }

  /** The unit's settings: the last value of each key, Environment= split into its variables. */
  private static Map<String, String> unit(Path file) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.startsWith("#") || !line.contains("=")) {
        continue;
      }
      String key = line.substring(0, line.indexOf('='));
      String value = line.substring(line.indexOf('=') + 1);
      if (key.equals("Environment")) {
        out.put(
            "Environment:" + value.substring(0, value.indexOf('=')),
            value.substring(value.indexOf('=') + 1));
      } else {
        out.put(key, value);
      }
    }
    return out;
  }

  private Path extractDeb() throws Exception {
    Path root = Files.createDirectory(work.resolve("deb"));
    Result x =
        run(List.of("dpkg-deb", "-x", DistributionIT.deb().toString(), root.toString()), Map.of());
    assertThat(x.exitCode()).as(x.stderr()).isZero();
    // dpkg-deb keeps the package's modes: the extracted tree is everyone's to read.
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    return root;
  }

  /** The default of Debian's node_exporter's --collector.textfile.directory, from its --help. */
  private static String nodeExporterTextfileDirectory() throws Exception {
    Result help = run(List.of("prometheus-node-exporter", "--help"), Map.of());
    Matcher m =
        Pattern.compile("--collector\\.textfile\\.directory=\"([^\"]+)\"")
            .matcher(help.stdout() + help.stderr());
    assertThat(m.find()).as(help.stdout() + help.stderr()).isTrue();
    return m.group(1);
  }

  private static void chown(Path p) throws IOException {
    Files.setAttribute(p, "unix:uid", 65534);
    Files.setAttribute(p, "unix:gid", 65534);
  }

  record Result(int exitCode, String stdout, String stderr) {}

  private static Result run(List<String> command, Map<String, String> env)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(new File("/"));
    pb.environment().clear();
    pb.environment().putAll(env);
    Path out = Files.createTempFile("kcshare-units-out", ".txt");
    Path err = Files.createTempFile("kcshare-units-err", ".txt");
    try {
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      Process p = pb.start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("did not finish within 120 s: " + command);
      }
      return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static boolean isRoot() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("Uid:")) {
        return line.substring(4).strip().split("\\s+")[1].equals("0");
      }
    }
    return false;
  }

  /** Skips the test when a precondition is missing, except under CI=true, where it fails. */
  private static void require(boolean present, String why) {
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new AssertionError(why);
    }
    assumeTrue(present, why);
  }
}
