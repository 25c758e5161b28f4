package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the packaged launcher: a server that always fails for lack of a variable is remembered in
 * {@code kcshare-attempts.json} (and never in the verdict cache), shown by {@code assess} with the
 * advice that fits, skipped by {@code measure --all} after two failures until {@code
 * --retry-failed} or a named measure, and forgotten once it runs; {@code -q} stays silent while
 * another pass holds the records; the terminal display shows results, what is in flight and whom it
 * waits for; and an unwritable {@code --metrics} file prints nothing on stdout.
 */
final class FailedPreflightsIT {
  private static final Path FIXTURE = ItProcesses.fixture();

  @TempDir Path work;
  private Path config;

  @BeforeEach
  void writeConfig() throws Exception {
    Assumptions.assumeTrue(RealServers.nodeOnPath().isPresent(), "node is not installed");
    Assumptions.assumeTrue(System.getenv("FIXTURE_TOKEN") == null, "FIXTURE_TOKEN is set");
    Map<String, Object> servers = new LinkedHashMap<>();
    servers.put("needs-env", fixture("needs-env"));
    servers.put("ok", fixture("stable"));
    servers.put("slow", fixture("stable", "--delay-ms", "8000"));
    config = work.resolve("mcp.json");
    Files.writeString(config, Json.write(Map.of("mcpServers", servers)), StandardCharsets.UTF_8);
  }

  private Map<String, Object> fixture(String mode, String... flags) throws IOException {
    Path pids = Files.createDirectories(work.resolve("pids-" + mode + flags.length));
    List<Object> args = new ArrayList<>(List.of(FIXTURE.toString(), mode));
    args.addAll(List.of(flags));
    args.addAll(List.of("--pid-dir", pids.toString()));
    return Map.of("command", "node", "args", args);
  }

  private int spawns(String mode) throws IOException {
    Path file = work.resolve("pids-" + mode + "0").resolve("pids");
    return Files.exists(file)
        ? (int) Files.readAllLines(file).stream().filter(l -> !l.isBlank()).count()
        : 0;
  }

  private List<String> args(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", config.toString(), "--records-dir", records().toString()));
    return all;
  }

  private Kcshare.Result kcshare(Map<String, String> env, String... args) throws Exception {
    return Kcshare.run(work, env, "", args(args).toArray(String[]::new));
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    return kcshare(Map.of(), args);
  }

  private Path records() {
    return work.resolve("records");
  }

  private Map<String, Object> attempts() throws IOException {
    Path file = records().resolve("kcshare-attempts.json");
    if (!Files.exists(file)) {
      return Map.of();
    }
    Map<String, Object> doc = Json.object(Json.read(file));
    assertThat(doc.get("schema")).isEqualTo(1L);
    return Json.object(doc.get("servers"));
  }

