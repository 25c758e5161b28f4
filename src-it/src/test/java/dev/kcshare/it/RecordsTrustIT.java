package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Who may write the records directory, and links
 * (docs/formats.md#who-may-write-the-records-directory, docs/formats.md#links), through the
 * packaged launcher: a planted lock-file link is refused and its target keeps its bytes; a capture
 * directory, or a server's capture directory, that is a link is refused; a records directory others
 * can write, or owned by another user, is never written (exit 2, one line), while read-only
 * commands still answer with one warning. The permission cases run kcshare as {@code nobody}
 * through {@code setpriv}, so they need root (which CI and the build machine have).
 */
final class RecordsTrustIT {
  private static final int NOBODY = 65534;
  private static final byte[] PRECIOUS =
      "ssh-ed25519 AAAA precious key\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;

  @BeforeEach
  void traversable() throws IOException {
    // The JUnit directory is 0700: nobody must reach the directories made for it below.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
  }

  private Path config() throws IOException {
    Path config = dir.resolve("cfg.json");
    Files.writeString(
        config, "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\"}}}", StandardCharsets.UTF_8);
    return config;
  }

  private Map<String, String> env() {
    return Map.of("HOME", dir.resolve("home").toString());
  }

  static Stream<Arguments> lockedCommands() {
    return Stream.of(
        Arguments.of("observed-hazards.json.lock", List.of("hazards", "clear", "x", "--force")),
        Arguments.of("shareability-verdicts.json.lock", List.of("measure", "s")),
        Arguments.of("shareability-verdicts.json.lock", List.of("measure", "--all")));
  }

  @ParameterizedTest(name = "{1} with {0} a link")
  @MethodSource("lockedCommands")
  void aLockFileThatIsALinkIsRefusedAndItsTargetKeepsItsBytes(String lock, List<String> command)
      throws Exception {
    Path records = Files.createDirectories(dir.resolve("records"));
    Path victim = dir.resolve("authorized_keys");
    Files.write(victim, PRECIOUS);
    Path link = records.resolve(lock);
    Files.createSymbolicLink(link, victim);

    List<String> args = new ArrayList<>(command);
    args.addAll(List.of("--config", config().toString(), "--records-dir", records.toString()));
    if (command.get(0).equals("hazards")) {
      args.subList(args.size() - 4, args.size() - 2).clear(); // hazards clear takes no --config
    }
    Kcshare.Result r = Kcshare.run(dir, env(), "", args.toArray(String[]::new));

    assertThat(Files.readAllBytes(victim)).isEqualTo(PRECIOUS);
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().lines().toList())
        .singleElement()
        .asString()
        .startsWith("kcshare: lock file " + link + " is a symbolic link")
        .doesNotContain("Exception");
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void aCaptureDirectoryThatIsALinkIsRefused() throws Exception {
    Path target = Files.createDirectories(dir.resolve("elsewhere"));
    Path captures = dir.resolve("captures");
    Files.createSymbolicLink(captures, target);

    Kcshare.Result r =
        Kcshare.run(
            dir,
            env(),
            "",
            "preflight",
            "s",
            "--config",
            config().toString(),
            "--capture",
            captures.toString());

    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().lines().toList())
        .singleElement()
        .asString()
        .startsWith("kcshare: --capture directory " + captures + " is a symbolic link");
    try (Stream<Path> written = Files.list(target)) {
      assertThat(written).isEmpty();
    }
  }

  @Test
  void aServersCaptureDirectoryThatIsALinkIsRefused() throws Exception {
    Path target = Files.createDirectories(dir.resolve("elsewhere"));
    Path captures = Files.createDirectories(dir.resolve("captures"));
    Files.createSymbolicLink(captures.resolve("s"), target);

    Kcshare.Result r =
        Kcshare.run(
            dir,
            env(),
            "",
            "preflight",
            "s",
            "--config",
            config().toString(),
            "--capture",
            captures.toString());

    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().lines().toList())
        .singleElement()
        .asString()
        .startsWith("kcshare: capture directory " + captures.resolve("s") + " is a symbolic link");
    try (Stream<Path> written = Files.list(target)) {
      assertThat(written).isEmpty();
    }
  }

  // ---- who may write the records directory: run as nobody (or as root) ----

  private static boolean root() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("Uid:")) {
        return line.substring(4).strip().split("\\s+")[1].equals("0");
      }
    }
    return false;
  }

  /**
   * kcshare trusts a group-writable directory only where getfacl can tell that no ACL entry lets
   * others write it, and the ACL test makes one with setfacl: both are Debian's acl, which .ci/run
   * installs.
   */
  private static void assumeAclTools() {
    boolean tools =
        Files.isExecutable(Path.of("/usr/bin/getfacl"))
            && Files.isExecutable(Path.of("/usr/bin/setfacl"));
    if (!tools && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("getfacl/setfacl are not installed (.ci/run installs Debian's acl)");
    }
    Assumptions.assumeTrue(tools, "getfacl/setfacl (Debian's acl) are not installed");
  }

  private static void assumeRoot() throws IOException {
    Assumptions.assumeTrue(
        root(), "kcshare is run as nobody through setpriv, which needs root; not root here");
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv (util-linux) is not installed");
  }

  /**
   * A records directory with this owner and mode (chmod'ed explicitly: the umask plays no part).
   */
  private Path records(String name, int uid, int gid, String mode) throws Exception {
    Path records = Files.createDirectories(dir.resolve(name));
    Files.setAttribute(records, "unix:uid", uid);
    Files.setAttribute(records, "unix:gid", gid);
    sh("chmod", mode, records.toString());
    return records;
  }

  private static void sh(String... command) throws Exception {
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
  }

  /** Runs the launcher as nobody ({@code setpriv}), or as root when {@code asNobody} is false. */
  private Kcshare.Result run(boolean asNobody, String... args) throws Exception {
    if (!asNobody) {
      return run(List.of(), Kcshare.launcher(), args);
    }
    return run(
        List.of(
            "/usr/bin/setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "--"),
        Kcshare.launcherOthersCanRun(),
        args);
  }

  /** Runs {@code launcher} under the command {@code prefix} (setpriv, strace, or none). */
  private Kcshare.Result run(List<String> prefix, Path launcher, String... args) throws Exception {
    List<String> command = new ArrayList<>(prefix);
    command.add(launcher.toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("KCSHARE_CDS", "0");
    pb.environment().put("HOME", dir.resolve("home").toString());
    pb.environment().remove("KCSHARE_RECORDS_DIR");
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    p.getOutputStream().close();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("kcshare did not finish within 120 s: " + command);
    }
    return new Kcshare.Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static List<String> names(Path records) throws IOException {
    try (Stream<Path> s = Files.list(records)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  static Stream<Arguments> refusedDirectories() {
    return Stream.of(
        Arguments.of(
            "nobody's, 1777", NOBODY, NOBODY, "1777", true, "is writable by others", "1777"),
        Arguments.of(
            "nobody's, 0777", NOBODY, NOBODY, "0777", true, "is writable by others", "0777"),
        Arguments.of(
            "nobody's, 0775, group nogroup",
            NOBODY,
            NOBODY,
            "0775",
            true,
            "is writable by group nogroup",
            "0775"),
        Arguments.of(
            "root's, 0755, run as nobody",
            0,
            0,
            "0755",
            true,
            "is owned by root, not by the user running kcshare",
            "0755"),
        Arguments.of(
            "root's, 0777, run as root", 0, 0, "0777", false, "is writable by others", "0777"),
        Arguments.of(
            "nobody's, 0755, run as root",
            NOBODY,
            NOBODY,
            "0755",
            false,
            "is owned by nobody, not by the user running kcshare",
            "0755"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedDirectories")
  void aDirectoryOthersCanWriteIsNotWritten(
      String name, int uid, int gid, String mode, boolean asNobody, String why, String shown)
      throws Exception {
    assumeRoot();
    Path records = records("records", uid, gid, mode);
    String owner = uid == 0 ? "root" : "nobody";

    Path mcphub = dir.resolve("mcp_settings.json");
    Files.writeString(mcphub, "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\"}}}\n");
    Files.setPosixFilePermissions(mcphub, PosixFilePermissions.fromString("rw-r--r--"));
    for (List<String> command :
        List.of(
            List.of("hazards", "clear", "x", "--force", "--records-dir", records.toString()),
            List.of(
                "seed",
                "--gateway",
                "mcphub",
                "--apply",
                "--gateway-config",
                mcphub.toString(),
                "--config",
                config().toString(),
                "--records-dir",
                records.toString()),
            List.of(
                "measure",
                "--all",
                "--config",
                config().toString(),
                "--records-dir",
                records.toString()))) {
      Kcshare.Result r = run(asNobody, command.toArray(String[]::new));
      assertThat(r.exitCode()).as(command + ": " + r.stderr()).isEqualTo(2);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr().lines().toList())
          .as(String.join(" ", command))
          .singleElement()
          .asString()
          .startsWith(
              "kcshare: records directory "
                  + records
                  + " "
                  + why
                  + " (owner "
                  + owner
                  + ", mode "
                  + shown
                  + "): ")
          .contains(
              why.startsWith("is owned")
                  ? "sudo -u " + owner + " kcshare"
                  : "chmod go-w " + records);
      assertThat(names(records)).as("nothing is written").isEmpty();
    }
  }

  /**
   * An ACL counts: root's 0700 directory plus {@code setfacl -m u:nobody:rwx} reads 0770 (the group
   * bits are the ACL mask) under root's private group, and nobody may now replace its files.
   */
  @Test
  void anAclThatLetsAnotherUserWriteIsNotWritten() throws Exception {
    assumeRoot();
    assumeAclTools();
    Path records = records("records", 0, 0, "0700");
    String[] clear = {"hazards", "clear", "x", "--force", "--records-dir", records.toString()};
    Kcshare.Result plain = run(false, clear);
    assertThat(plain.exitCode()).as(plain.stderr()).isZero();
    for (String name : names(records)) {
      Files.delete(records.resolve(name));
    }

    sh("setfacl", "-m", "u:nobody:rwx", records.toString());
    Kcshare.Result r = run(false, clear);
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stderr())
        .startsWith(
            "kcshare: records directory "
                + records
                + " has an ACL that lets user nobody write it (owner root, mode 0770)");
    assertThat(names(records)).as("nothing is written").isEmpty();
  }

  /**
   * A group is judged by its gid: a second {@code /etc/group} entry sharing root's gid ({@code
   * groupadd -o}) that lists nobody makes root's 0770 directory writable by nobody too.
   */
  @Test
  void aSecondGroupEntryWithTheSameGidMakesTheGroupShared() throws Exception {
    assumeRoot();
    assumeAclTools();
    Path records = records("records", 0, 0, "0770");
    String[] clear = {"hazards", "clear", "x", "--force", "--records-dir", records.toString()};
    // Alone in its private group, root may write its own directory.
    Kcshare.Result alone = run(false, clear);
    assertThat(alone.exitCode()).as(alone.stderr()).isZero();

    String duplicate = "kcsdup" + ProcessHandle.current().pid();
    sh("groupadd", "-o", "-g", "0", "-U", "nobody", duplicate);
    try {
      Kcshare.Result shared = run(false, clear);
      assertThat(shared.exitCode()).as(shared.stderr()).isEqualTo(2);
      assertThat(shared.stderr())
          .startsWith(
              "kcshare: records directory "
                  + records
                  + " is writable by group root, which has other members (nobody)");
    } finally {
      // groupdel refuses a gid that is a user's primary group: the one line is removed by name.
      for (String file : List.of("/etc/group", "/etc/gshadow")) {
        if (Files.exists(Path.of(file))) {
          sh("sed", "-i", "/^" + duplicate + ":/d", file);
        }
      }
    }
  }

  @Test
  void readOnlyCommandsStillAnswerFromSuchADirectoryWithOneWarning() throws Exception {
    assumeRoot();
    Path records = records("records", NOBODY, NOBODY, "1777");
    Files.writeString(
        records.resolve("observed-hazards.json"),
        "{\"schema\": 1, \"servers\": {}}\n",
        StandardCharsets.UTF_8);
    for (List<String> command :
        List.of(
            List.of("hazards", "list", "--json"),
            List.of("records"),
            List.of("assess", "--all", "--config", config().toString()),
            List.of("cost", "--config", config().toString()))) {
      List<String> args = new ArrayList<>(command);
      args.addAll(List.of("--records-dir", records.toString()));
      Kcshare.Result r = run(true, args.toArray(String[]::new));
      assertThat(r.exitCode()).as(command + ": " + r.stderr()).isZero();
      assertThat(r.stdout()).isNotEmpty();
      assertThat(r.stderr().lines().filter(l -> l.startsWith("kcshare: warning: records")))
          .as(String.join(" ", command))
          .singleElement()
          .asString()
          .startsWith(
              "kcshare: warning: records directory "
                  + records
                  + " is writable by others (owner nobody, mode 1777)");
    }
  }

  /**
   * A records "directory" that is a file others may write (a 0666 file, {@code /dev/null}) gets no
   * trust warning: its mode says nothing about a directory, and the warning would advise {@code
   * chmod go-w} on it. Each record file reads as "not a directory", as nothing observed.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"a 0666 file", "/dev/null"})
  void aRecordsPathThatIsAFileGetsNoTrustAdvice(String what) throws Exception {
    Path file = Path.of("/dev/null");
    if (!what.equals("/dev/null")) {
      file = Files.writeString(dir.resolve("file"), "");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    }
    for (List<String> command :
        List.of(List.of("hazards", "list"), List.of("records"), List.of("assess", "--all"))) {
      List<String> args = new ArrayList<>(command);
      if (command.get(0).equals("assess")) {
        args.addAll(List.of("--config", config().toString()));
      }
      args.addAll(List.of("--records-dir", file.toString()));
      Kcshare.Result r = Kcshare.run(dir, env(), "", args.toArray(String[]::new));
      assertThat(r.exitCode()).as(command + ": " + r.stderr()).isZero();
      assertThat(r.stderr())
          .as(String.join(" ", command))
          .doesNotContain("chmod")
          .doesNotContain("writable by others")
          .contains(file + "/observed-hazards.json\" as empty: unreadable: not a directory");
    }
  }

  static Stream<Arguments> trustedDirectories() {
    return Stream.of(
        Arguments.of("nobody's, 0700", NOBODY, NOBODY, "0700", true),
        Arguments.of("nobody's, 0755", NOBODY, NOBODY, "0755", true),
        Arguments.of("root's, 0775 under root's private group", 0, 0, "0775", false),
        Arguments.of("root's, 0755", 0, 0, "0755", false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("trustedDirectories")
  void aDirectoryOnlyItsOwnerCanWriteIsWritten(
      String name, int uid, int gid, String mode, boolean asNobody) throws Exception {
    assumeRoot();
    if (mode.charAt(2) == '7') {
      assumeAclTools();
    }
    Path records = records("records", uid, gid, mode);
    Kcshare.Result r =
        run(asNobody, "hazards", "clear", "x", "--force", "--records-dir", records.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).doesNotContain("warning");
    assertThat(names(records)).contains("observed-hazards.json", "observed-hazards.json.lock");
  }

  @Test
  void aProcessRegistryInSuchADirectoryIsNeverActedOn() throws Exception {
    assumeRoot();
    Path records = records("records", NOBODY, NOBODY, "1777");
    // A process of nobody's, and an entry claiming a dead kcshare run left it behind: what anyone
    // who can write the directory could plant to have kcshare end a process of their choice.
    Process victim =
        new ProcessBuilder(
                "/usr/bin/setpriv",
                "--reuid=" + NOBODY,
                "--regid=" + NOBODY,
                "--clear-groups",
                "--",
                "/bin/sh",
                "-c",
                "echo ready; exec sleep 300")
            .start();
    try {
      // Once it says ready it runs as nobody; its start time, read below, survives the exec.
      assertThat(
              new java.io.BufferedReader(
                      new java.io.InputStreamReader(
                          victim.getInputStream(), StandardCharsets.UTF_8))
                  .readLine())
          .isEqualTo("ready");
      String stat = Files.readString(Path.of("/proc", Long.toString(victim.pid()), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long startTime = Long.parseLong(fields[19]);
      Files.writeString(
          records.resolve("kcshare-processes.json"),
          "{\"processes\": [{\"pid\": "
              + victim.pid()
              + ", \"startTime\": "
              + startTime
              + ", \"group\": false, \"ownerPid\": 2147483000, \"ownerStartTime\": 1,"
              + " \"owner\": \"forged\"}]}\n");

      Kcshare.Result r =
          run(true, "hazards", "clear", "x", "--force", "--records-dir", records.toString());

      assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
      // Read from /proc, not Process.isAlive(): a process just killed stays "alive" until reaped.
      String after = Files.readString(Path.of("/proc", Long.toString(victim.pid()), "stat"));
      assertThat(after.substring(after.lastIndexOf(')') + 2))
          .as("the planted entry's process still runs")
          .doesNotStartWith("Z");
    } finally {
      victim.destroyForcibly();
      victim.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aMissingDirectoryIsCreatedPrivateAndWritten() throws Exception {
    assumeRoot();
    Path parent = records("parent", NOBODY, NOBODY, "0755");
    Path records = parent.resolve("a").resolve("records");
    Kcshare.Result r =
        run(true, "hazards", "clear", "x", "--force", "--records-dir", records.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(records)))
        .isEqualTo("rwx------");
    assertThat(Files.getAttribute(records, "unix:uid")).isEqualTo(NOBODY);
  }

  @Test
  void aRecordsDirectoryReachedThroughALinkIsCheckedWhereItLeads() throws Exception {
    assumeRoot();
    Path open = records("open", NOBODY, NOBODY, "0777");
    Path link = dir.resolve("link");
    Files.createSymbolicLink(link, open);
    Kcshare.Result r =
        run(true, "hazards", "clear", "x", "--force", "--records-dir", link.toString());
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stderr()).startsWith("kcshare: records directory " + link + " is writable");
    assertThat(names(open)).isEmpty();

    Path closed = records("closed", NOBODY, NOBODY, "0700");
    Files.delete(link);
    Files.createSymbolicLink(link, closed);
    Kcshare.Result ok =
        run(true, "hazards", "clear", "x", "--force", "--records-dir", link.toString());
    assertThat(ok.exitCode()).as(ok.stderr()).isZero();
    assertThat(names(closed)).contains("observed-hazards.json");
  }

  /** Every path under {@code top} with its owner's uid, sorted: what a run may not change. */
  private static List<String> owners(Path top) throws IOException {
    try (Stream<Path> s = Files.walk(top)) {
      List<String> out = new ArrayList<>();
      for (Path p : s.sorted().toList()) {
        out.add(
            Files.getAttribute(p, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS) + " " + p);
      }
      return out;
    }
  }

  /**
   * Root with another user's {@code HOME} ({@code su} without {@code -}, {@code sudo -E}) creates
   * and replaces nothing under it: the records directory, her Kiro Crew config, its backup and its
   * lock are refused with exit 2 and the fixes, everything there stays hers, and reading still
   * works.
   */
  @Test
  void rootWithAnotherUsersHomeCreatesNothingThere() throws Exception {
    assumeRoot();
    Path home = Files.createDirectories(dir.resolve("home"));
    Path crew = Files.createDirectories(home.resolve(".kiro/crew"));
    Files.writeString(crew.resolve("config.json"), "{\"mcp_gateway\": {}}\n");
    Path settings = Files.createDirectories(home.resolve(".kiro/settings"));
    Files.writeString(
        settings.resolve("mcp.json"), "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\"}}}\n");
    sh("chown", "-R", NOBODY + ":" + NOBODY, home.toString());
    List<String> before = owners(home);
    byte[] config = Files.readAllBytes(crew.resolve("config.json"));

    String fixes =
        ", owned by nobody: root does not create or replace files in another user's directory:"
            + " run sudo -H kcshare ..";
    Kcshare.Result measure = run(false, "measure", "--all");
    assertThat(measure.exitCode()).as(measure.stderr()).isEqualTo(2);
    assertThat(measure.stderr().lines().toList())
        .singleElement()
        .isEqualTo(
            "kcshare: records directory "
                + crew.resolve("mcp-gateway")
                + " lies under "
                + crew
                + fixes
                + "., sudo -u nobody kcshare ..., or give --records-dir");
    for (String[] command :
        new String[][] {{"stub", "s"}, {"seed", "--apply"}, {"hazards", "clear", "s", "--force"}}) {
      Kcshare.Result r = run(false, command);
      assertThat(r.exitCode()).as(List.of(command) + ": " + r.stderr()).isEqualTo(2);
      assertThat(r.stderr().lines().toList())
          .as(List.of(command).toString())
          .singleElement()
          .asString()
          .contains(" lies under " + crew + fixes)
          .contains("sudo -u nobody kcshare ...");
    }
    for (String[] command : new String[][] {{"assess", "s"}, {"config"}, {"records"}}) {
      Kcshare.Result r = run(false, command);
      assertThat(r.exitCode()).as(List.of(command) + ": " + r.stderr()).isZero();
      assertThat(r.stdout()).isNotEmpty();
    }
    assertThat(owners(home)).as("nothing created, nothing changed hands").isEqualTo(before);
    assertThat(Files.readAllBytes(crew.resolve("config.json"))).isEqualTo(config);
  }

  /**
   * A trust check looks each owner's and group's name up once, not once per directory of the path
   * (each lookup reads /etc/passwd or /etc/group, or asks a directory service): a records directory
   * nine directories deeper opens them as often as one right below the test's directory.
   */
  @Test
  void aDeeperRecordsDirectoryLooksNoMoreNamesUp() throws Exception {
    Path strace = Kcshare.strace();
    Path shallow = Files.createDirectories(dir.resolve("shallow"));
    Path deep = Files.createDirectories(dir.resolve("a/b/c/d/e/f/g/h/deep"));

    long atShallow = nameLookups(strace, shallow);
    long atDeep = nameLookups(strace, deep);

    assertThat(atShallow).as("the check looked names up").isPositive();
    assertThat(atDeep).isEqualTo(atShallow);
  }

  /** How often {@code hazards clear} over {@code records} opened /etc/passwd or /etc/group. */
  private long nameLookups(Path strace, Path records) throws Exception {
    Path trace = dir.resolve("trace-" + records.getFileName());
    Kcshare.Result r =
        run(
            List.of(strace.toString(), "-f", "-qq", "-e", "trace=openat", "-o", trace.toString()),
            Kcshare.launcher(),
            "hazards",
            "clear",
            "x",
            "--force",
            "--records-dir",
            records.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(names(records)).contains("observed-hazards.json");
    try (Stream<String> lines = Files.lines(trace)) {
      return lines
          .filter(l -> l.contains("\"/etc/passwd\"") || l.contains("\"/etc/group\""))
          .count();
    }
  }

  static Stream<Arguments> ancestors() {
    return Stream.of(
        Arguments.of(
            "root's 0777 parent",
            0,
            0,
            "0777",
            0,
            false,
            ", which is writable by others (owner root, mode 0777): run chmod go-w "),
        Arguments.of("root's 1777 parent, records root's", 0, 0, "1777", 0, false, null),
        Arguments.of(
            "root's 1777 parent, records nobody's, run as root",
            0,
            0,
            "1777",
            NOBODY,
            false,
            "is owned by nobody, not by the user running kcshare"),
        Arguments.of(
            "nobody's 0755 parent, records root's, run as root",
            NOBODY,
            NOBODY,
            "0755",
            0,
            false,
            ", owned by nobody: root does not create or replace files in another user's"
                + " directory: run sudo -H kcshare ..., sudo -u nobody kcshare ..., or give"
                + " --records-dir"),
        Arguments.of(
            "root's 0775 parent of group nogroup, records nobody's, run as nobody",
            0,
            NOBODY,
            "0775",
            NOBODY,
            true,
            ", which is writable by group nogroup (owner root, mode 0775): run chmod go-w "),
        Arguments.of(
            "root's 0775 parent of root's private group, records nobody's, run as nobody",
            0,
            0,
            "0775",
            NOBODY,
            true,
            null));
  }

  /**
   * The whole path is trusted, not only the last directory: each ancestor of the records
   * directory's real path is root's or the user's and writable by nobody else, except a sticky one
   * whose next component root or the user owns.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("ancestors")
  void everyAncestorOfTheRecordsDirectoryIsTrusted(
      String name,
      int parentUid,
      int parentGid,
      String parentMode,
      int recordsUid,
      boolean asNobody,
      String why)
      throws Exception {
    assumeRoot();
    if (why == null && (parentMode.charAt(parentMode.length() - 2) - '0' & 2) != 0) {
      assumeAclTools(); // a group-writable ancestor passes only where getfacl shows no ACL entry
    }
    Path parent = records("parent", parentUid, parentGid, parentMode);
    Path records = Files.createDirectory(parent.resolve("records"));
    Files.setAttribute(records, "unix:uid", recordsUid);
    Files.setAttribute(records, "unix:gid", recordsUid);
    sh("chmod", "0700", records.toString());

    Kcshare.Result r =
        run(asNobody, "hazards", "clear", "x", "--force", "--records-dir", records.toString());
    if (why == null) {
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(names(records)).contains("observed-hazards.json");
      return;
    }
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stderr().lines().toList())
        .singleElement()
        .asString()
        .startsWith("kcshare: records directory " + records + " ")
        .contains(why.startsWith(",") ? " lies under " + parent + why : why);
    assertThat(names(records)).as("nothing is written").isEmpty();
  }
}
