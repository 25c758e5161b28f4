package dev.kcshare.cli;

import dev.kcshare.cli.log.Verbosity;
import dev.kcshare.host.BadInputException;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The {@code kcshare} entry point. {@link #main} is the only place that calls {@link System#exit};
 * {@link #run} executes a command line in-process against a {@link CliContext}.
 *
 * <p>Exit codes: {@value #EXIT_OK} success, {@value #EXIT_FAILURE} kcshare's own runtime failure,
 * {@value #EXIT_USAGE} bad usage or bad input.
 */
public final class Main {
  public static final int EXIT_OK = 0;
  public static final int EXIT_FAILURE = 1;
  public static final int EXIT_USAGE = 2;

  private Main() {}

  /**
   * The {@code picocli.converters.excludes} value kcshare runs with: {@code .*}. picocli consults
   * that property only for the converters it registers through reflection ({@code java.sql.*},
   * {@code java.time.*} and {@code java.nio.file.Path}, looked up with {@code Class.forName} and
   * {@code getDeclaredMethod} for every command of the tree on every run), so this leaves out
   * exactly those, none of which an option of kcshare uses (a test checks that).
   */
  static final String UNUSED_CONVERTERS = ".*";

  public static void main(String[] args) {
    if (System.getProperty("picocli.converters.excludes") == null) {
      System.setProperty("picocli.converters.excludes", UNUSED_CONVERTERS);
    }
    PrintWriter out = new PrintWriter(System.out, false, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    CliContext ctx =
        new CliContext(System.in, out, err, System.getenv(), Path.of("").toAbsolutePath());
    int code = run(ctx, args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** Runs one command line and returns its exit code; never calls {@link System#exit}. */
  public static int run(CliContext ctx, String... args) {
    // A plain `measure SERVER` spawns its server now, so that the JVM's start overlaps the
    // server's; nothing is begun that the command itself would not do first. Closing it ends
    // whatever of it the command did not take over.
    try (MeasureHeadStart early = MeasureHeadStart.begin(ctx, args)) {
      if (early != null) {
        return runWithoutPicocli(ctx, early, args);
      }
      String only = KcshareCommand.plainlyNamedSubcommand(args);
      CommandLine cli =
          commandLine(ctx, only == null ? KcshareCommand.SUBCOMMANDS.keySet() : Set.of(only));
      return cli.execute(args);
    } finally {
      ctx.out().flush();
      ctx.err().flush();
    }
  }

  /**
   * Runs the head start's {@code measure SERVER} without building picocli's command model: the
   * command set up as picocli would set it up ({@link MeasureCommand#of}), its exit code, and a
   * failure handled by the same handler as under picocli, with picocli's own reading of the command
   * line (built only then).
   */
  private static int runWithoutPicocli(CliContext ctx, MeasureHeadStart early, String... args) {
    MeasureCommand command = MeasureCommand.of(ctx, early);
    try {
      return command.call();
    } catch (Exception e) {
      CommandLine cli = commandLine(ctx, Set.of("measure"));
      CommandLine.ParseResult parsed = cli.parseArgs(args);
      CommandLine.ParseResult sub = parsed.subcommand();
      return new Handlers(ctx)
          .handleExecutionException(e, sub == null ? cli : sub.commandSpec().commandLine(), parsed);
    }
  }

  /** The configured picocli command tree, for in-process use and documentation generators. */
  public static CommandLine commandLine(CliContext ctx) {
    return commandLine(ctx, KcshareCommand.SUBCOMMANDS.keySet());
  }

  /**
   * The root command with only the named subcommands. Building a subcommand's model reflects over
   * every option of it and its mixins; a run that names one subcommand needs no other's.
   */
  static CommandLine commandLine(CliContext ctx, Set<String> subcommands) {
    ContextFactory factory = new ContextFactory(ctx);
    CommandLine cli = new CommandLine(new KcshareCommand(), factory);
    for (Map.Entry<String, Class<?>> e : KcshareCommand.SUBCOMMANDS.entrySet()) {
      if (subcommands.contains(e.getKey())) {
        CommandLine sub = new CommandLine(e.getValue(), factory);
        cli.addSubcommand(e.getKey(), sub);
        sameVersion(sub, cli.getCommandSpec().versionProvider());
      }
    }
    cli.setOut(ctx.out());
    cli.setErr(ctx.err());
    Handlers handlers = new Handlers(ctx);
    cli.setExecutionStrategy(handlers);
    cli.setParameterExceptionHandler(handlers);
    cli.setExecutionExceptionHandler(handlers);
    return cli;
  }

  /**
   * Every command's {@code -V} (from picocli's help mixin) prints kcshare's version; without a
   * provider of its own a subcommand would print nothing.
   */
  private static void sameVersion(CommandLine cli, CommandLine.IVersionProvider version) {
    cli.getCommandSpec().versionProvider(version);
    for (CommandLine sub : cli.getSubcommands().values()) {
      sameVersion(sub, version);
    }
  }

  /**
   * kcshare's execution strategy and error handlers. One named class rather than three lambdas: a
   * lambda implementing one of picocli's interfaces (Java 5 class files) would be spun on every
   * start, and would keep those interfaces out of the class-data archive.
   */
  private static final class Handlers
      implements CommandLine.IExecutionStrategy,
          CommandLine.IParameterExceptionHandler,
          CommandLine.IExecutionExceptionHandler {
    private final CliContext ctx;

    Handlers(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public int execute(CommandLine.ParseResult parseResult) {
      Verbosity.apply(KcshareCommand.verbosityOf(parseResult));
      return new CommandLine.RunLast().execute(parseResult);
    }

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
      CommandLine failed = ex.getCommandLine();
      failed.getErr().println("kcshare: " + ex.getMessage());
      failed
          .getErr()
          .println(
              "Try '" + failed.getCommandSpec().qualifiedName() + " --help' for more information.");
      return EXIT_USAGE;
    }

    @Override
    public int handleExecutionException(
        Exception ex, CommandLine commandLine, CommandLine.ParseResult parseResult) {
      if (ex instanceof BadInputException) {
        commandLine.getErr().println("kcshare: " + ex.getMessage());
        return EXIT_USAGE;
      }
      EnvironmentErrors.Report env = EnvironmentErrors.of(ex, ctx, parseResult);
      if (env != null) {
        // The environment's fault, not kcshare's: one plain line, the causes in words at -vv,
        // never a class name or a stack trace.
        commandLine.getErr().println("kcshare: " + env.message());
        if (KcshareCommand.verbosityOf(parseResult) >= 2) {
          for (String cause : env.causes()) {
            commandLine.getErr().println("  because: " + cause);
          }
        }
        return env.usageError() ? EXIT_USAGE : EXIT_FAILURE;
      }
      // Looked up here, not in a static field: a run that logs nothing never starts logback.
      Logger log = LoggerFactory.getLogger(Main.class);
      log.debug("command failed", ex);
      commandLine.getErr().println("kcshare: internal error: " + ex);
      return EXIT_FAILURE;
    }
  }

  /** Creates commands, handing the {@link CliContext} to those whose constructor takes one. */
  private static final class ContextFactory implements CommandLine.IFactory {
    private final CliContext ctx;
    private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

    ContextFactory(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
      for (Constructor<?> c : cls.getDeclaredConstructors()) {
        Class<?>[] params = c.getParameterTypes();
        if (params.length == 1 && params[0] == CliContext.class) {
          c.setAccessible(true);
          return cls.cast(c.newInstance(ctx));
        }
      }
      return fallback.create(cls);
    }
  }
}