  @Test
  void aServerThatKeepsFailingIsRememberedShownBackedOffAndForgottenOnceItRuns() throws Exception {
    Kcshare.Result first = kcshare("measure", "needs-env", "ok", "--json");
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    Map<String, Object> failed = Json.byName(Json.parse(first.stdout())).get("needs-env");
    assertThat(failed)
        .containsEntry("ran", false)
        .containsEntry("detail", "no response (process exited with status 1)")
        .containsEntry("stderrTail", "fixture: FIXTURE_TOKEN is not set\n")
        .containsEntry("exitStatus", "exit 1")
        .containsEntry("stored", false);

    // Remembered in kcshare's own file, 0600; the shared cache has no row for it.
    Path file = records().resolve("kcshare-attempts.json");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    Map<String, Object> entry = Json.object(attempts().get("needs-env"));
    assertThat(new ArrayList<>(entry.keySet()))
        .containsExactly("at", "identity", "detail", "exitStatus", "stderrTail", "failures");
    assertThat(entry)
        .containsEntry("detail", "no response (process exited with status 1)")
        .containsEntry("exitStatus", "exit 1")
        .containsEntry("stderrTail", "fixture: FIXTURE_TOKEN is not set\\n")
        .containsEntry("failures", 1L);
    Map<String, Object> cache =
        Json.object(
            Json.object(Json.read(records().resolve("shareability-verdicts.json"))).get("entries"));
    assertThat(cache).containsOnlyKeys("ok");

    // assess: the table, the detail with the advice, and JSON; the verdict stays unknown.
    Kcshare.Result table = kcshare("assess", "--all");
    assertThat(
            table
                .stdout()
                .lines()
                .filter(l -> l.startsWith("needs-env "))
                .findFirst()
                .orElseThrow())
        .matches("needs-env +unknown +no +no +- +- +could not run just now");
    Kcshare.Result detail = kcshare("assess", "needs-env");
    assertThat(detail.stdout())
        .contains("  last attempt: could not run just now")
        .contains("    stderr: fixture: FIXTURE_TOKEN is not set\\n")
        .contains("    advice: set the environment variable FIXTURE_TOKEN it asks for");
    Map<String, Map<String, Object>> json =
        Json.byName(Json.parse(kcshare("assess", "--all", "--json").stdout()));
    assertThat(json.get("needs-env").get("identity")).isEqualTo(entry.get("identity"));
    assertThat(json.get("needs-env").get("strength")).isEqualTo("unknown");
    Map<String, Object> last = Json.object(json.get("needs-env").get("lastAttempt"));
    assertThat(new ArrayList<>(last.keySet()))
        .containsExactly("at", "detail", "exitStatus", "stderrTail", "failures");
    assertThat(last.get("at")).isEqualTo(entry.get("at"));
    assertThat(json.get("ok")).doesNotContainKey("lastAttempt");

    // A named measure while debugging does not count; a second failure of measure --all does,
    // and the next measure --all skips it, and says so.
    assertThat(kcshare("measure", "needs-env").exitCode()).isZero();
    assertThat(Json.object(attempts().get("needs-env"))).containsEntry("failures", 1L);
    assertThat(kcshare("measure", "--all").exitCode()).isZero();
    assertThat(Json.object(attempts().get("needs-env"))).containsEntry("failures", 2L);
    int spawned = spawns("needs-env");
    Kcshare.Result skipped = kcshare("-v", "measure", "--all");
    assertThat(skipped.exitCode()).as(skipped.stderr()).isZero();
    assertThat(skipped.stderr())
        .contains(
            "Skipped 1 server(s) whose pre-flight kept failing (needs-env); --retry-failed"
                + " tries them now.");
    assertThat(spawns("needs-env")).isEqualTo(spawned);

    Kcshare.Result retried = kcshare("measure", "--all", "--retry-failed", "--json");
    assertThat(Json.byName(Json.parse(retried.stdout()))).containsKey("needs-env");
    assertThat(spawns("needs-env")).isGreaterThan(spawned);
    assertThat(Json.object(attempts().get("needs-env"))).containsEntry("failures", 3L);

    // Set the variable: a named measure runs it, stores it and forgets the failures.
    Kcshare.Result fixed =
        kcshare(Map.of("FIXTURE_TOKEN", "t0ken"), "measure", "needs-env", "--json");
    assertThat(Json.byName(Json.parse(fixed.stdout())).get("needs-env"))
        .containsEntry("stored", true);
    assertThat(attempts()).doesNotContainKey("needs-env");
    assertThat(kcshare("assess", "needs-env").stdout()).doesNotContain("last attempt");
  }

