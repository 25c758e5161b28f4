package dev.kcshare.core.text;

/** How a file's problem is printed: one rule for loading, editing and the exported file list. */
public final class ProblemLines {
  private ProblemLines() {}

  /**
   * {@code display: /pointer: problem}, or {@code display:line:column: problem} for a syntax error
   * (a problem that starts with its line number).
   */
  public static String located(String display, String problem) {
    boolean lineColumn = !problem.isEmpty() && Character.isDigit(problem.charAt(0));
    return display + (lineColumn ? ":" : ": ") + problem;
  }
}
