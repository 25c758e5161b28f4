package dev.kcshare.cli.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;

/**
 * The command line's one voice on stderr: a warning reads {@code kcshare: warning: …} and an error
 * {@code kcshare: error: …}, in the words of the message alone, like every other line kcshare
 * prints; no timestamp, level column or logger (class) name. The causes of a logged exception are
 * added in words ({@code because: …}) at {@code -vv} only, never as a class name or a stack trace.
 * Information and debug lines ({@code -v}, {@code -vv}) keep a timestamp and the logger's name,
 * which is what they are for.
 */
public final class PlainLayout extends LayoutBase<ILoggingEvent> {
  static final String DETAILED = "%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

  private final PatternLayout detailed = new PatternLayout();

  /** A layout for {@link LogConfigurator}; call {@link #start()} after setting the context. */
  public PlainLayout() {}

  @Override
  public void start() {
    detailed.setContext(getContext());
    detailed.setPattern(DETAILED);
    detailed.start();
    super.start();
  }

  @Override
  public String doLayout(ILoggingEvent event) {
    Level level = event.getLevel();
    if (!level.isGreaterOrEqual(Level.WARN)) {
      return detailed.doLayout(event);
    }
    StringBuilder line = new StringBuilder("kcshare: ");
    line.append(level.isGreaterOrEqual(Level.ERROR) ? "error: " : "warning: ");
    line.append(event.getFormattedMessage());
    if (debugEnabled()) {
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        if (t.getMessage() != null) {
          line.append(CoreConstants.LINE_SEPARATOR).append("  because: ").append(t.getMessage());
        }
      }
    }
    return line.append(CoreConstants.LINE_SEPARATOR).toString();
  }

  private boolean debugEnabled() {
    return getContext() instanceof LoggerContext lc
        && lc.getLogger(Logger.ROOT_LOGGER_NAME).isDebugEnabled();
  }
}
