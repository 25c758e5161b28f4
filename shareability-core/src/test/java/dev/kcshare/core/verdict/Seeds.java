package dev.kcshare.core.verdict;

import java.util.stream.LongStream;

/** Seeds for the randomized tests: replay one with {@code -Dkcshare.seed=N}. */
public final class Seeds {
  private Seeds() {}

  /** {@code count} consecutive seeds starting at {@code kcshare.seed} (default 20261130). */
  public static LongStream seeds(int count) {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, count).map(i -> base + i);
  }
}
