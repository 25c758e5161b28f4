package dev.kcshare.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The root command: global options and the list of subcommands. The subcommands are registered in
 * code ({@link #SUBCOMMANDS}) rather than in the annotation, so that a command line which plainly
 * names one of them builds only that one's model (see {@link #plainlyNamedSubcommand}).
 */
@Command(
    name = "kcshare",
    mixinStandardHelpOptions = true,
    versionProvider = KcshareCommand.Version.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Tells an MCP gateway operator which MCP servers may safely share one backend process"
          + " across chat sessions, from evidence gathered on this host.",
      ""
    },
    commandListHeading = "%nCommands:%n",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:kcshare's own runtime failure",
      "2:bad usage or bad input (a message on stderr names the file, JSON pointer and what was"
          + " expected)",
      "3:assess --fail-on matched a verdict"
    },
    footer = {"", "stdout carries data only; logs and diagnostics go to stderr."})
final class KcshareCommand implements Runnable {
  /**
   * Every subcommand by name, in the order help lists them. Each name is the one the class's
   * {@code @Command} annotation declares (a test keeps the two in step).
   */
  static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

  /**
   * The subcommands that read the whole command tree (another command's help, a completion script
   * for all of them), so they never run in a tree built for one subcommand.
   */
  private static final String HELP = "help";

  private static final String COMPLETION = "completion";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-v", "--verbose"},
      description = "More log output on stderr (-v info, -vv debug).",
      scope = CommandLine.ScopeType.INHERIT)
  boolean[] verbose = new boolean[0];

  @Option(
      names = {"-q", "--quiet"},
      description = "Only errors on stderr.",
      scope = CommandLine.ScopeType.INHERIT)
  boolean quiet;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  /** -1 for quiet, else the number of -v flags, read from whichever command level carried them. */
  static int verbosityOf(CommandLine.ParseResult parseResult) {
    int verbose = 0;
    boolean quiet = false;
    for (CommandLine.ParseResult r = parseResult; r != null; r = r.subcommand()) {
      if (r.hasMatchedOption("-v")) {
        verbose = Math.max(verbose, r.matchedOption("-v").<boolean[]>getValue().length);
      }
      quiet |= r.hasMatchedOption("-q");
    }
    return quiet ? -1 : verbose;
  }

  private static Map<String, Class<?>> subcommands() {
    Map<String, Class<?>> m = new LinkedHashMap<>();
    m.put("assess", AssessCommand.class);
    m.put("measure", MeasureCommand.class);
    m.put("cost", CostCommand.class);
    m.put("preflight", PreflightCommand.class);
    m.put("hazards", HazardsCommand.class);
    m.put("records", RecordsCommand.class);
    m.put("identity", IdentityCommand.class);
    m.put("config", ConfigCommand.class);
    m.put("seed", SeedCommand.class);
    m.put("stub", StubCommand.class);
    m.put("unstub", UnstubCommand.class);
    m.put(COMPLETION, CompletionCommand.class);
    m.put(HELP, CommandLine.HelpCommand.class);
    return Collections.unmodifiableMap(m);
  }

  /**
   * The subcommand a command line names when nothing but {@code -v}/{@code -q} flags comes before
   * it, or null when the line needs the whole tree: no subcommand, a root option such as {@code
   * --help} or {@code --version}, an {@code @file} argument, a misspelt name (for picocli's
   * suggestions), or {@code help}/{@code completion}, which read every command.
   */
  static @Nullable String plainlyNamedSubcommand(String... args) {
    for (String arg : args) {
      if (isVerbosityFlag(arg)) {
        continue;
      }
      boolean lazy = SUBCOMMANDS.containsKey(arg) && !arg.equals(HELP) && !arg.equals(COMPLETION);
      return lazy ? arg : null;
    }
    return null;
  }

  /** {@code -v}, {@code -vv}, {@code -q}, {@code -vq}…, {@code --verbose}, {@code --quiet}. */
  private static boolean isVerbosityFlag(String arg) {
    if (arg.equals("--verbose") || arg.equals("--quiet")) {
      return true;
    }
    if (arg.length() < 2 || arg.charAt(0) != '-') {
      return false;
    }
    for (int i = 1; i < arg.length(); i++) {
      char c = arg.charAt(i);
      if (c != 'v' && c != 'q') {
        return false;
      }
    }
    return true;
  }

  /** Reads the version stamped into the jar at build time. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties p = new Properties();
      try (InputStream in = KcshareCommand.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          p.load(in);
        }
      }
      return new String[] {"kcshare " + p.getProperty("version", "unknown")};
    }
  }
}
