package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.PassResult;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The live display of {@code kcshare measure}, rendered to a string with a hand-driven clock. */
final class MeasureDisplayTest {
  private static final long SECOND = 1_000_000_000L;

  private final StringWriter out = new StringWriter();
  private final AtomicLong nanos = new AtomicLong(1_000 * SECOND);
  private Runnable tick;
  private boolean stopped;

  private MeasureDisplay display(MeasureDisplay.Mode mode, boolean verbose, int columns) {
    return new MeasureDisplay(
        new PrintWriter(out),
        mode,
        verbose,
        nanos::get,
        columns,
        t -> {
          tick = t;
          return () -> stopped = true;
        });
  }

  private static PassResult.Measured failed(String name) {
    String detail = "no response (process exited with status 1)";
    return new Results.Measured(
        name,
        PreflightResult.couldNotRun(detail, null, null),
        false,
        "fixture: FIXTURE_TOKEN is not set\\n",
        "exit 1",
        3,
        new Results.Launch(
            List.of("/usr/bin/node", "/srv/x y.mjs", "needs-env"),
            List.of("FIXTURE_TOKEN"),
            "/srv"),
        List.of(
            new Results.Spawn(
                "A",
                Era.LEGACY,
                false,
                PassResult.Spawn.Status.FAILED,
                detail,
                "tail",
                "exit 1",
                new Results.Phases(Duration.ofMillis(3), null, null, Duration.ofMillis(12)))));
  }

  private static PassResult.Measured measured(String name) {
    return new Results.Measured(
        name, new PreflightResult(true, false, "", Era.LEGACY, "1.0", null), true, "", null);
  }

  @Test
  void liveModeKeepsAStatusLineWithWhatIsInFlightAndPrintsResultsAboveIt() {
    MeasureDisplay d = display(MeasureDisplay.Mode.LIVE, false, 120);
    assertThat(tick).as("a live display ticks").isNotNull();
    d.onStarted("alpha");
    nanos.addAndGet(2 * SECOND);
    d.onStarted("beta");
    nanos.addAndGet(3 * SECOND);
    tick.run();
    assertThat(out.toString())
        .endsWith("\r\u001b[Kmeasuring: starting; in flight: alpha 5s, beta 3s");

    d.onFinished(measured("alpha"));
    d.onProgress(new Results.PassProgress(true, 1, 1, 2));
    String afterFirst = out.toString();
    assertThat(afterFirst)
        .contains("\r\u001b[Kalpha: handshake reproducible, stored\n")
        .endsWith("\r\u001b[Kmeasuring: 1/2 done, 1 measured; in flight: beta 3s");

    d.onFinished(failed("beta"));
    d.onProgress(new Results.PassProgress(true, 2, 1, 2));
    d.onProgress(new Results.PassProgress(false, 2, 1, 2));
    d.close();
    assertThat(stopped).isTrue();
    String all = out.toString();
    assertThat(all)
        .as("one result's lines stay together")
        .contains(
            "beta: could not run: no response (process exited with status 1)\n"
                + "  stderr: fixture: FIXTURE_TOKEN is not set\\n\n"
                + "  3 failures in a row: `measure --all` skips it for 2h")
        .endsWith("\r\u001b[K");
    assertThat(d.printedResults()).isTrue();
    // Only the erase-line sequence ever reaches the terminal.
    assertThat(all.replace("\r\u001b[K", "")).doesNotContain("\u001b").doesNotContain("\r");
  }

  @Test
  void waitingForAnotherPassNamesItsProcessAndCountsTheSeconds() {
    MeasureDisplay d = display(MeasureDisplay.Mode.LIVE, false, 120);
    d.onWaitingForLock("process 4242 (kcshare measure --all)");
    assertThat(out.toString())
        .endsWith(
            "waiting for process 4242 (kcshare measure --all) to finish its pass on these"
                + " records... 0s");
    nanos.addAndGet(75 * SECOND);
    tick.run();
    assertThat(out.toString()).endsWith("records... 1m");
    d.onStarted("a");
    assertThat(out.toString()).endsWith("measuring: starting; in flight: a 0s");
    d.close();
  }

  @Test
  void theStatusLineIsCutToTheTerminalWidth() {
    MeasureDisplay d = display(MeasureDisplay.Mode.LIVE, false, 40);
    d.onStarted("a-server-with-a-rather-long-name");
    d.onStarted("another-server-with-a-long-name");
    String last = out.toString().substring(out.toString().lastIndexOf("\u001b[K") + 3);
    assertThat(last).hasSize(39).endsWith("...");
    d.close();
  }

