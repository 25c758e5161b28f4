package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Black-box checks of the two distribution artefacts the CLI build writes: the tarball, unpacked
 * under a temporary prefix and run through a symbolic link on PATH, as an operator installs it; and
 * the Debian package, listed and extracted with {@code dpkg-deb}. Tools a check needs that are
 * missing locally skip it; under {@code CI=true} they fail it ({@code .ci/run} installs them).
 */
final class DistributionIT {
  /** Every file the Debian package must install (directories aside). */
  private static final List<String> DEB_FILES =
      List.of(
          "./usr/bin/kcshare",
          "./usr/share/kcshare/kcshare.jar",
          "./usr/share/kcshare/kcshare.classlist",
          "./usr/share/kcshare/kcshare.rules.yml",
          "./usr/share/kcshare/kcshare.rules.test.yml",
          "./usr/share/kcshare/kcshare-dashboard.json",
          "./usr/share/man/man1/kcshare.1.gz",
          "./usr/share/man/man1/kcshare-assess.1.gz",
          "./usr/share/man/man1/kcshare-measure.1.gz",
          "./usr/share/man/man1/kcshare-hazards-clear.1.gz",
          "./usr/share/bash-completion/completions/kcshare",
          "./usr/share/zsh/vendor-completions/_kcshare",
          "./usr/lib/systemd/system/kcshare-measure@.service",
          "./usr/lib/systemd/system/kcshare-measure@.timer",
          "./usr/lib/systemd/system/kcshare-metrics@.service",
          "./usr/lib/systemd/system/kcshare-metrics@.timer",
          "./usr/lib/systemd/user/kcshare-measure.service",
          "./usr/lib/systemd/user/kcshare-measure.timer",
          "./usr/share/doc/kcshare/copyright",
          "./usr/share/doc/kcshare/changelog.Debian.gz",
          // JSON Schemas of assess/cost JSON output
          "./usr/share/kcshare/schema/assess-v1.schema.json",
          "./usr/share/kcshare/schema/cost-v1.schema.json");

  @TempDir static Path work;
  private static Path prefix;
  private static Path pathDir;

  static Path distDir() {
    return Path.of(System.getProperty("kcshare.distDir", "../shareability-cli/target"))
        .toAbsolutePath()
        .normalize();
  }

  static String version() {
    return System.getProperty("kcshare.version", "0.1.0-SNAPSHOT");
  }

  static Path tarball() {
    return distDir().resolve("kcshare-" + version() + ".tar.gz");
  }

  /** {@code kcshare_0.1.0~SNAPSHOT-1_all.deb} for 0.1.0-SNAPSHOT. */
  static Path deb() {
    return distDir().resolve("kcshare_" + version().replace('-', '~') + "-1_all.deb");
  }

  /** Unpacks the tarball under a read-only prefix and links bin/kcshare into a PATH directory. */
  @BeforeAll
  static void install() throws Exception {
    assertThat(tarball()).isRegularFile();
    prefix = Files.createDirectories(work.resolve("usr-local"));
    Result tar =
        sh(
            Map.of(),
            "tar -xzf \"$1\" -C \"$2\" --strip-components=1 && chmod -R a-w \"$2\"",
            tarball().toString(),
            prefix.toString());
    assertThat(tar.exitCode()).as(tar.output()).isZero();
    pathDir = Files.createDirectories(work.resolve("path"));
    Files.createSymbolicLink(pathDir.resolve("kcshare"), prefix.resolve("bin/kcshare"));
  }

  @Test
  void theTarballHoldsAPrefixTree() {
    for (String file :
        List.of(
            "bin/kcshare",
            "lib/kcshare/kcshare.jar",
            "lib/kcshare/kcshare.classlist",
            "share/kcshare/kcshare.rules.yml",
            "share/kcshare/kcshare.rules.test.yml",
            "share/kcshare/kcshare-dashboard.json",
            "share/man/man1/kcshare.1",
            "share/man/man1/kcshare-assess.1",
            "share/man/man1/kcshare-hazards-clear.1",
            "share/bash-completion/completions/kcshare",
            "share/zsh/site-functions/_kcshare",
            "lib/systemd/system/kcshare-measure@.service",
            "lib/systemd/system/kcshare-measure@.timer",
            "lib/systemd/system/kcshare-metrics@.service",
            "lib/systemd/user/kcshare-measure.service",
            "share/doc/kcshare/LICENSE",
            "share/doc/kcshare/README.md",
            "share/doc/kcshare/copyright",
            // JSON Schemas of assess/cost JSON output
            "share/kcshare/schema/assess-v1.schema.json",
            "share/kcshare/schema/cost-v1.schema.json")) {
      assertThat(prefix.resolve(file)).as(file).isRegularFile();
    }
    assertThat(prefix.resolve("bin/kcshare")).isExecutable();
  }

