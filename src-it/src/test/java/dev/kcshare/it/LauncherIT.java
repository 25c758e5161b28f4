package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Black-box checks of the packaged launcher and jar. */
final class LauncherIT {
  @Test
  void assessesTheShippedExample() throws Exception {
    Kcshare.Result r = Kcshare.run("assess", "--evidence", "examples/evidence.json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.stdout().strip()).startsWith("[").endsWith("]");
    assertThat(r.stdout())
        .containsSubsequence(
            "\"name\": \"filesystem\"",
            "\"strength\": \"measured\"",
            "\"name\": \"notes-mcp\"",
            "\"strength\": \"declared\"",
            "\"recommendShare\": true",
            "\"name\": \"github\"",
            "\"strength\": \"no_objection\"",
            "\"handshake_not_reproducible\"",
            "\"name\": \"browser\"",
            "\"strength\": \"refuted\"",
            "\"name\": \"remote-search\"",
            "\"strength\": \"disqualified\"",
            "\"name\": \"new-server\"",
            "\"strength\": \"unknown\"");
  }

  @Test
  void badInputExitsTwoWithNothingOnStdout() throws Exception {
    Kcshare.Result r =
        Kcshare.run(
            Kcshare.repo(), Map.of(), "{\"probeOk\": \"yes\"}", "assess", "--evidence", "-");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("<stdin>").contains("/probeOk");
  }

  @Test
  void comparesTheShippedCaptures() throws Exception {
    Kcshare.Result r =
        Kcshare.run("preflight", "compare", "examples/captures/a.json", "examples/captures/b.json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("\"detail\": \"tools_shape_differs\"");
  }

  @Test
  void versionAndHelp() throws Exception {
    assertThat(Kcshare.run("--version").stdout()).startsWith("kcshare ");
    Kcshare.Result help = Kcshare.run("--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.stdout()).contains("Exit codes:");
  }

  @Test
  void appCdsArchiveNeverChangesStdout(@TempDir Path cache) throws Exception {
    Map<String, String> env = Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", cache.toString());
    String[] args = {"assess", "--evidence", "examples/evidence.json"};
    Kcshare.Result plain = Kcshare.run(Kcshare.repo(), Map.of(), "", args);
    Kcshare.Result creating = Kcshare.run(Kcshare.repo(), env, "", args);
    assertThat(filesIn(cache.resolve("kcshare"))).hasSize(1).allMatch(f -> f.endsWith(".jsa"));
    Kcshare.Result using = Kcshare.run(Kcshare.repo(), env, "", args);
    assertThat(creating.exitCode()).isZero();
    assertThat(using.exitCode()).isZero();
    assertThat(creating.stdout()).isEqualTo(plain.stdout());
    assertThat(using.stdout()).isEqualTo(plain.stdout());
    assertThat(creating.stderr()).isEqualTo(plain.stderr());
    assertThat(using.stderr()).isEqualTo(plain.stderr());
  }

  @Test
  void aNewBuildsArchiveReplacesTheOlderBuildsOfTheSameJarOnly(@TempDir Path cache)
      throws Exception {
    Map<String, String> env = Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", cache.toString());
    String[] args = {"--version"};
    assertThat(Kcshare.run(Kcshare.repo(), env, "", args).exitCode()).isZero();
    Path dir = cache.resolve("kcshare");
    List<String> made = filesIn(dir);
    assertThat(made).hasSize(1);
    String current = made.get(0);
    // kcshare-<jar size>-<jar time>-<java size>-<java time>-<jar path checksum>.jsa
    String path = current.substring(current.lastIndexOf('-') + 1);
    Files.writeString(dir.resolve("kcshare-1-2-3-4-" + path), "an older build's archive");
    Files.writeString(dir.resolve("kcshare-5-6-7-8-" + path + ".failed"), "");
    Files.writeString(dir.resolve("kcshare-1-2-3-4-12345.jsa"), "another install's archive");
    Files.delete(dir.resolve(current)); // as if the jar had just been upgraded

    assertThat(Kcshare.run(Kcshare.repo(), env, "", args).exitCode()).isZero();
    assertThat(filesIn(dir)).containsExactlyInAnyOrder(current, "kcshare-1-2-3-4-12345.jsa");
  }

  /**
   * Every picocli and kcshare class that the shipped command lines load comes from the archive,
   * lambdas included: a class left out (a Java 5 class linked while dumping, a lambda spun at run
   * time) costs start-up on every run without failing anything else.
   */
  @ParameterizedTest(name = "kcshare {0}")
  @ValueSource(
      strings = {
        "--version",
        "assess --all --config examples/fleet.json",
        "assess notes --config examples/fleet.json",
        "cost --config examples/fleet.json"
      })
  void theArchiveHoldsEveryClassOfATypicalRun(String commandLine, @TempDir Path dir)
      throws Exception {
    List<String> args = new ArrayList<>(List.of(commandLine.split(" ")));
    if (!args.get(0).equals("--version")) {
      args.addAll(List.of("--records-dir", dir.resolve("records").toString()));
    }
    assertEveryClassFromTheArchive(dir, Map.of(), args);
  }

  /**
   * The same on a host where the Kiro Crew gateway is installed, its servers in {@code
   * ~/.kiro/settings/mcp.json}: choosing the profile looks into {@code ~/.kiro/crew} there and the
   * gateway's settings are read, paths an empty home never takes, and a plain {@code measure
   * SERVER} begins its pre-flight before picocli is involved.
   */
  @ParameterizedTest(name = "kcshare {0}")
  @ValueSource(strings = {"assess --all", "assess notes", "config", "measure notes"})
  void theArchiveHoldsEveryClassOfARunOnAKiroCrewHost(String commandLine, @TempDir Path dir)
      throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path crew = Files.createDirectories(home.resolve(".kiro/crew"));
    Files.writeString(
        crew.resolve("config.json"),
        "{\"mcp_gateway\": {\"enabled\": true, \"stub_overrides\": {\"notes\": false}}}\n");
    Path settings = Files.createDirectories(home.resolve(".kiro/settings"));
    Files.copy(Kcshare.repo().resolve("examples/fleet.json"), settings.resolve("mcp.json"));
    List<String> args = new ArrayList<>(List.of(commandLine.split(" ")));
    if (!args.get(0).equals("config")) {
      args.addAll(List.of("--records-dir", dir.resolve("records").toString()));
    }
    Kcshare.Result r = assertEveryClassFromTheArchive(dir, Map.of("HOME", home.toString()), args);
    if (args.get(0).equals("config")) {
      assertThat(r.stdout()).contains("Profile: kirocrew");
    }
  }

  /**
   * Runs {@code args} (with {@code env}) once the archive exists, and requires it to succeed with
   * every picocli and kcshare class it loads coming from the archive.
   */
  private static Kcshare.Result assertEveryClassFromTheArchive(
      Path dir, Map<String, String> env, List<String> args) throws Exception {
    Map<String, String> cds =
        Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", dir.resolve("cache").toString());
    assertThat(Kcshare.run(Kcshare.repo(), cds, "", "--version").exitCode()).isZero();
    Path log = dir.resolve("classes.log");
    Map<String, String> run = new HashMap<>(cds);
    run.putAll(env);
    Kcshare.Result r =
        Kcshare.run(
            Kcshare.repo(),
            withOpts(run, "-Xlog:class+load=info:file=" + log),
            "",
            args.toArray(new String[0]));
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    List<String> ours =
        Files.readAllLines(log).stream()
            .filter(l -> l.contains(" picocli.") || l.contains(" dev.kcshare."))
            .toList();
    assertThat(ours).anyMatch(l -> l.contains(" dev.kcshare.cli.Main "));
    assertThat(ours).allMatch(l -> l.contains("source: shared objects file"));
    return r;
  }

  @Test
  void aDamagedArchiveOrAnUnwritableCacheMeansANormalStart(@TempDir Path cache) throws Exception {
    Map<String, String> env = Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", cache.toString());
    String[] args = {"assess", "--evidence", "examples/evidence.json"};
    Kcshare.Result plain = Kcshare.run(Kcshare.repo(), Map.of(), "", args);
    assertThat(Kcshare.run(Kcshare.repo(), env, "", args).exitCode()).isZero();
    Path archive = cache.resolve("kcshare").resolve(filesIn(cache.resolve("kcshare")).get(0));
    Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("rw-------"));
    Files.write(archive, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    Kcshare.Result damaged = Kcshare.run(Kcshare.repo(), env, "", args);
    assertThat(damaged.exitCode()).isZero();
    assertThat(damaged.stdout()).isEqualTo(plain.stdout());
    assertThat(damaged.stderr()).isEqualTo(plain.stderr());

    Path notADirectory = cache.resolve("plain-file");
    Files.writeString(notADirectory, "x");
    Kcshare.Result noCache =
        Kcshare.run(
            Kcshare.repo(),
            Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", notADirectory.toString()),
            "",
            args);
    assertThat(noCache.exitCode()).isZero();
    assertThat(noCache.stdout()).isEqualTo(plain.stdout());
    assertThat(noCache.stderr()).isEqualTo(plain.stderr());

    Path spaced = Files.createDirectories(cache.resolve("with space"));
    Kcshare.Result spacedCache =
        Kcshare.run(
            Kcshare.repo(),
            Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", spaced.toString()),
            "",
            args);
    assertThat(spacedCache.exitCode()).isZero();
    assertThat(spacedCache.stdout()).isEqualTo(plain.stdout());
    assertThat(spacedCache.stderr()).isEqualTo(plain.stderr());
  }

  private static int run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor();
  }

