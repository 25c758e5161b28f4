package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kcshare measure} through the packaged launcher: the progress line on a real (pseudo)
 * terminal, cron-quiet output when stderr is a file, and SIGTERM mid-pass.
 */
final class MeasureIT {
  private static final Path FIXTURE = ItProcesses.fixture();

  @TempDir Path dir;
  private final String tag = UUID.randomUUID().toString();

  @BeforeAll
  static void requireNode() {
    Assumptions.assumeTrue(onPath("node"), "node is not installed");
  }

  private static boolean onPath(String program) {
    return ItProcesses.onPath(program).isPresent();
  }

  /** Writes a config of fixture servers (name → mode) with one pid directory per server. */
  private Path config(String file, Map<String, String> modes) throws IOException {
    StringBuilder json = new StringBuilder("{\"mcpServers\": {");
    String sep = "";
    for (Map.Entry<String, String> e : modes.entrySet()) {
      Path pids = Files.createDirectories(dir.resolve("pids-" + e.getKey()));
      json.append(sep)
          .append('"')
          .append(e.getKey())
          .append("\": {\"command\": \"node\", \"args\": [")
          .append(quote(FIXTURE.toString()))
          .append(", ")
          .append(quote(e.getValue()))
          .append(", \"--pid-dir\", ")
          .append(quote(pids.toString()))
          .append(", \"--tag\", ")
          .append(quote(tag))
          .append("]}");
      sep = ", ";
    }
    json.append("}}");
    return Files.writeString(dir.resolve(file), json, StandardCharsets.UTF_8);
  }

