package dev.kcshare.core.policy.internal;

import dev.kcshare.core.text.Escaper;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What an operator can do about a pre-flight that could not run, read from its detail, the exit
 * status and the server's stderr tail: set the variable the server asked for, install the command,
 * raise the timeout, enable the server, and so on. A heuristic: it only chooses which advice to
 * show, never a verdict.
 *
 * @param kind which advice fits
 * @param subject what it is about (a variable or command name, a reason), or {@code ""}
 */
public record FailureAdvice(Kind kind, String subject) {
  /** The kinds of advice, most specific first. */
  public enum Kind {
    /** The server is disabled: consent is withheld, so it is never spawned. */
    ENABLE,
    /** The definition has no stdio command: there is nothing to spawn. */
    ADD_COMMAND,
    /** The command was not found, or the shell that ran it said so (exit status 127). */
    INSTALL_COMMAND,
    /** The operating system refused to start the command. */
    FIX_SPAWN,
    /** An awaited answer missed its deadline. */
    RAISE_TIMEOUT,
    /** The server's stderr asks for an environment variable (the subject, when it names one). */
    SET_VARIABLE,
    /**
     * The server exited (or stopped talking) before it answered, for no reason kcshare can tell;
     * its stderr, shown with the failure, may say why.
     */
    READ_STDERR,
    /**
     * As {@link #READ_STDERR}, but the server wrote nothing on stderr: only running its command by
     * hand can show why.
     */
    RUN_BY_HAND,
    /** Anything else: the pre-flight itself shows more. */
    RUN_PREFLIGHT
  }

  public FailureAdvice {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(subject, "subject");
  }

  private static final String NAME = "([A-Z][A-Z0-9_]{2,})";
  private static final String QUOTE = "['\"`]?";

  /** Patterns naming the variable, in group 1, most explicit first. */
  private static final List<Pattern> VARIABLE_NAMED =
      List.of(
          Pattern.compile(
              "(?i:missing|required|set|provide|define|export|expected|no)\\s+(?i:the\\s+)?"
                  + "(?i:(?:required\\s+)?env(?:ironment)?[ _-]?(?:variables?|vars?))"
                  + "\\s*[:=]?\\s*"
                  + QUOTE
                  + NAME),
          Pattern.compile(
              QUOTE
                  + "\\b"
                  + NAME
                  + "\\b"
                  + QUOTE
                  + "\\s+(?i:env(?:ironment)?[ _-]?(?:variable|var))"),
          Pattern.compile(
              QUOTE
                  + "\\b"
                  + NAME
                  + "\\b"
                  + QUOTE
                  + "\\s+(?i:is|are|was)\\s+(?i:not set|required|missing|undefined|not defined|"
                  + "empty|unset|not provided|not configured)"),
          Pattern.compile(
              "(?i:please set|you must set|must be set:?|set)\\s+"
                  + QUOTE
                  + "\\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\\b"));

  /** Phrases that mean a missing setting without naming it. */
  private static final Pattern VARIABLE_UNNAMED =
      Pattern.compile(
          "(?i)missing env|env(?:ironment)?[ _-]?var(?:iable)?s?\\b|\\bis required\\b|\\bnot set\\b");

  /** A shell or launcher saying a command is missing; group 1 (or 2) names it when it can. */
  private static final Pattern COMMAND_MISSING =
      Pattern.compile(
          "(?:([\\w.@/+-]+): (?:command )?not found)"
              + "|(?:spawn ([^\\s]+) ENOENT)"
              + "|(?i:command not found)|\\bENOENT\\b");

  private static final Pattern ESCAPE =
      Pattern.compile("\\\\(?:[nrt]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})");