  private static boolean root() throws Exception {
    Process p = new ProcessBuilder("id", "-u").start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    return p.waitFor() == 0 && out.equals("0");
  }

  /**
   * Root with another user's HOME ({@code su} without {@code -}, {@code sudo -E}) creates no cache
   * there (docs/security.md#the-launchers-cache): no root-owned {@code ~/.cache} or {@code
   * ~/.cache/kcshare} in her home, and nothing inside the {@code ~/.cache} she already has. A
   * throw-away user owns the home; she runs nothing.
   */
  @Test
  void rootCreatesNoCacheInAnotherUsersHome(@TempDir Path dir) throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(root(), "runs as root");
    String user = "kcsl" + ProcessHandle.current().pid();
    Path home = Files.createDirectories(dir.resolve("home"));
    org.junit.jupiter.api.Assumptions.assumeTrue(
        run("useradd", "-M", "-d", home.toString(), "-s", "/bin/sh", user) == 0, "useradd");
    try {
      assertThat(run("chown", user + ":", home.toString())).isZero();
      Map<String, String> env =
          Map.of("KCSHARE_CDS", "1", "HOME", home.toString(), "XDG_CACHE_HOME", "");
      Kcshare.Result r = Kcshare.run(Kcshare.repo(), env, "", "--version");
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(home.resolve(".cache")).doesNotExist();

      Path cache = Files.createDirectories(home.resolve(".cache"));
      assertThat(run("chown", user + ":", cache.toString())).isZero();
      r = Kcshare.run(Kcshare.repo(), env, "", "--version");
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(filesIn(cache)).isEmpty();
    } finally {
      run("userdel", user);
    }
  }

  /**
   * The launcher writes only in a directory nobody else can write (docs/security.md): a cache
   * directory that is group- or other-writable (where someone could swap it or plant a link while
   * the archive is dumped), or a link to one, gets no archive, no failure marker and no temporary
   * file, and the run starts normally.
   */
  @Test
  void aCacheOthersCanWriteGetsNothing(@TempDir Path dir) throws Exception {
    Path shared = Files.createDirectories(dir.resolve("shared"));
    Path kc = Files.createDirectories(shared.resolve("kcshare"));
    Files.setPosixFilePermissions(kc, PosixFilePermissions.fromString("rwxrwx---"));
    Kcshare.Result r =
        Kcshare.run(
            Kcshare.repo(),
            Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", shared.toString()),
            "",
            "--version");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(filesIn(kc)).isEmpty();

    Path real = Files.createDirectories(dir.resolve("real"));
    Path linked = Files.createDirectories(dir.resolve("linked"));
    Files.createSymbolicLink(linked.resolve("kcshare"), real);
    r =
        Kcshare.run(
            Kcshare.repo(),
            Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", linked.toString()),
            "",
            "--version");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(filesIn(real)).isEmpty();
  }

  /**
   * The launcher walks every ancestor of the cache directory (in one {@code stat}): one that others
   * may write and that is not sticky, however far up, keeps the cache from being made or used; the
   * same path written with doubled and trailing slashes is judged as it is written plainly.
   */
  @Test
  void anAncestorOthersCanWriteKeepsTheCacheFromBeingMadeAnywhereBelowIt(@TempDir Path dir)
      throws Exception {
    Path open = Files.createDirectories(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path deep = Files.createDirectories(open.resolve("a").resolve("b"));
    Files.setPosixFilePermissions(deep, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(deep.getParent(), PosixFilePermissions.fromString("rwx------"));
    Kcshare.Result r =
        Kcshare.run(
            Kcshare.repo(),
            Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", deep.toString()),
            "",
            "--version");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(filesIn(deep)).isEmpty();

    Path fine = Files.createDirectories(dir.resolve("fine").resolve("cache"));
    String written = dir + "//fine/cache//";
    r =
        Kcshare.run(
            Kcshare.repo(), Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", written), "", "--version");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(filesIn(fine.resolve("kcshare"))).hasSize(1).allMatch(f -> f.endsWith(".jsa"));
  }

  @Test
  void withoutAHomeThereIsNoArchive(@TempDir Path logs) throws Exception {
    // Not /tmp/.cache: a class-data archive is code, and /tmp is everyone's.
    Path log = logs.resolve("classes.log");
    Kcshare.Result r =
        Kcshare.run(
            Kcshare.repo(),
            withOpts(
                Map.of("KCSHARE_CDS", "1", "HOME", "", "XDG_CACHE_HOME", ""),
                "-Xlog:class+load=info:file=" + log),
            "",
            "--version");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).startsWith("kcshare ");
    assertThat(Files.readAllLines(log))
        .filteredOn(l -> l.contains(" dev.kcshare.cli.Main "))
        .singleElement()
        .asString()
        .doesNotContain("shared objects file");
  }

  /**
   * Start-up work that does not show in a timing: a run that logs nothing never starts logback, and
   * a run naming one subcommand builds no other subcommand's model (their option and mixin classes
   * stay unloaded). Guards the {@code docs/performance.md} start-up numbers.
   */
  @Test
  void aQuietRunStartsNoLoggingAndBuildsOnlyTheNamedCommand(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("fleet.json");
    Files.copy(Kcshare.repo().resolve("examples/fleet.json"), config);
    assertThat(loadedClasses(dir, "--version")).noneMatch(l -> l.contains("ch.qos.logback"));

    String[] assess = {
      "assess", "--all", "--config", config.toString(), "--records-dir", dir.resolve("r").toString()
    };
    List<String> loaded = loadedClasses(dir, assess);
    assertThat(loaded).anyMatch(l -> l.contains(" dev.kcshare.host.config.HostConfigLoader "));
    assertThat(loaded)
        .noneMatch(l -> l.contains("ch.qos.logback"))
        .noneMatch(l -> l.contains(" dev.kcshare.host.prober.ProbeOptions "))
        .noneMatch(l -> l.contains(" dev.kcshare.cli.HazardsCommand$ListHazards "))
        .noneMatch(l -> l.contains(" dev.kcshare.cli.PreflightCommand$Compare "));

    // With -v the same run logs, so logback starts.
    List<String> verbose = new ArrayList<>(List.of("-vv"));
    verbose.addAll(List.of(assess));
    assertThat(loadedClasses(dir, verbose.toArray(new String[0])))
        .anyMatch(l -> l.contains("ch.qos.logback"));
  }

  /**
   * The records commands build their facade and read the records through it without starting a
   * logging backend when nothing is logged, as every quiet run (docs/performance.md).
   */
  @Test
  void aQuietRecordsCommandStartsNoLogging(@TempDir Path dir) throws Exception {
    String records = dir.resolve("r").toString();
    for (String[] args :
        List.of(
            new String[] {"hazards", "list", "--records-dir", records},
            new String[] {"records", "--records-dir", records})) {
      assertThat(loadedClasses(dir, args))
          .as(String.join(" ", args))
          .anyMatch(l -> l.contains(" dev.kcshare.host.report.RecordViews "))
          .noneMatch(l -> l.contains("ch.qos.logback"));
    }
  }

  /**
   * Before a plain {@code measure SERVER} spawns its server, nothing compiles a regular expression
   * and nothing links a record's generated {@code equals}, {@code hashCode} or {@code toString}
   * (each links method handles at run time, several milliseconds on the way to the first spawn;
   * docs/performance.md#before-the-first-spawn-2026-12-04): with fresh records and with a row
   * stored.
   */
  @Test
  void aPlainMeasureSpawnsBeforeAnyPatternOrRecordMethod(@TempDir Path dir) throws Exception {
    Path config = Kcshare.fixtureConfig(dir);
    String[] measure = {
      "measure", "f", "--config", config.toString(), "--records-dir", dir.resolve("r").toString()
    };
    for (String records : List.of("fresh records", "a row stored")) {
      List<String> beforeSpawn = new ArrayList<>();
      for (String line : loadedClasses(dir, measure)) {
        if (line.contains(" java.lang.ProcessImpl ")) {
          break;
        }
        beforeSpawn.add(line);
      }
      assertThat(beforeSpawn)
          .as(records)
          .anyMatch(l -> l.contains(" dev.kcshare.host.prober.StdioProber "))
          .noneMatch(l -> l.contains(" java.util.regex.Pattern "))
          .noneMatch(l -> l.contains(" java.lang.runtime.ObjectMethods "));
    }
  }

  /** The class-load log of one successful run (archive off, as in the other ITs). */
  private static List<String> loadedClasses(Path dir, String... args) throws Exception {
    Path log = Files.createTempFile(dir, "classes", ".log");
    Kcshare.Result r =
        Kcshare.run(
            Kcshare.repo(), withOpts(Map.of(), "-Xlog:class+load=info:file=" + log), "", args);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    return Files.readAllLines(log);
  }

  private static Map<String, String> withOpts(Map<String, String> env, String extra) {
    Map<String, String> out = new HashMap<>(env);
    out.put("KCSHARE_JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m " + extra);
    return out;
  }

  private static List<String> filesIn(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
