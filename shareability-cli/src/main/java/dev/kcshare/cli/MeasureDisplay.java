package dev.kcshare.cli;

import dev.kcshare.api.PassProgress;
import dev.kcshare.api.PassResult;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.text.HumanDuration;
import dev.kcshare.host.KcshareThreads;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What {@code kcshare measure} shows on a terminal while a pass runs: each server's result as soon
 * as it is known, which servers are in flight and for how long, and whom the pass waits for when
 * another one holds the records' lock. {@link Mode#LIVE} keeps that in a status line at the bottom,
 * rewritten in place ({@code CR} and erase-line, nothing else); {@link Mode#LINES} (a terminal
 * without cursor control: {@code TERM=dumb}, {@code NO_COLOR}) prints only whole lines; {@link
 * Mode#OFF} prints nothing. Rendering goes to a writer, time comes from {@code nanoTime} and
 * redraws from a {@link Ticker}, so all of it can be tested without a terminal. Thread-safe.
 */
final class MeasureDisplay implements PassProgress.Listener, AutoCloseable {
  /** How much the display may do. */
  enum Mode {
    /** Nothing: not a terminal, {@code -q}, or {@code --json}. */
    OFF,
    /** Whole lines only. */
    LINES,
    /** Whole lines and a status line rewritten in place. */
    LIVE
  }

  /** Calls a redraw periodically. */
  @FunctionalInterface
  interface Ticker {
    /** Starts calling {@code tick}; the returned handle stops it. */
    AutoCloseable start(Runnable tick);

    /** A daemon thread that calls the tick every {@code period}. */
    static Ticker every(Duration period) {
      return tick -> {
        ScheduledExecutorService s =
            Executors.newSingleThreadScheduledExecutor(
                KcshareThreads.defaults().pool("kcshare-display"));
        s.scheduleAtFixedRate(tick, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return s::shutdownNow;
      };
    }
  }

  private static final String CLEAR_LINE = "\r\u001b[K";

  private final PrintWriter err;
  private final Mode mode;
  private final boolean verbose;
  private final LongSupplier nanoTime;
  private final int columns;
  private final Map<String, Long> inFlight = new LinkedHashMap<>();
  private @Nullable AutoCloseable ticking;
  private @Nullable PassProgress progress;
  private @Nullable String waitingFor;
  private long waitingSince;
  private boolean statusShown;
  private boolean printedResults;
  private int retried;
  private boolean closed;

  MeasureDisplay(
      PrintWriter err,
      Mode mode,
      boolean verbose,
      LongSupplier nanoTime,
      int columns,
      Ticker ticker) {
    this.err = err;
    this.mode = mode;
    this.verbose = verbose;
    this.nanoTime = nanoTime;
    this.columns = columns;
    if (mode == Mode.LIVE) {
      this.ticking = ticker.start(this::tick);
    }
  }

  /** The mode for a command's context and options (verbosity 0 without {@code -v}). */
  static Mode modeFor(Terminal terminal, boolean quiet, boolean json) {
    return modeFor(terminal, quiet, json, 0);
  }

  /**
   * The mode for a command's context and options. With {@code -v} log lines go to stderr while the
   * pass runs, and a redrawn status line would be cut by them: every line is printed as it comes.
   */
  static Mode modeFor(Terminal terminal, boolean quiet, boolean json, int verbosity) {
    if (quiet || json || !terminal.stderr()) {
      return Mode.OFF;
    }
    return terminal.cursorOnStderr() && verbosity <= 0 ? Mode.LIVE : Mode.LINES;
  }

  /** Whether result lines were printed as they came (the command then does not repeat them). */
  synchronized boolean printedResults() {
    return printedResults;
  }

  @Override
  public synchronized void onWaitingForLock(String holder) {
    if (mode == Mode.OFF || closed) {
      return;
    }
    waitingFor = holder;
    waitingSince = nanoTime.getAsLong();
    if (mode == Mode.LINES) {
      println("waiting for " + holder + " to finish its pass on these records...");
    } else {
      redraw();
    }
  }

  @Override
  public synchronized void onStarted(String server) {
    waitingFor = null;
    inFlight.put(server, nanoTime.getAsLong());
    redraw();
  }

  /** How many servers were tried again alone after timing out. */
  synchronized int retried() {
    return retried;
  }

  @Override
  public synchronized void onRetrying(String server, Duration timeout) {
    retried++;
    if (mode == Mode.OFF || closed) {
      return;
    }
    println(
        Escaper.esc(server, Escaper.SHORT_LIMIT)
            + ": timed out while other servers were measured; trying it again alone with a "
            + timeout.toSeconds()
            + " s timeout");
  }

  @Override
  public synchronized void onFinished(PassResult.Measured result) {
    inFlight.remove(result.name());
    if (mode == Mode.OFF || closed) {
      return;
    }
    println(MeasureLines.of(result, verbose));
    printedResults = true;
  }

  @Override
  public synchronized void onProgress(PassProgress p) {
    waitingFor = null;
    progress = p;
    redraw();
  }

  /** A periodic redraw, so elapsed times advance between events. */
  synchronized void tick() {
    redraw();
  }

  /** Stops the ticks and removes the status line. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (ticking != null) {
      try {
        ticking.close();
      } catch (Exception e) {
        // a ticker that cannot stop only redraws nothing: the display is closed
      }
    }
    clearStatus();
    err.flush();
  }

  private void println(String line) {
    println(List.of(line));
  }

  /** Whole lines above the status line, which is drawn again below them. */
  private void println(List<String> lines) {
    clearStatus();
    for (String line : lines) {
      err.println(line);
    }
    redraw();
    err.flush();
  }

  private void clearStatus() {
    if (statusShown) {
      err.print(CLEAR_LINE);
      statusShown = false;
    }
  }

  private void redraw() {
    if (mode != Mode.LIVE || closed) {
      return;
    }
    String status = status();
    if (status.isEmpty()) {
      clearStatus();
    } else {
      err.print(CLEAR_LINE + fit(status));
      statusShown = true;
    }
    err.flush();
  }

  /** The status line: whom it waits for, or the counters and what is in flight. */
  String status() {
    long now = nanoTime.getAsLong();
    if (waitingFor != null) {
      return "waiting for "
          + waitingFor
          + " to finish its pass on these records... "
          + seconds(now - waitingSince);
    }
    if (progress == null && inFlight.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder("measuring: ");
    PassProgress p = progress;
    if (p != null && p.total() > 0) {
      b.append(p.done()).append('/').append(p.total()).append(" done, ");
      b.append(p.measured()).append(" measured");
    } else {
      b.append("starting");
    }
    if (!inFlight.isEmpty()) {
      List<String> now2 = new ArrayList<>();
      for (Map.Entry<String, Long> e : inFlight.entrySet()) {
        now2.add(Escaper.esc(e.getKey(), 40) + " " + seconds(now - e.getValue()));
      }
      b.append("; in flight: ").append(String.join(", ", now2));
    }
    return b.toString();
  }

  private static String seconds(long nanos) {
    return HumanDuration.span(TimeUnit.NANOSECONDS.toSeconds(Math.max(0, nanos)));
  }

  /** Cut to the terminal's width: a wrapped status line could not be rewritten in place. */
  private String fit(String line) {
    int max = Math.max(10, columns - 1);
    return line.length() <= max ? line : line.substring(0, max - 3) + "...";
  }
}