  /**
   * The advice that fits a pre-flight that could not run.
   *
   * @param detail the failure detail (raw)
   * @param exitStatus how the failing process ended ({@code exit 127}), or null
   * @param stderrTail the server's stderr tail, escaped as kcshare shows it
   */
  public static FailureAdvice of(String detail, @Nullable String exitStatus, String stderrTail) {
    if (detail.equals("disabled")) {
      return new FailureAdvice(Kind.ENABLE, "");
    }
    if (detail.equals("no command")) {
      return new FailureAdvice(Kind.ADD_COMMAND, "");
    }
    if (detail.startsWith("command not found: ")) {
      return new FailureAdvice(
          Kind.INSTALL_COMMAND, detail.substring("command not found: ".length()));
    }
    if (detail.startsWith("spawn failed: ")) {
      return new FailureAdvice(Kind.FIX_SPAWN, detail.substring("spawn failed: ".length()));
    }
    if (detail.equals("timeout")) {
      return new FailureAdvice(Kind.RAISE_TIMEOUT, "");
    }
    String text = plain(stderrTail);
    for (Pattern p : VARIABLE_NAMED) {
      Matcher m = p.matcher(text);
      if (m.find()) {
        return new FailureAdvice(Kind.SET_VARIABLE, m.group(1));
      }
    }
    if (VARIABLE_UNNAMED.matcher(text).find()) {
      return new FailureAdvice(Kind.SET_VARIABLE, "");
    }
    Matcher missing = COMMAND_MISSING.matcher(text);
    boolean found = missing.find();
    if (found || "exit 127".equals(exitStatus)) {
      String command = found ? Objects.requireNonNullElse(firstGroup(missing), "") : "";
      return new FailureAdvice(Kind.INSTALL_COMMAND, command);
    }
    if (detail.startsWith("no response") || detail.contains(": no response")) {
      return new FailureAdvice(stderrTail.isBlank() ? Kind.RUN_BY_HAND : Kind.READ_STDERR, "");
    }
    return new FailureAdvice(Kind.RUN_PREFLIGHT, "");
  }

  /**
   * The advice as one sentence for the server {@code server} (shown escaped).
   *
   * @param server the configured server name (raw)
   */
  public String text(String server) {
    String name = Escaper.esc(server, Escaper.SHORT_LIMIT);
    String measure = "`kcshare measure " + name + "`";
    String what = Escaper.esc(subject, Escaper.SHORT_LIMIT);
    return switch (kind) {
      case ENABLE ->
          "it is disabled, so it is never spawned; enable it in its config file to have it measured";
      case ADD_COMMAND -> "it has no stdio command, so there is nothing to spawn and measure";
      case INSTALL_COMMAND ->
          "install "
              + (what.isEmpty() ? "the command it runs" : "`" + what + "`")
              + ", or put it on the PATH kcshare runs with (cron's PATH is short: set PATH in the"
              + " crontab), then run "
              + measure;
      case FIX_SPAWN ->
          "the system refused to start it ("
              + what
              + "): check that the command is a file kcshare's user may execute, then run "
              + measure;
      case RAISE_TIMEOUT ->
          "it did not answer in time; try "
              + "`kcshare measure "
              + name
              + " --timeout 60` (a first `npx` launch may still be downloading its package)";
      case SET_VARIABLE ->
          "set "
              + (what.isEmpty()
                  ? "the environment variable its stderr asks for"
                  : "the environment variable " + what + " it asks for")
              + ", in the server's \"env\" in its config file or in the environment kcshare runs"
              + " with (for cron: the crontab), then run "
              + measure;
      case READ_STDERR ->
          "it stopped before answering; its stderr above usually says why, or run its command by"
              + " hand with the same environment";
      case RUN_BY_HAND ->
          "it stopped before answering and wrote nothing on stderr; run its command by hand with"
              + " the same environment to see why";
      case RUN_PREFLIGHT ->
          "run `kcshare preflight " + name + "` to see what each identity received";
    };
  }

  private static @Nullable String firstGroup(Matcher m) {
    for (int g = 1; g <= m.groupCount(); g++) {
      if (m.group(g) != null) {
        return m.group(g);
      }
    }
    return null;
  }

  /** The escaped tail with every escape sequence read as a space, for matching words. */
  private static String plain(String escaped) {
    return ESCAPE.matcher(escaped).replaceAll(" ");
  }
}
