package dev.kcshare.cli.log;

import org.slf4j.LoggerFactory;

/**
 * Maps {@code -v}/{@code -q} to the root log level when logback is the slf4j backend (the runnable
 * jar); does nothing for an embedder with its own backend.
 */
public final class Verbosity {
  private Verbosity() {}

  /**
   * Applies a verbosity: negative = quiet (errors only), 0 = leave the configured level, 1 = info,
   * 2 or more = debug.
   */
  public static void apply(int verbosity) {
    if (verbosity == 0) {
      return;
    }
    Object factory = LoggerFactory.getILoggerFactory();
    if (!factory.getClass().getName().equals("ch.qos.logback.classic.LoggerContext")) {
      return; // another backend, or none: the embedder's configuration rules
    }
    ch.qos.logback.classic.Level level =
        verbosity < 0
            ? ch.qos.logback.classic.Level.ERROR
            : verbosity == 1
                ? ch.qos.logback.classic.Level.INFO
                : ch.qos.logback.classic.Level.DEBUG;
    ((ch.qos.logback.classic.LoggerContext) factory)
        .getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
        .setLevel(level);
  }
}