  @Test
  void quietIsSilentWhileAnotherPassHoldsTheRecordsAndATerminalSaysWhomItWaitsFor()
      throws Exception {
    // A pass measuring the slow server holds the lock for about eight seconds.
    Process holder = start("measure", "slow");
    try {
      awaitSpawn("stable2");
      Kcshare.Result quiet = kcshare("measure", "--all", "--no-wait", "-q");
      assertThat(quiet.exitCode()).isZero();
      assertThat(quiet.stdout()).isEmpty();
      assertThat(quiet.stderr()).isEmpty();

      Process waiter = underPty(Map.of("TERM", "dumb"), "measure", "ok");
      Collector out = new Collector(waiter.getInputStream());
      assertThat(waiter.waitFor(120, TimeUnit.SECONDS)).isTrue();
      out.join(10_000);
      assertThat(out.text())
          .contains("waiting for process " + holder.pid() + " (kcshare measure slow")
          .contains("to finish its pass on these records...")
          .contains("ok: handshake reproducible, stored")
          .doesNotContain("\u001b");
    } finally {
      assertThat(holder.waitFor(120, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(holder.exitValue()).isZero();
  }

  @Test
  void aTerminalShowsResultsAndTheServersInFlight() throws Exception {
    Process p = underPty(Map.of("TERM", "xterm"), "measure", "--all");
    Collector out = new Collector(p.getInputStream());
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    out.join(10_000);
    assertThat(p.exitValue()).as(out.text()).isZero();
    assertThat(out.text())
        .containsPattern("in flight: [^\r]*slow \\ds")
        .contains("ok: handshake reproducible, stored\r\n")
        .contains("needs-env: could not run: no response (process exited with status 1)")
        .contains("Measured 2 of 3 server(s); 1 could not run (not stored).");
    assertThat(out.text().replace("\r\u001b[K", "")).doesNotContain("\u001b");
  }

  @Test
  void anUnwritableMetricsFilePrintsNothingOnStdoutAndExitsTwo() throws Exception {
    for (String[] extra : new String[][] {{"--all"}, {"--all", "--json"}, {"ok"}}) {
      List<String> a = new ArrayList<>(List.of("assess", "--metrics", config + "/kcshare.prom"));
      a.addAll(List.of(extra));
      Kcshare.Result r = kcshare(a.toArray(String[]::new));
      assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr()).contains("kcshare.prom").contains("cannot write metrics");
      assertThat(r.stderr().lines()).hasSize(1);
    }
  }

  // ------------------------------------------------------------------ helpers

  private Process start(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Kcshare.launcher().toString()));
    command.addAll(args(args));
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(work.toFile())
            .redirectInput(new File("/dev/null"))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("KCSHARE_CDS", "0");
    return pb.start();
  }

  private void awaitSpawn(String pidDir) throws Exception {
    Path file = work.resolve("pids-" + pidDir).resolve("pids");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(file) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(file).exists();
  }

  private Process underPty(Map<String, String> env, String... args) throws IOException {
    Assumptions.assumeTrue(onPath("script"), "util-linux script is not installed");
    StringBuilder command = new StringBuilder(shellQuote(Kcshare.launcher().toString()));
    for (String a : args(args)) {
      command.append(' ').append(shellQuote(a));
    }
    ProcessBuilder pb =
        new ProcessBuilder("script", "-qfec", command.toString(), "/dev/null")
            .directory(work.toFile())
            .redirectInput(new File("/dev/null"))
            .redirectErrorStream(true);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("KCSHARE_CDS", "0");
    pb.environment().remove("NO_COLOR");
    pb.environment().putAll(env);
    return pb.start();
  }

  private static boolean onPath(String program) {
    return ItProcesses.onPath(program).isPresent();
  }

  private static String shellQuote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /** Collects a stream in the background. */
  private static final class Collector extends Thread {
    private final InputStream in;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    Collector(InputStream in) {
      this.in = in;
      setDaemon(true);
      start();
    }

    @Override
    public void run() {
      byte[] buf = new byte[4096];
      try {
        for (int n; (n = in.read(buf)) >= 0; ) {
          synchronized (bytes) {
            bytes.write(buf, 0, n);
          }
        }
      } catch (IOException e) {
        // the process is gone
      }
    }

    String text() {
      synchronized (bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
      }
    }
  }
}