  /** The tarball ships the JSON Schemas of docs/schema byte for byte. */
  @Test
  void theTarballShipsTheDocumentedSchemas() throws Exception {
    for (String name : List.of("assess-v1.schema.json", "cost-v1.schema.json")) {
      assertThat(Files.readAllBytes(prefix.resolve("share/kcshare/schema/" + name)))
          .as(name)
          .isEqualTo(Files.readAllBytes(Kcshare.repo().resolve("docs/schema/" + name)));
    }
  }

  @Test
  void theInstalledCommandRunsThroughASymlinkOnPath() throws Exception {
    Result version = onPath(Map.of(), "--version");
    assertThat(version.exitCode()).as(version.output()).isZero();
    assertThat(version.stdout()).isEqualTo("kcshare " + version() + "\n");

    Result assess = onPath(Map.of(), "assess", "--evidence", "examples/evidence.json");
    assertThat(assess.exitCode()).as(assess.output()).isZero();
    assertThat(assess.stdout())
        .containsSubsequence(
            "\"name\": \"filesystem\"",
            "\"strength\": \"measured\"",
            "\"name\": \"new-server\"",
            "\"strength\": \"unknown\"");
    // the same answer as the build tree's launcher
    Kcshare.Result built = Kcshare.run("assess", "--evidence", "examples/evidence.json");
    assertThat(assess.stdout()).isEqualTo(built.stdout());
  }

  /**
   * The read-only installed copy keeps its start-up archive in the user's cache, and every picocli
   * and kcshare class of a typical run comes from it (as {@code LauncherIT} requires of the build
   * tree's launcher).
   */
  @Test
  void theInstalledCopyMapsItsArchiveFromTheUserCache(@TempDir Path cache) throws Exception {
    Map<String, String> env = Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", cache.toString());
    assertThat(onPath(env, "--version").exitCode()).isZero();
    try (Stream<Path> archives = Files.list(cache.resolve("kcshare"))) {
      assertThat(archives.map(p -> p.getFileName().toString()).toList())
          .singleElement()
          .asString()
          .endsWith(".jsa");
    }
    for (String[] args :
        List.of(
            new String[] {"--version"},
            new String[] {
              "assess",
              "--all",
              "--config",
              "examples/fleet.json",
              "--records-dir",
              cache.resolve("records").toString()
            })) {
      Path log = Files.createTempFile(cache, "classes", ".log");
      Map<String, String> logged = new HashMap<>(env);
      logged.put(
          "KCSHARE_JAVA_OPTS",
          "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m -Xlog:class+load=info:file=" + log);
      Result r = onPath(logged, args);
      assertThat(r.exitCode()).as(r.output()).isZero();
      List<String> ours =
          Files.readAllLines(log).stream()
              .filter(l -> l.contains(" picocli.") || l.contains(" dev.kcshare."))
              .toList();
      assertThat(ours).anyMatch(l -> l.contains(" dev.kcshare.cli.Main "));
      assertThat(ours).allMatch(l -> l.contains("source: shared objects file"));
    }
  }