  private static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  private List<Long> pids(String server) throws IOException {
    Path file = dir.resolve("pids-" + server).resolve("pids");
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file).stream()
        .filter(l -> !l.isBlank())
        .map(String::strip)
        .map(Long::parseLong)
        .toList();
  }

  private void assertNoFixtureRuns(String... servers) throws IOException {
    for (String server : servers) {
      for (long pid : pids(server)) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        boolean ours = h.isPresent() && h.get().isAlive() && commandLine(pid).contains(tag);
        assertThat(ours).as("fixture process %d of %s still runs", pid, server).isFalse();
      }
    }
  }

  private static String commandLine(long pid) {
    try {
      return new String(
          Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
          StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * {@code script -qfec "kcshare ARGS" /dev/null}: kcshare with a pseudo-terminal on every stream.
   */
  private Process underPty(String... args) throws IOException {
    Assumptions.assumeTrue(onPath("script"), "util-linux script is not installed");
    StringBuilder command = new StringBuilder(shellQuote(Kcshare.launcher().toString()));
    for (String a : args) {
      command.append(' ').append(shellQuote(a));
    }
    ProcessBuilder pb =
        new ProcessBuilder("script", "-qfec", command.toString(), "/dev/null")
            .directory(dir.toFile())
            .redirectInput(new File("/dev/null"))
            .redirectErrorStream(true);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("KCSHARE_CDS", "0");
    pb.environment().remove("NO_COLOR");
    pb.environment().put("TERM", "xterm"); // cursor control allowed, whatever the build's TERM
    return pb.start();
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

    void awaitText(String expected) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!text().contains(expected)) {
        if (System.nanoTime() > deadline || !isAlive() && !text().contains(expected)) {
          throw new AssertionError("never printed " + expected + ": " + text());
        }
        Thread.sleep(10);
      }
    }
  }

  @Test
  void progressLineAndSummaryOnATerminal() throws Exception {
    Map<String, String> modes = new LinkedHashMap<>();
    modes.put("a", "stable");
    modes.put("b", "stable");
    config("cfg.json", modes);
    Process p = underPty("measure", "--all", "--config", "cfg.json", "--records-dir", "rec");
    Collector out = new Collector(p.getInputStream());
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    out.join(10_000);
    assertThat(p.exitValue()).as(out.text()).isZero();
    assertThat(out.text())
        .contains("\r\u001b[Kmeasuring: 1/2 done, 1 measured")
        .contains("measuring: 2/2 done, 2 measured")
        .contains("a: handshake reproducible, stored")
        .contains("Measured 2 of 2 server(s).");
    assertThat(Files.readString(dir.resolve("rec/shareability-verdicts.json")))
        .contains("\"a\"")
        .contains("\"b\"");
    assertNoFixtureRuns("a", "b");
  }

  /**
   * docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file: measuring one server rewrites the
   * cache, and the rows of the configured servers it did not measure — one under a newer entry
   * schema, one with members this version does not know — and the file's own top-level members come
   * back as the same JSON values.
   */
  @Test
  void measuringOneServerLeavesTheOtherRowsAsTheFileHeldThem() throws Exception {
    Map<String, String> modes = new LinkedHashMap<>();
    modes.put("measured", "stable");
    modes.put("future", "stable");
    modes.put("annotated", "stable");
    config("cfg.json", modes);
    Path records = Files.createDirectories(dir.resolve("rec"));
    String text =
        "{\"applied\": [\"future\"], \"entries\": {"
            + "\"future\": {\"evaluatedAt\": 1712000000, \"identity\":"
            + " \"a\\u0000b\\u0000c\\u0000d\\u00003\", \"ran\": true,"
            + " \"verdict\": {\"tier\": \"S\", \"w\": [1e3, -0.5, null, \"\\u00e9\"]}},"
            + "\"annotated\": {\"callerSensitive\": false, \"evaluatedAt\": 5.5, \"identity\":"
            + " \"a\\u0000b\\u0000c\\u0000d\\u00002\", \"note\": {\"by\": \"gw\"},"
            + " \"ran\": true, \"reasons\": [], \"reportedVersion\": \"1\"}},"
            + " \"x-gateway\": {\"since\": 3}}";
    Path cache = Files.writeString(records.resolve("shareability-verdicts.json"), text);
    Map<String, Object> before = Json.object(Json.read(cache));

    Kcshare.Result measure =
        Kcshare.run(
            dir,
            Map.of(),
            "",
            "measure",
            "measured",
            "--config",
            "cfg.json",
            "--records-dir",
            "rec");
    assertThat(measure.exitCode()).as(measure.stderr()).isZero();

    Map<String, Object> after = Json.object(Json.read(cache));
    Map<String, Object> entriesBefore = Json.object(before.get("entries"));
    Map<String, Object> entriesAfter = Json.object(after.get("entries"));
    assertThat(entriesAfter).containsKeys("measured", "future", "annotated");
    assertThat(entriesAfter.get("future")).isEqualTo(entriesBefore.get("future"));
    assertThat(entriesAfter.get("annotated")).isEqualTo(entriesBefore.get("annotated"));
    assertThat(after.get("x-gateway")).isEqualTo(before.get("x-gateway"));
    assertThat(after.get("applied")).isEqualTo(before.get("applied"));
    assertNoFixtureRuns("measured");
  }

  @Test
  void onlyTheSummaryWhenStderrIsAFileUnlessVerbose() throws Exception {
    Map<String, String> modes = new LinkedHashMap<>();
    modes.put("a", "stable");
    modes.put("b", "exit-early");
    config("cfg.json", modes);
    Kcshare.Result quiet =
        Kcshare.run(
            dir, Map.of(), "", "measure", "--all", "--config", "cfg.json", "--records-dir", "q");
    assertThat(quiet.exitCode()).as(quiet.stderr()).isZero();
    assertThat(quiet.stdout()).isEmpty();
    assertThat(quiet.stderr())
        .as("off a terminal: the pass's one summary line")
        .isEqualTo("Measured 1 of 2 server(s); 1 could not run (not stored).\n");

    Kcshare.Result verbose =
        Kcshare.run(
            dir,
            Map.of(),
            "",
            "-v",
            "measure",
            "--all",
            "--config",
            "cfg.json",
            "--records-dir",
            "v");
    assertThat(verbose.exitCode()).as(verbose.stderr()).isZero();
    assertThat(verbose.stdout()).isEmpty();
    assertThat(verbose.stderr())
        .doesNotContain("measuring:")
        .doesNotContain("\u001b[K")
        .contains("b: could not run: no response")
        .contains("Measured 1 of 2 server(s); 1 could not run (not stored).");

    Kcshare.Result json =
        Kcshare.run(
            dir,
            Map.of(),
            "",
            "measure",
            "--all",
            "--config",
            "cfg.json",
            "--records-dir",
            "j",
            "--json");
    assertThat(json.exitCode()).as(json.stderr()).isZero();
    assertThat(json.stderr())
        .isEqualTo("Measured 1 of 2 server(s); 1 could not run (not stored).\n");
    assertThat(json.stdout().strip()).startsWith("[").endsWith("]").contains("\"stored\": false");
    assertNoFixtureRuns("a", "b");
  }

  @Test
  void sigtermMidPassKeepsTheCompletedRowsAndLeavesNoServerBehind() throws Exception {
    Map<String, String> modes = new LinkedHashMap<>();
    modes.put("quick", "stable");
    modes.put("hang", "silent");
    config("cfg.json", modes);
    Process script =
        underPty(
            "measure", "--all", "--config", "cfg.json", "--records-dir", "rec", "--timeout", "60");
    Collector out = new Collector(script.getInputStream());
    try {
      // The progress line says the quick server's verdict is in: the hanging one keeps the pass
      // running until its 60 s timeout.
      out.awaitText("1 measured");
      List<ProcessHandle> kcshare = new ArrayList<>();
      script
          .descendants()
          .filter(h -> h.info().command().map(c -> c.endsWith("/java")).orElse(false))
          .forEach(kcshare::add);
      assertThat(kcshare).as("the kcshare JVM").hasSize(1);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (pids("hang").size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(pids("hang")).hasSize(2);
      long signalled = System.nanoTime();
      assertThat(kcshare.get(0).destroy()).isTrue();
      assertThat(script.waitFor(60, TimeUnit.SECONDS)).as(out.text()).isTrue();
      out.join(10_000);
      // Well before the shutdown hook's 20 s limit: it waits for the flush, not for main's exit.
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - signalled))
          .as("seconds from SIGTERM to exit")
          .isLessThan(15);
    } finally {
      script.descendants().forEach(ProcessHandle::destroyForcibly);
      script.destroyForcibly();
    }
    assertThat(out.text())
        .contains("interrupted; verdicts measured before the interruption were kept");
    String cache = Files.readString(dir.resolve("rec/shareability-verdicts.json"));
    assertThat(cache).contains("\"quick\"").doesNotContain("\"hang\"");
    assertNoFixtureRuns("quick", "hang");
  }
}
