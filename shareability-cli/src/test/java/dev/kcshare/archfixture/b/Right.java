package dev.kcshare.archfixture.b;

import dev.kcshare.archfixture.a.Left;

/** The other half of a deliberate package cycle, for {@code dev.kcshare.host.LayeringTest}. */
public final class Right {
  private Right() {}

  /** Depends back on the first package. */
  public static int next() {
    return Left.class.getName().length();
  }
}