  @Test
  void theManPagesRenderWithoutWarnings() throws Exception {
    requireTool("groff", "--version");
    List<Path> pages;
    try (Stream<Path> files = Files.list(prefix.resolve("share/man/man1"))) {
      pages = files.sorted().toList();
    }
    assertThat(pages).hasSizeGreaterThanOrEqualTo(15);
    for (Path page : pages) {
      Result r = sh(Map.of(), "groff -man -Tutf8 -ww \"$1\" 2>&1 >/dev/null", page.toString());
      assertThat(r.exitCode()).isZero();
      assertThat(r.stdout()).as(page.toString()).isEmpty();
    }
    // man(1) finds the pages from PATH (PREFIX/bin -> PREFIX/share/man), as after an install
    if (tool("man", "--version")) {
      Result man =
          sh(
              Map.of("PATH", prefix.resolve("bin") + File.pathSeparator + System.getenv("PATH")),
              "man -w kcshare-assess");
      assertThat(man.stdout().strip())
          .isEqualTo(prefix.resolve("share/man/man1/kcshare-assess.1").toString());
    }
  }

  @Test
  void bashCompletesConfiguredServerNames() throws Exception {
    requireTool("bash", "--version");
    Path script = prefix.resolve("share/bash-completion/completions/kcshare");
    String complete =
        "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ));"
            + " _kcshare; printf '%s\\n' \"${COMPREPLY[@]}\"";
    Map<String, String> env = Map.of("PATH", pathDir + File.pathSeparator + System.getenv("PATH"));
    Result servers =
        bash(
            env,
            complete,
            script.toString(),
            "kcshare",
            "assess",
            "--config",
            "examples/fleet.json",
            "");
    assertThat(servers.stdout().lines())
        .containsExactly("notes", "calendar", "tickets", "search", "billing", "docs", "archive");
    Result clear =
        bash(env, complete, script.toString(), "kcshare", "hazards", "clear", "--records-dir", "");
    assertThat(clear.exitCode()).isZero();
    Result commands = bash(env, complete, script.toString(), "kcshare", "haz");
    assertThat(commands.stdout().lines()).containsExactly("hazards");
    Result sub = bash(env, complete, script.toString(), "kcshare", "hazards", "");
    assertThat(sub.stdout().lines()).containsExactly("list", "clear");
  }

  /** zsh's own completion system, driven through a pseudo-terminal as a user types. */
  @Test
  void zshCompletesConfiguredServerNames() throws Exception {
    requireTool("zsh", "--version");
    Path driver = work.resolve("complete.zsh");
    Files.writeString(
        driver,
        """
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "PS1='%% '; unsetopt zle_bracketed_paste; fpath=($1 \\$fpath);\
         autoload -Uz compinit; compinit -u -D; bindkey '^I' list-choices; print READY-READY"
        out=""
        while zpty -r -t z chunk; do out+=$chunk; [[ $out == *READY-READY*READY-READY* ]] && break; done
        zpty -n -w z "$2"$'\\t'
        out=""
        for i in {1..100}; do
          zpty -r -t z chunk && out+=$chunk
          [[ $out == *archive* ]] && break
          sleep 0.1
        done
        print -r -- "$out"
        zpty -d z
        """);
    Map<String, String> env =
        Map.of(
            "PATH", pathDir + File.pathSeparator + System.getenv("PATH"), "HOME", work.toString());
    Result r =
        run(
            env,
            List.of(
                "zsh",
                "-f",
                driver.toString(),
                prefix.resolve("share/zsh/site-functions").toString(),
                "kcshare assess --config examples/fleet.json "));
    assertThat(r.stdout()).contains("notes").contains("calendar").contains("archive");
  }

