package dev.kcshare.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The root command: global options and the list of subcommands. */
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
    subcommands = {
      AssessCommand.class,
      MeasureCommand.class,
      PreflightCommand.class,
      HazardsCommand.class,
      RecordsCommand.class,
      IdentityCommand.class,
      ConfigCommand.class,
      SeedCommand.class,
      StubCommand.class,
      UnstubCommand.class,
      CompletionCommand.class,
      CommandLine.HelpCommand.class
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
