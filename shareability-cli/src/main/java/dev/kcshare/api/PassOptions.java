package dev.kcshare.api;

import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.policy.internal.Selection;

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
 *
 * @param kind which servers the pass measures
 * @param budget the most servers a {@link Kind#BUDGETED} pass measures; {@link Integer#MAX_VALUE}
 *     for the other kinds
 * @param waitForLock whether the pass waits for another pass that holds the records' lock (in this
 *     process or another); if not, it ends at once with {@link PassResult.Outcome#BUSY}, or, when
 *     budgeted, {@link PassResult.Outcome#YIELDED}. Always false for a budgeted pass
 * @param retryFailed whether the pass also measures the servers it would skip because their
 *     pre-flight kept failing; always true for a {@link Kind#NAMED} pass (a false value becomes
 *     true)
 * @param era which era the pass measures and which stored rows count for it
 *     (docs/design.md#which-era-is-measured); {@link EraChoice#AUTO} unless set
 * @param selfTest whether the pass runs the isolation self-test a declaring server designates
 *     (docs/verdicts.md#the-isolation-self-test); true unless set. When false the row says the test
 *     was skipped
 */
public record PassOptions(
    Kind kind,
    int budget,
    boolean waitForLock,
    boolean retryFailed,
    EraChoice era,
    boolean selfTest) {

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

  /**
   * Validates.
   *
   * @param kind which servers the pass measures
   * @param budget the most servers a {@link Kind#BUDGETED} pass measures; {@link Integer#MAX_VALUE}
   *     for the other kinds
   * @param waitForLock whether the pass waits for another pass that holds the records' lock (in
   *     this process or another); if not, it ends at once with {@link PassResult.Outcome#BUSY}, or,
   *     when budgeted, {@link PassResult.Outcome#YIELDED}. Always false for a budgeted pass
   * @param retryFailed whether the pass also measures the servers it would skip because their
   *     pre-flight kept failing; always true for a {@link Kind#NAMED} pass (a false value becomes
   *     true)
   * @param era which era the pass measures and which stored rows count for it
   *     (docs/design.md#which-era-is-measured); {@link EraChoice#AUTO} unless set
   * @param selfTest whether the pass runs the isolation self-test a declaring server designates
   *     (docs/verdicts.md#the-isolation-self-test); true unless set. When false the row says the
   *     test was skipped
   * @throws NullPointerException if {@code kind} or {@code era} is null
   * @throws IllegalArgumentException if {@code budget} is below 1, a budgeted pass is to wait, or a
   *     pass that is not budgeted has a budget other than {@link Integer#MAX_VALUE}
   */
  public PassOptions {
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
    if (kind == Kind.NAMED) {
      retryFailed = true;
    }
    if (kind != Kind.BUDGETED && budget != Selection.UNCAPPED) {
      throw new IllegalArgumentException("only a budgeted pass has a budget: " + kind);
    }
  }

  /**
   * Options measuring with {@link EraChoice#AUTO} and running a designated self-test.
   *
   * @param kind which servers the pass measures
   * @param budget as for the canonical constructor
   * @param waitForLock as for the canonical constructor
   * @param retryFailed as for the canonical constructor
   */
  public PassOptions(Kind kind, int budget, boolean waitForLock, boolean retryFailed) {
    this(kind, budget, waitForLock, retryFailed, EraChoice.AUTO, true);
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
