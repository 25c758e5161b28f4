package dev.kcshare.core.cost;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * What one session's copy of a server costs, measured in its pre-flight: the whole process tree the
 * configured command starts (launcher wrappers such as {@code npx}, {@code uvx} or {@code sh -c}
 * included), sampled once both the initialize (or {@code server/discover}) answer and the tool
 * listing have arrived, before teardown. Of the two identities the larger value of each figure is
 * kept. A figure is absent when it could not be read (every figure off Linux, {@code pssBytes}
 * where the kernel does not offer {@code smaps_rollup}); absent is never zero.
 *
 * @param rssBytes resident memory of the tree: every page each process has in RAM, pages shared
 *     with other processes (libraries, the runtime's code) counted in every process
 * @param pssBytes proportional memory of the tree: each shared page divided by the number of
 *     processes that map it, so sums over processes do not count it twice
 * @param processes the number of running processes in the tree
 * @param readyMillis milliseconds from spawn to the initialize (or {@code server/discover}) answer
 * @param cpuMillis CPU time (user and system) the tree used from spawn until the sample, including
 *     the children it had already waited for
 */
public record SessionCost(
    OptionalLong rssBytes,
    OptionalLong pssBytes,
    OptionalLong processes,
    OptionalLong readyMillis,
    OptionalLong cpuMillis) {

  /** No figure known. */
  public static final SessionCost NONE =
      new SessionCost(
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty());

  /**
   * Validates.
   *
   * @param rssBytes resident memory of the tree: every page each process has in RAM, pages shared
   *     with other processes (libraries, the runtime's code) counted in every process
   * @param pssBytes proportional memory of the tree: each shared page divided by the number of
   *     processes that map it, so sums over processes do not count it twice
   * @param processes the number of running processes in the tree
   * @param readyMillis milliseconds from spawn to the initialize (or {@code server/discover})
   *     answer
   * @param cpuMillis CPU time (user and system) the tree used from spawn until the sample,
   *     including the children it had already waited for
   * @throws NullPointerException if a component is null
   * @throws IllegalArgumentException if a present figure is negative
   */
  public SessionCost {
    check(rssBytes, "rssBytes");
    check(pssBytes, "pssBytes");
    check(processes, "processes");
    check(readyMillis, "readyMillis");
    check(cpuMillis, "cpuMillis");
  }

  private static void check(OptionalLong figure, String name) {
    Objects.requireNonNull(figure, name);
    if (figure.isPresent() && figure.getAsLong() < 0) {
      throw new IllegalArgumentException(name + " must not be negative: " + figure.getAsLong());
    }
  }

  /**
   * A cost with every figure present ({@code -1} for one that is absent).
   *
   * @param rssBytes resident memory of the tree: every page each process has in RAM, pages shared
   *     with other processes (libraries, the runtime's code) counted in every process
   * @param pssBytes proportional memory of the tree: each shared page divided by the number of
   *     processes that map it, so sums over processes do not count it twice
   * @param processes the number of running processes in the tree
   * @param readyMillis milliseconds from spawn to the initialize (or {@code server/discover})
   *     answer
   * @param cpuMillis CPU time (user and system) the tree used from spawn until the sample,
   *     including the children it had already waited for
   * @return the cost, each {@code -1} an absent figure
   * @throws IllegalArgumentException if a figure is below {@code -1}
   */
  public static SessionCost of(
      long rssBytes, long pssBytes, long processes, long readyMillis, long cpuMillis) {
    return new SessionCost(
        figure(rssBytes, "rssBytes"),
        figure(pssBytes, "pssBytes"),
        figure(processes, "processes"),
        figure(readyMillis, "readyMillis"),
        figure(cpuMillis, "cpuMillis"));
  }

  private static OptionalLong figure(long value, String name) {
    if (value < -1) {
      throw new IllegalArgumentException(name + " must be -1 (absent) or more: " + value);
    }
    return value == -1 ? OptionalLong.empty() : OptionalLong.of(value);
  }

  /**
   * Whether no figure is known.
   *
   * @return true iff every figure is absent
   */
  public boolean isEmpty() {
    return rssBytes.isEmpty()
        && pssBytes.isEmpty()
        && processes.isEmpty()
        && readyMillis.isEmpty()
        && cpuMillis.isEmpty();
  }

  /**
   * The memory figure sums are made of: {@link #pssBytes} when known (the honest figure to add up:
   * shared pages are divided, not repeated), else {@link #rssBytes}.
   *
   * @return the figure in bytes, or empty when neither is known
   */
  public OptionalLong memoryBytes() {
    return pssBytes.isPresent() ? pssBytes : rssBytes;
  }

  /**
   * Whether {@link #memoryBytes()} is proportional ({@code pss}) rather than resident.
   *
   * @return true iff {@link #pssBytes} is known
   */
  public boolean memoryIsProportional() {
    return pssBytes.isPresent();
  }

  /**
   * The larger value of each figure of the two; a figure known on one side only is kept.
   *
   * @param other another sample of the same server (the other identity)
   * @return a new cost of the larger figures
   */
  public SessionCost max(SessionCost other) {
    return new SessionCost(
        max(rssBytes, other.rssBytes),
        max(pssBytes, other.pssBytes),
        max(processes, other.processes),
        max(readyMillis, other.readyMillis),
        max(cpuMillis, other.cpuMillis));
  }

  private static OptionalLong max(OptionalLong a, OptionalLong b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return OptionalLong.of(Math.max(a.getAsLong(), b.getAsLong()));
  }
}