  @Test
  void theDebianPackageListsItsFilesAndRunsFromAnExtractedTree() throws Exception {
    requireTool("dpkg-deb", "--version");
    assertThat(deb()).isRegularFile();
    Result list = run(Map.of(), List.of("dpkg-deb", "-c", deb().toString()));
    assertThat(list.exitCode()).as(list.output()).isZero();
    List<String> files = new ArrayList<>();
    for (String line : list.stdout().split("\n")) {
      if (line.startsWith("-")) {
        assertThat(line).as("owned by root").contains(" root/root ");
        files.add(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    assertThat(files).containsAll(DEB_FILES);
    assertThat(list.stdout()).contains("-rwxr-xr-x root/root").contains("./usr/bin/kcshare");

    Result fields =
        run(
            Map.of(),
            List.of(
                "dpkg-deb", "-f", deb().toString(), "Package", "Version", "Depends", "Recommends"));
    assertThat(fields.stdout())
        .contains("Package: kcshare")
        .contains("Version: " + version().replace('-', '~') + "-1")
        .contains("Depends: default-jre-headless (>= 2:1.17) | java17-runtime-headless")
        .contains("Recommends: bash-completion");

    Path root = Files.createDirectories(work.resolve("deb-root"));
    Result x = run(Map.of(), List.of("dpkg-deb", "-x", deb().toString(), root.toString()));
    assertThat(x.exitCode()).as(x.output()).isZero();
    Result version =
        run(Map.of(), List.of(root.resolve("usr/bin/kcshare").toString(), "--version"));
    assertThat(version.exitCode()).as(version.output()).isZero();
    assertThat(version.stdout()).isEqualTo("kcshare " + version() + "\n");

    String unit = Files.readString(root.resolve("usr/lib/systemd/system/kcshare-measure@.service"));
    assertThat(unit).contains("ExecStart=/usr/bin/kcshare measure").contains("User=%i");
    String tarballUnit =
        Files.readString(prefix.resolve("lib/systemd/system/kcshare-measure@.service"));
    assertThat(tarballUnit).contains("ExecStart=/usr/local/bin/kcshare measure");

    if (tool("man", "--version")) {
      Result man =
          sh(
              Map.of("MANWIDTH", "80"),
              "man --warnings -l \"$1\" 2>&1 >/dev/null",
              root.resolve("usr/share/man/man1/kcshare-seed.1.gz").toString());
      assertThat(man.stdout()).isEmpty();
    }
  }

  /** Every library class in the jar is covered by a Files paragraph of the copyright file. */
  @Test
  void theCopyrightFileCoversEveryBundledLibrary() throws Exception {
    String copyright = Files.readString(prefix.resolve("share/doc/kcshare/copyright"));
    assertThat(copyright)
        .startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/");
    List<Pattern> patterns = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^Files: (.*(?:\\n [^\\n]*)*)").matcher(copyright);
    while (m.find()) {
      for (String glob : m.group(1).trim().split("\\s+")) {
        if (!glob.equals("*")) {
          patterns.add(Pattern.compile(Pattern.quote(glob).replace("*", "\\E.*\\Q")));
        }
      }
    }
    List<String> uncovered = new ArrayList<>();
    try (JarFile jar = new JarFile(prefix.resolve("lib/kcshare/kcshare.jar").toFile())) {
      for (Enumeration<? extends ZipEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        if (!name.endsWith(".class") || name.startsWith("dev/kcshare/")) {
          continue;
        }
        if (patterns.stream().noneMatch(p -> p.matcher(name).matches())) {
          uncovered.add(name);
        }
      }
    }
    assertThat(uncovered).isEmpty();
  }

  // ---------------------------------------------------------------------------------------------

  record Result(int exitCode, String stdout, String stderr) {
    String output() {
      return stdout + stderr;
    }
  }

  /** Runs the installed kcshare by name, found on PATH through the symlink, in the repository. */
  private static Result onPath(Map<String, String> env, String... args) throws Exception {
    Map<String, String> e = new HashMap<>(env);
    e.put("PATH", pathDir + File.pathSeparator + System.getenv("PATH"));
    e.put("JAVA_HOME", System.getProperty("java.home"));
    e.putIfAbsent("KCSHARE_CDS", "0");
    List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "exec kcshare \"$@\"", "sh"));
    command.addAll(List.of(args));
    return run(e, command);
  }

  private static Result sh(Map<String, String> env, String script, String... args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", script, "sh"));
    command.addAll(List.of(args));
    return run(env, command);
  }

  private static Result bash(Map<String, String> env, String script, String... args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", "-c", script, "bash"));
    command.addAll(List.of(args));
    return run(env, command);
  }

  private static Result run(Map<String, String> env, List<String> command)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(Kcshare.repo().toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("did not finish within 120 s: " + command);
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /** Skips the test when the tool is missing, except under CI=true, where it fails. */
  static void requireTool(String... command) {
    boolean present = tool(command);
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new AssertionError(command[0] + " is not installed (.ci/run installs it)");
    }
    assumeTrue(present, command[0] + " is not installed");
  }

  static boolean tool(String... command) {
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