  @Test
  void linesModePrintsWholeLinesOnlyAndNeverAStatusLine() {
    MeasureDisplay d = display(MeasureDisplay.Mode.LINES, false, 80);
    assertThat(tick).as("nothing to redraw").isNull();
    d.onWaitingForLock("another process");
    d.onStarted("a");
    d.onFinished(measured("a"));
    d.onRetrying("slow", Duration.ofSeconds(30));
    d.onProgress(new Results.PassProgress(true, 1, 1, 2));
    d.close();
    assertThat(out.toString())
        .isEqualTo(
            "waiting for another process to finish its pass on these records...\n"
                + "a: handshake reproducible, stored\n"
                + "slow: timed out while other servers were measured; trying it again alone with"
                + " a 30 s timeout\n");
  }

  @Test
  void offModePrintsNothing() {
    MeasureDisplay d = display(MeasureDisplay.Mode.OFF, true, 80);
    d.onWaitingForLock("another process");
    d.onStarted("a");
    d.onFinished(failed("a"));
    d.onProgress(new Results.PassProgress(false, 1, 0, 1));
    d.close();
    assertThat(out.toString()).isEmpty();
    assertThat(d.printedResults()).isFalse();
  }

  @Test
  void verboseResultsShowHowTheServerWasStartedWithEnvNamesOnly() {
    MeasureDisplay d = display(MeasureDisplay.Mode.LINES, true, 80);
    d.onFinished(failed("b"));
    d.close();
    assertThat(out.toString())
        .contains("  command: /usr/bin/node \"/srv/x y.mjs\" needs-env\n")
        .contains(
            "  env: FIXTURE_TOKEN declared (values not shown), over kcshare's own environment\n")
        .contains("  working directory: /srv\n")
        .contains(
            "  A: spawn 3 ms -> initialize - -> exit 12 ms; exit 1; failed: no response (process"
                + " exited with status 1)\n");
  }

  @Test
  void theModeFollowsTheTerminalQuietAndJson() {
    Terminal tty = new Terminal(false, true, true, 80);
    Terminal dumb = new Terminal(false, true, false, 80);
    Terminal pipe = new Terminal(false, false, true, 80);
    assertThat(MeasureDisplay.modeFor(tty, false, false)).isEqualTo(MeasureDisplay.Mode.LIVE);
    assertThat(MeasureDisplay.modeFor(dumb, false, false)).isEqualTo(MeasureDisplay.Mode.LINES);
    assertThat(MeasureDisplay.modeFor(pipe, false, false)).isEqualTo(MeasureDisplay.Mode.OFF);
    assertThat(MeasureDisplay.modeFor(tty, true, false)).isEqualTo(MeasureDisplay.Mode.OFF);
    assertThat(MeasureDisplay.modeFor(tty, false, true)).isEqualTo(MeasureDisplay.Mode.OFF);
    // -v: log lines come between results, so no status line is redrawn under them.
    assertThat(MeasureDisplay.modeFor(tty, false, false, 1)).isEqualTo(MeasureDisplay.Mode.LINES);
    assertThat(MeasureDisplay.modeFor(tty, false, false, 2)).isEqualTo(MeasureDisplay.Mode.LINES);
    assertThat(MeasureDisplay.modeFor(pipe, false, false, 1)).isEqualTo(MeasureDisplay.Mode.OFF);
    assertThat(MeasureDisplay.modeFor(tty, false, false, 0)).isEqualTo(MeasureDisplay.Mode.LIVE);
  }

  @Test
  void terminalReadsTermNoColorAndColumns() {
    assertThat(terminal(Map.of("KCSHARE_STDERR_TTY", "1")).cursorOnStderr()).isTrue();
    assertThat(terminal(Map.of("KCSHARE_STDERR_TTY", "1", "TERM", "dumb")).cursorOnStderr())
        .isFalse();
    assertThat(terminal(Map.of("KCSHARE_STDERR_TTY", "1", "NO_COLOR", "1")).cursorOnStderr())
        .isFalse();
    assertThat(terminal(Map.of("KCSHARE_STDERR_TTY", "1", "NO_COLOR", "")).cursorOnStderr())
        .isTrue();
    assertThat(terminal(Map.of("KCSHARE_STDOUT_TTY", "1", "TERM", "dumb")).colourOnStdout())
        .isFalse();
    assertThat(terminal(Map.of("KCSHARE_STDOUT_TTY", "1", "TERM", "xterm")).colourOnStdout())
        .isTrue();
    assertThat(terminal(Map.of()).cursorOnStderr()).isFalse();
    assertThat(terminal(Map.of("COLUMNS", "132")).columns()).isEqualTo(132);
    assertThat(terminal(Map.of("COLUMNS", "wide")).columns()).isEqualTo(80);
  }

  private static Terminal terminal(Map<String, String> env) {
    return Terminal.of(
        new CliContext(
            new ByteArrayInputStream(new byte[0]),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()),
            env,
            Path.of("/")));
  }
}
