package dev.kcshare.api;

import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.policy.internal.Selection;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one evaluation pass ({@link dev.kcshare.embed.Shareability#pass}) measures and how it meets
 * another pass. Immutable; start from {@link #named()}, {@link #uncapped()} or {@link #budgeted()}.
 *
 * <pre>{@code
 * PassOptions.uncapped();                        // "measure all": every due server, waits
 * PassOptions.uncapped().waitForLock(false);     // BUSY at once when another pass runs
 * PassOptions.uncapped().retryFailed(true);      // also the servers held back after failures
 * PassOptions.named();                           // the given servers now, whatever is stored
 * PassOptions.budgeted();                        // a request path: at most two, never waits
 * PassOptions.uncapped().era(EraChoice.MODERN);  // as a gateway that speaks 2026-07-28 would
 * PassOptions.named().selfTest(false);           // no isolation self-test (--no-self-test)
 * }</pre>
 */
public final class PassOptions {
  private final Kind kind;
  private final int budget;
  private final boolean waitForLock;
  private final boolean retryFailed;
  private final EraChoice era;
  private final boolean selfTest;

  /** Which servers a pass measures. */
  public enum Kind {
    /**
     * Every given server, now, whatever the verdict cache holds (a refused one — disabled, nothing
     * to spawn, definitions that conflict — is reported as could-not-run and never spawned). A
     * failure does not lengthen the wait of later passes ({@code kcshare measure NAME}).
     */
    NAMED,
    /** Every due server, under the process ceiling ({@code kcshare measure --all}). */
    UNCAPPED,
    /** At most {@link PassOptions#budget()} due servers; never waits for another pass. */
    BUDGETED
  }

  private PassOptions(
      Kind kind,
      int budget,
      boolean waitForLock,
      boolean retryFailed,
      EraChoice era,
      boolean selfTest) {
    if (kind == null) {
      throw new NullPointerException("kind");
    }
    if (era == null) {
      throw new NullPointerException("era");
    }
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be at least 1: " + budget);
    }
    if (kind == Kind.BUDGETED && waitForLock) {
      throw new IllegalArgumentException("a budgeted pass never waits for another pass");
    }
    if (kind != Kind.BUDGETED && budget != Selection.UNCAPPED) {
      throw new IllegalArgumentException("only a budgeted pass has a budget: " + kind);
    }
    this.kind = kind;
    this.budget = budget;
    this.waitForLock = waitForLock;
    this.retryFailed = retryFailed || kind == Kind.NAMED;
    this.era = era;
    this.selfTest = selfTest;
  }

  private PassOptions(Kind kind, int budget, boolean waitForLock, boolean retryFailed) {
    this(kind, budget, waitForLock, retryFailed, EraChoice.AUTO, true);
  }

  /**
   * Which servers the pass measures.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * The most servers a {@link Kind#BUDGETED} pass measures.
   *
   * @return the budget; {@link Integer#MAX_VALUE} for the other kinds
   */
  public int budget() {
    return budget;
  }

  /**
   * Whether the pass waits for another pass that holds the records' lock (in this process or
   * another); if not, it ends at once with {@link PassResult.Outcome#BUSY}, or, when budgeted,
   * {@link PassResult.Outcome#YIELDED}.
   *
   * @return whether it waits; always false for a budgeted pass
   */
  public boolean waitForLock() {
    return waitForLock;
  }

  /**
   * Whether the pass also measures the servers it would skip because their pre-flight kept failing.
   *
   * @return whether it retries them; always true for a {@link Kind#NAMED} pass
   */
  public boolean retryFailed() {
    return retryFailed;
  }

  /**
   * Which era the pass measures and which stored rows count for it
   * (docs/design.md#which-era-is-measured).
   *
   * @return the choice; {@link EraChoice#AUTO} unless set
   */
  public EraChoice era() {
    return era;
  }

  /**
   * Whether the pass runs the isolation self-test a declaring server designates
   * (docs/verdicts.md#the-isolation-self-test). When false the row says the test was skipped.
   *
   * @return whether it runs; true unless set
   */
  public boolean selfTest() {
    return selfTest;
  }

  /**
   * Options are equal when every setting is.
   *
   * @param o the other object
   * @return true for options with the same settings
   */
  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof PassOptions p
        && kind == p.kind
        && budget == p.budget
        && waitForLock == p.waitForLock
        && retryFailed == p.retryFailed
        && era == p.era
        && selfTest == p.selfTest;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, budget, waitForLock, retryFailed, era, selfTest);
  }

  /** The settings, as {@code PassOptions[kind=NAMED, budget=..., ...]}. */
  @Override
  public String toString() {
    return "PassOptions[kind="
        + kind
        + ", budget="
        + budget
        + ", waitForLock="
        + waitForLock
        + ", retryFailed="
        + retryFailed
        + ", era="
        + era
        + ", selfTest="
        + selfTest
        + "]";
  }

  /**
   * The given servers measured now; waits for another pass.
   *
   * @return the options
   */
  public static PassOptions named() {
    return new PassOptions(Kind.NAMED, Selection.UNCAPPED, true, true);
  }

  /**
   * Every due server; waits for another pass; skips the servers whose pre-flight kept failing.
   *
   * @return the options
   */
  public static PassOptions uncapped() {
    return new PassOptions(Kind.UNCAPPED, Selection.UNCAPPED, true, false);
  }

  /**
   * At most {@link Selection#MAX_EVALUATIONS_PER_PASS} due servers; never waits: yields to a
   * running pass with the stored measurements.
   *
   * @return the options
   */
  public static PassOptions budgeted() {
    return budgeted(Selection.MAX_EVALUATIONS_PER_PASS);
  }

  /**
   * At most {@code budget} due servers; never waits.
   *
   * @param budget at least 1
   * @return the options
   * @throws IllegalArgumentException if {@code budget} is below 1
   */
  public static PassOptions budgeted(int budget) {
    return new PassOptions(Kind.BUDGETED, budget, false, false);
  }

  /**
   * A copy that waits for another pass, or not.
   *
   * @param wait false to end at once with {@link PassResult.Outcome#BUSY} when another pass runs
   * @return the copy
   * @throws IllegalArgumentException if {@code wait} is true for a budgeted pass
   */
  public PassOptions waitForLock(boolean wait) {
    return new PassOptions(kind, budget, wait, retryFailed, era, selfTest);
  }

  /**
   * A copy that also measures the servers held back because their pre-flight kept failing, or not.
   *
   * @param retry true to measure them now (a named pass always does)
   * @return the copy
   */
  public PassOptions retryFailed(boolean retry) {
    return new PassOptions(kind, budget, waitForLock, retry, era, selfTest);
  }

  /**
   * A copy measuring the era {@code choice} selects (docs/design.md#which-era-is-measured): {@code
   * AUTO} opens as a legacy gateway does and falls forward to a modern-only server, {@code MODERN}
   * opens as a gateway of both eras does, {@code LEGACY} never speaks the modern era. A stored row
   * counts for the pass only when it is the measurement this choice would make.
   *
   * @param choice the era choice
   * @return the copy
   * @throws NullPointerException if {@code choice} is null
   */
  public PassOptions era(EraChoice choice) {
    return new PassOptions(kind, budget, waitForLock, retryFailed, choice, selfTest);
  }

  /**
   * A copy that runs the isolation self-test a declaring server designates, or skips it ({@code
   * --no-self-test}): three {@code tools/call}s of the server's own test tool in one process
   * (docs/verdicts.md#the-isolation-self-test). A skipped test leaves the share rule as without
   * one, and the row says it was skipped.
   *
   * @param run false to skip it
   * @return the copy
   */
  public PassOptions selfTest(boolean run) {
    return new PassOptions(kind, budget, waitForLock, retryFailed, era, run);
  }
}
