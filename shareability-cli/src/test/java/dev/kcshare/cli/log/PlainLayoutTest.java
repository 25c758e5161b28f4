package dev.kcshare.cli.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

/** Warnings and errors on stderr read in kcshare's one voice; details stay for -v and -vv. */
final class PlainLayoutTest {
  private final LoggerContext context = new LoggerContext();
  private final Logger logger = context.getLogger("dev.kcshare.host.records.RecordFile");

  private String layout(Level level, String message, Throwable thrown) {
    PlainLayout layout = new PlainLayout();
    layout.setContext(context);
    layout.start();
    LoggingEvent event =
        new LoggingEvent(Logger.class.getName(), logger, level, message, thrown, null);
    return layout.doLayout(event);
  }

  @Test
  void aWarningIsOnePlainLineWithoutTimestampLevelOrClass() {
    String line =
        layout(Level.WARN, "reading \"/r/observed-hazards.json\" as empty: corrupt: x", null);
    assertThat(line)
        .isEqualTo(
            "kcshare: warning: reading \"/r/observed-hazards.json\" as empty: corrupt: x"
                + System.lineSeparator());
  }

  @Test
  void anErrorSaysError() {
    assertThat(layout(Level.ERROR, "cannot write /r", null))
        .isEqualTo("kcshare: error: cannot write /r" + System.lineSeparator());
  }

  @Test
  void aLoggedExceptionNeverShowsItsClassOrStackAndItsCausesOnlyAtDebug() {
    IOException e = new IOException("flush failed", new FileSystemException("/r: No space left"));
    context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
    String plain = layout(Level.WARN, "the scheduled ledger flush failed", e);
    assertThat(plain)
        .isEqualTo("kcshare: warning: the scheduled ledger flush failed" + System.lineSeparator())
        .doesNotContain("java.", "\tat ");

    context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.DEBUG);
    String debug = layout(Level.WARN, "the scheduled ledger flush failed", e);
    assertThat(debug)
        .startsWith("kcshare: warning: the scheduled ledger flush failed")
        .contains("  because: flush failed", "  because: /r: No space left")
        .doesNotContain("java.", "IOException", "\tat ");
  }

  @Test
  void informationKeepsItsTimestampAndLoggerForVerboseRuns() {
    assertThat(layout(Level.INFO, "spawned x", null))
        .matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  RecordFile - spawned x\\R");
  }
}
