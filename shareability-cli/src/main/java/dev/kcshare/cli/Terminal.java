package dev.kcshare.cli;

/**
 * What kcshare may do to a terminal: colour and cursor control only on a terminal, and neither with
 * {@code TERM=dumb} or a non-empty {@code NO_COLOR}. Whether stdout and stderr are terminals comes
 * from the launcher ({@link CliContext#stdoutIsTerminal()}, {@link CliContext#stderrIsTerminal()}).
 *
 * @param stdout standard output is a terminal
 * @param stderr standard error is a terminal
 * @param fancy neither {@code TERM=dumb} nor {@code NO_COLOR} forbids colour and cursor control
 * @param columns the terminal's width from {@code COLUMNS}, or 80
 */
record Terminal(boolean stdout, boolean stderr, boolean fancy, int columns) {
  private static final int DEFAULT_COLUMNS = 80;

  static Terminal of(CliContext ctx) {
    String noColor = ctx.env().get("NO_COLOR");
    boolean fancy = !"dumb".equals(ctx.env().get("TERM")) && (noColor == null || noColor.isEmpty());
    return new Terminal(ctx.stdoutIsTerminal(), ctx.stderrIsTerminal(), fancy, columns(ctx));
  }

  /** Whether standard output may carry colour codes. */
  boolean colourOnStdout() {
    return stdout && fancy;
  }

  /** Whether standard error may rewrite a status line in place. */
  boolean cursorOnStderr() {
    return stderr && fancy;
  }

  private static int columns(CliContext ctx) {
    String value = ctx.env().get("COLUMNS");
    if (value != null) {
      try {
        int n = Integer.parseInt(value.strip());
        if (n >= 20 && n <= 1000) {
          return n;
        }
      } catch (NumberFormatException e) {
        // not a width
      }
    }
    return DEFAULT_COLUMNS;
  }
}
