package dev.kcshare.archfixture.a;

import dev.kcshare.archfixture.b.Right;

/** Half of a deliberate package cycle, for {@code dev.kcshare.host.LayeringTest}. */
public final class Left {
  private Left() {}

  /** Depends on the other package. */
  public static int next() {
    return Right.next() + 1;
  }
}
