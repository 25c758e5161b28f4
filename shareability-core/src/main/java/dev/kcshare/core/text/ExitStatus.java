package dev.kcshare.core.text;

/**
 * How a process ended, from the status the JVM reports for it. The JVM folds "killed by signal N"
 * into the status 128 + N, as POSIX shells do, so a status from 129 to 192 is read as a signal (a
 * process that really called {@code exit(137)} is indistinguishable from one killed by SIGKILL).
 */
public final class ExitStatus {
  private static final int SIGNAL_BASE = 128;
  private static final int MAX_SIGNAL = 64;

  private ExitStatus() {}

  /** {@code exit 1}, or {@code signal 9 (SIGKILL)}. */
  public static String describe(int status) {
    int signal = signalOf(status);
    if (signal > 0) {
      String name = signalName(signal);
      return "signal " + signal + (name.isEmpty() ? "" : " (" + name + ")");
    }
    return "exit " + status;
  }

  /**
   * How the process ended as a phrase after "process": {@code exited with status 1}, {@code killed
   * by signal 9 (SIGKILL)}.
   */
  public static String phrase(int status) {
    return signalOf(status) > 0 ? "killed by " + describe(status) : "exited with status " + status;
  }

  /** The signal a status stands for, or 0 when it is an ordinary exit status. */
  public static int signalOf(int status) {
    return status > SIGNAL_BASE && status <= SIGNAL_BASE + MAX_SIGNAL ? status - SIGNAL_BASE : 0;
  }

  /** The POSIX name of the common signals (Linux numbering), or {@code ""}. */
  public static String signalName(int signal) {
    return switch (signal) {
      case 1 -> "SIGHUP";
      case 2 -> "SIGINT";
      case 3 -> "SIGQUIT";
      case 4 -> "SIGILL";
      case 6 -> "SIGABRT";
      case 7 -> "SIGBUS";
      case 8 -> "SIGFPE";
      case 9 -> "SIGKILL";
      case 11 -> "SIGSEGV";
      case 13 -> "SIGPIPE";
      case 14 -> "SIGALRM";
      case 15 -> "SIGTERM";
      default -> "";
    };
  }
}
