package dev.kcshare.cli;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.HostConfigLoader;
import dev.kcshare.host.config.Platform;
import dev.kcshare.host.records.FileLock;
import dev.kcshare.host.records.RecordsDirectory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes the man pages, in troff ({@code man(7)} macros), one per command plus {@code kcshare(1)},
 * from the command tree: the synopsis, the description, every option and parameter, the commands
 * and the exit codes come from the picocli definitions; the ENVIRONMENT and FILES sections list
 * what the commands read (the configuration files by running the discovery itself, the record files
 * from their definitions); every EXAMPLES line is parsed against the command tree, so an example
 * that no longer parses fails the build. Runs at build time ({@link DistributionFiles}); it lives
 * in the test tree so none of it reaches the runtime jar.
 */
public final class ManPages {
  private ManPages() {}

  /** The one-line NAME summary of each command, by its path after {@code kcshare}. */
  static final Map<String, String> SUMMARIES =
      ordered(
          "", "tell which MCP servers may safely share one backend process",
          "assess", "print the verdict for configured MCP servers",
          "measure", "pre-flight configured stdio servers and store the results",
          "cost", "what the servers cost per session and what sharing would give back",
          "preflight", "pre-flight one server and print the result, storing nothing",
          "preflight compare", "decide a pre-flight offline from two captures",
          "hazards", "show or clear what the gateway's hazard ledger observed",
          "hazards list", "list the servers with observed hazards",
          "hazards clear", "forget every observed hazard of one server",
          "records", "show the record files: where they are, why, and what they hold",
          "identity", "compute the execution identity of one server definition",
          "config", "show the MCP configuration kcshare reads",
          "seed", "turn verdicts into a gateway's configuration, once per server",
          "stub", "stub servers in the Kiro Crew configuration",
          "unstub", "unstub servers in the Kiro Crew configuration",
          "completion", "print a bash or zsh completion script");

  /** Examples by command path: a command line (after {@code kcshare}) and what it does. */
  static final Map<String, List<String[]>> EXAMPLES = examples();

  /** The commands that edit the Kiro Crew configuration file. */
  private static final Set<String> WRITES_GATEWAY_CONFIG = Set.of("seed", "stub", "unstub");

  /** One ENVIRONMENT entry: the variable, which commands it concerns, and what it does. */
  record Variable(String name, Predicate<CommandSpec> concerns, String text) {}

  /** Every environment variable kcshare or its launcher reads (a test keeps this complete). */
  static final List<Variable> ENVIRONMENT =
      List.of(
          new Variable(
              "KCSHARE_RECORDS_DIR",
              ManPages::readsRecords,
              "The records directory, when \\fB\\-\\-records\\-dir\\fR is not given."),
          new Variable(
              "KIROCREW_HOME",
              c -> readsRecords(c) || readsConfig(c),
              "The Kiro Crew data home (default \\fI~/.kiro/crew\\fR): its \\fIconfig.json\\fR"
                  + " holds the gateway settings, \\fI$KIROCREW_HOME/mcp\\-gateway\\fR is a"
                  + " records directory rule, and setting it selects the kirocrew host profile."),
          new Variable(
              "MCPHUB_SETTING_PATH",
              c -> c.name().equals("seed") || readsConfig(c),
              "mcphub's settings file, read as a configuration source and by \\fB\\-\\-gateway"
                  + " mcphub\\fR, as mcphub reads it (a path ending in \\fImcp_settings.json\\fR,"
                  + " else that file in the directory it names); without it,"
                  + " \\fImcp_settings.json\\fR in the working directory or its parent."),
          new Variable(
              "ONE_MCP_CONFIG",
              c -> c.name().equals("seed") || readsConfig(c),
              "1MCP's configuration file, read as a configuration source and by \\fB\\-\\-gateway"
                  + " 1mcp\\fR, as 1MCP reads it."),
          new Variable(
              "ONE_MCP_CONFIG_DIR",
              c -> c.name().equals("seed") || readsConfig(c),
              "Without ONE_MCP_CONFIG: the directory of 1MCP's \\fImcp.json\\fR (default"
                  + " \\fI~/.config/1mcp\\fR), read as a configuration source and by"
                  + " \\fB\\-\\-gateway 1mcp\\fR."),
          new Variable(
              "HOME",
              c -> readsRecords(c) || readsConfig(c),
              "The user's home, under which the configuration files are discovered and the"
                  + " default records directory lies."),
          new Variable(
              "XDG_CONFIG_HOME",
              ManPages::readsConfig,
              "When an absolute path, the configuration files kept under \\fI~/.config\\fR"
                  + " (Claude Desktop, VS Code and the extensions in its storage, Zed, Goose,"
                  + " opencode) are read under it instead."),
          new Variable(
              "XDG_STATE_HOME",
              ManPages::readsConfig,
              "When an absolute path, where a quiet run (\\fB\\-q\\fR) remembers the skipped"
                  + " configuration files it already warned about (\\fIkcshare/skipped-files.json\\fR;"
                  + " default \\fI~/.local/state\\fR)."),
          new Variable(
              "CODEX_HOME",
              ManPages::readsConfig,
              "Codex CLI's home (default \\fI~/.codex\\fR): its \\fIconfig.toml\\fR is read."),
          new Variable(
              "GEMINI_CLI_HOME",
              ManPages::readsConfig,
              "Replaces the home under which Gemini CLI's \\fI.gemini/settings.json\\fR is read."),
          new Variable(
              "CONTINUE_GLOBAL_DIR",
              ManPages::readsConfig,
              "Continue's directory (default \\fI~/.continue\\fR): its \\fIconfig.yaml\\fR,"
                  + " \\fImcpServers/\\fR and \\fI.env\\fR are read."),
          new Variable(
              "CLINE_MCP_SETTINGS_PATH",
              ManPages::readsConfig,
              "Cline's MCP settings file, instead of the one under \\fICLINE_DATA_DIR\\fR."),
          new Variable(
              "CLINE_DATA_DIR",
              ManPages::readsConfig,
              "Cline's data directory: \\fIsettings/cline_mcp_settings.json\\fR under it is read."),
          new Variable(
              "CLINE_DIR",
              ManPages::readsConfig,
              "Cline's directory (default \\fI~/.cline\\fR), whose"
                  + " \\fIdata/settings/cline_mcp_settings.json\\fR is read."),
          new Variable(
              "OPENCODE_CONFIG",
              ManPages::readsConfig,
              "One more opencode configuration file to read."),
          new Variable(
              "PATH",
              c -> readsConfig(c) || has(c, "--command"),
              "Where server commands are looked up. The file a command resolves to is"
                  + " fingerprinted into the server's execution identity, so run kcshare with"
                  + " the PATH the gateway starts servers with. Servers that are pre\\-flighted"
                  + " run with kcshare's environment plus their declared env."),
          new Variable(
              "NO_COLOR",
              c -> path(c).equals("assess") || path(c).equals("measure"),
              "When set and not empty, no colour and no cursor control: the verdict table is"
                  + " never coloured and \\fBmeasure\\fR prints plain lines instead of a live status"
                  + " line (both are only used on a terminal anyway)."),
          new Variable(
              "TERM",
              c -> path(c).equals("assess") || path(c).equals("measure"),
              "\\fBdumb\\fR means the same as \\fBNO_COLOR\\fR: no colour and no cursor control."),
          new Variable(
              "COLUMNS",
              c -> path(c).equals("measure"),
              "The terminal's width for \\fBmeasure\\fR's live status line (default 80)."),
          new Variable(
              "KCSHARE_LOG_LEVEL",
              c -> true,
              "The default level of the log on standard error: error, warn (the default),"
                  + " info, debug or trace. \\fB\\-q\\fR, \\fB\\-v\\fR and \\fB\\-vv\\fR override"
                  + " it."),
          new Variable(
              "KCSHARE_JAVA_OPTS",
              c -> true,
              "Replaces the launcher's JVM flags (default: \\fB\\-XX:TieredStopAtLevel=1"
                  + " \\-XX:+UseSerialGC \\-Xss4m\\fR)."),
          new Variable(
              "KCSHARE_CDS",
              c -> true,
              "\\fB0\\fR disables the launcher's start\\-up archive (AppCDS)."),
          new Variable(
              "JAVA_HOME",
              c -> true,
              "The Java runtime to run (17 or later): \\fI$JAVA_HOME/bin/java\\fR, else"
                  + " \\fBjava\\fR on PATH."),
          new Variable(
              "XDG_CACHE_HOME",
              c -> true,
              "Where the launcher keeps its start\\-up archive: \\fI$XDG_CACHE_HOME/kcshare\\fR,"
                  + " else \\fI~/.cache/kcshare\\fR (none without either variable)."));

  /**
   * Variables read in the code that the pages leave out, each with the reason: the launcher's
   * messages to the JVM, and a Windows-only location.
   */
  static final Map<String, String> UNDOCUMENTED_VARIABLES =
      Map.of(
          "KCSHARE_STDOUT_TTY", "set by the launcher: whether standard output is a terminal",
          "KCSHARE_STDERR_TTY", "set by the launcher: whether standard error is a terminal",
          "APPDATA", "Windows only: Claude Desktop's and VS Code's configuration directory");

  /** A human label for each configuration discovery slot. */
  static final Map<String, String> DISCOVERY_SLOTS =
      ordered(
          "kirocrew",
          "The Kiro Crew configuration (\\fI$KIROCREW_HOME/config.json\\fR when KIROCREW_HOME is"
              + " set): its mcp_gateway section, the gateway settings. \\fBseed\\fR, \\fBstub\\fR"
              + " and \\fBunstub\\fR edit its stub_overrides.",
          "kiro-user",
          "Kiro, user level.",
          "kiro-workspace",
          "Kiro, this workspace (relative to the working directory).",
          "kiro-agent",
          "Kiro agents, in file name order.",
          "claude-desktop",
          "Claude Desktop.",
          "claude-code-user",
          "Claude Code: its user servers, then the project entry of the working directory.",
          "claude-code-project",
          "Claude Code, this project.",
          "cursor-user",
          "Cursor, user level.",
          "cursor-workspace",
          "Cursor, this workspace.",
          "vscode-workspace",
          "VS Code, this workspace.",
          "vscode-user",
          "VS Code, user level.",
          "vscode-profile",
          "VS Code profiles, by profile directory.",
          "vscode-settings",
          "VS Code 1.101 and earlier: the mcp section of the user settings.",
          "windsurf",
          "Windsurf.",
          "cline",
          "Cline.",
          "cline-vscode",
          "Cline, in VS Code's extension storage and its older location.",
          "roo-user",
          "Roo Code, user level.",
          "roo-project",
          "Roo Code, this project.",
          "gemini-user",
          "Gemini CLI, user level.",
          "gemini-project",
          "Gemini CLI, this project.",
          "codex-user",
          "Codex CLI, user level (TOML).",
          "codex-project",
          "Codex CLI, this project (TOML).",
          "zed-user",
          "Zed, user level.",
          "zed-project",
          "Zed, this project.",
          "continue-user",
          "Continue (YAML).",
          "continue-global-block",
          "Continue blocks, user level (YAML), in file name order.",
          "continue-block",
          "Continue blocks, this workspace (YAML), in file name order.",
          "continue-json",
          "Continue JSON server files, user level then this workspace.",
          "goose",
          "Goose (YAML).",
          "lmstudio",
          "LM Studio.",
          "amazonq-user",
          "Amazon Q Developer CLI, user level.",
          "amazonq-workspace",
          "Amazon Q Developer CLI, this workspace.",
          "amazonq-agent",
          "Amazon Q Developer CLI agents, user level then this workspace.",
          "opencode-user",
          "opencode, user level.",
          "opencode-project",
          "opencode, this project.",
          "mcphub",
          "mcphub's mcp_settings.json.",
          "1mcp",
          "1MCP's mcp.json (static servers and templates).");

  /**
   * Writes {@code kcshare.1} and {@code kcshare-COMMAND.1} pages into {@code dir}.
   *
   * @return the files written
   */
  public static List<Path> generate(Path dir, String version, String date) throws IOException {
    Files.createDirectories(dir);
    CommandLine root = Main.commandLine(context(Path.of("").toAbsolutePath()));
    List<Path> written = new ArrayList<>();
    for (CommandSpec spec : CompletionScripts.commands(root)) {
      if (isHelpCommand(spec)) {
        continue;
      }
      Path file = dir.resolve(pageName(spec) + ".1");
      Files.writeString(file, page(spec, version, date), StandardCharsets.UTF_8);
      written.add(file);
    }
    return written;
  }

  /** {@code kcshare}, {@code kcshare-hazards-clear}. */
  static String pageName(CommandSpec spec) {
    String path = path(spec);
    return path.isEmpty() ? "kcshare" : "kcshare-" + path.replace(' ', '-');
  }

  /** The troff source of one command's page. */
  static String page(CommandSpec spec, String version, String date) {
    String path = path(spec);
    String summary = SUMMARIES.get(path);
    if (summary == null) {
      throw new IllegalStateException("no NAME summary for 'kcshare " + path + "' in ManPages");
    }
    StringBuilder t = new StringBuilder();
    t.append(".\\\" Generated from kcshare's command definitions at build time; do not edit.\n");
    t.append(".TH ").append(roman(pageName(spec).toUpperCase(java.util.Locale.ROOT)));
    t.append(" 1 ").append(quoted(date)).append(' ').append(quoted("kcshare " + version));
    t.append(' ').append(quoted("kcshare manual")).append('\n');

    t.append(".SH NAME\n").append(roman(pageName(spec))).append(" \\- ");
    t.append(roman(summary)).append('\n');

    synopsis(t, spec);

    t.append(".SH DESCRIPTION\n");
    for (String line : spec.usageMessage().description()) {
      paragraph(t, line);
    }

    List<PositionalParamSpec> positionals = CompletionScripts.visiblePositionals(spec);
    List<OptionSpec> options = CompletionScripts.visibleOptions(spec);
    if (!positionals.isEmpty() || !options.isEmpty()) {
      t.append(".SH OPTIONS\n");
      for (PositionalParamSpec p : positionals) {
        t.append(".TP\n").append(italic(p.paramLabel()));
        t.append(p.isMultiValue() ? "..." : "").append('\n');
        t.append(text(String.join(" ", p.description()))).append('\n');
      }
      for (OptionSpec o : options) {
        t.append(".TP\n").append(optionTerm(o)).append('\n');
        t.append(text(String.join(" ", o.description()))).append('\n');
      }
    }

    List<CommandLine> subs = CompletionScripts.visibleSubcommands(spec);
    if (!subs.isEmpty()) {
      t.append(".SH COMMANDS\n");
      for (CommandLine sub : subs) {
        CommandSpec s = sub.getCommandSpec();
        t.append(".TP\n").append(bold(s.name())).append('\n');
        if (isHelpCommand(s)) {
          t.append(text("Shows the usage help of kcshare or of the named command.")).append('\n');
        } else {
          t.append(text(capitalized(SUMMARIES.get(path(s))) + ":")).append(' ');
          t.append(bold(pageName(s))).append("(1).\n");
        }
      }
    }

    t.append(".SH EXIT STATUS\n");
    for (Map.Entry<String, String> e : exitCodes(spec).entrySet()) {
      t.append(".TP\n").append(bold(e.getKey().strip())).append('\n');
      t.append(text(e.getValue().strip() + ".")).append('\n');
    }

    t.append(".SH ENVIRONMENT\n");
    for (Variable v : ENVIRONMENT) {
      if (v.concerns().test(spec)) {
        t.append(".TP\n").append(bold(v.name())).append('\n').append(v.text()).append('\n');
      }
    }
    if (readsConfig(spec)) {
      paragraph(
          t,
          "Configuration files may refer to environment variables (${env:NAME}, ${NAME}, as"
              + " each format allows); they are substituted from kcshare's environment, and"
              + " those that cannot be are reported by kcshare config.");
    }

    files(t, spec);

    List<String[]> examples = EXAMPLES.getOrDefault(path, List.of());
    if (!examples.isEmpty()) {
      t.append(".SH EXAMPLES\n");
      for (String[] example : examples) {
        requireParses(example[0]);
        t.append(".PP\n").append(text(example[1])).append('\n');
        t.append(".PP\n.RS\n.EX\n").append(text("$ kcshare " + example[0])).append('\n');
        t.append(".EE\n.RE\n");
      }
    }

    t.append(".SH SEE ALSO\n");
    List<String> related = new ArrayList<>();
    if (spec.parent() != null) {
      related.add(bold(pageName(spec.parent())) + "(1)");
    }
    for (CommandLine sub : subs) {
      if (!isHelpCommand(sub.getCommandSpec())) {
        related.add(bold(pageName(sub.getCommandSpec())) + "(1)");
      }
    }
    if (spec.parent() == null) {
      related.add(bold("systemd.timer") + "(5)");
      related.add(bold("crontab") + "(5)");
    }
    t.append(String.join(",\n", related)).append('\n');
    paragraph(
        t,
        "The guides (docs/guide.md, docs/cron.md, docs/troubleshooting.md, ...) are installed"
            + " in /usr/share/doc/kcshare (share/doc/kcshare in the tarball).");
    return t.toString();
  }

  private static void synopsis(StringBuilder t, CommandSpec spec) {
    t.append(".SH SYNOPSIS\n");
    String name = spec.parent() == null ? "kcshare" : "kcshare " + path(spec);
    t.append(".SY ").append(quoted(name)).append('\n');
    StringBuilder flags = new StringBuilder();
    List<String> items = new ArrayList<>();
    List<ArgGroupSpec> groups = new ArrayList<>();
    for (OptionSpec o : CompletionScripts.visibleOptions(spec)) {
      if (o.group() != null) {
        if (!groups.contains(o.group())) {
          groups.add(o.group());
          items.add(group(o.group()));
        }
        continue;
      }
      String shortest = o.shortestName();
      if (o.arity().max() == 0 && shortest.length() == 2 && !o.required()) {
        flags.append(shortest.charAt(1));
        continue;
      }
      String item = bold(o.longestName());
      if (o.arity().max() > 0) {
        item += "=" + italic(o.paramLabel());
      }
      if (!o.required()) {
        item = "[" + item + "]";
      }
      items.add(item + (o.isMultiValue() && o.arity().max() > 0 ? "..." : ""));
    }
    if (flags.length() > 0) {
      t.append(unbreakable("[" + bold("-" + flags) + "]")).append('\n');
    }
    for (String item : items) {
      t.append(unbreakable(item)).append('\n');
    }
    for (PositionalParamSpec p : CompletionScripts.visiblePositionals(spec)) {
      String item = italic(p.paramLabel()) + (p.isMultiValue() ? "..." : "");
      t.append(unbreakable(p.arity().min() == 0 ? "[" + item + "]" : item)).append('\n');
    }
    if (!spec.subcommands().isEmpty()) {
      boolean runsAlone = !(spec.userObject() instanceof KcshareCommand);
      String item = italic("COMMAND");
      t.append(unbreakable(runsAlone ? "[" + item + "]" : item)).append('\n');
    }
    t.append(".YS\n");
  }

  /**
   * One synopsis item as a word groff never hyphenates or breaks: {@code \%} at its start forbids
   * hyphenation, and a {@code \%} inside a word would mark a place to break it.
   */
  private static String unbreakable(String item) {
    List<String> words = new ArrayList<>();
    for (String word : item.split(" ", -1)) {
      words.add("\\%" + word.replace("\\%", ""));
    }
    return String.join(" ", words);
  }

  private static String group(ArgGroupSpec group) {
    List<String> members = new ArrayList<>();
    for (OptionSpec o : group.options()) {
      members.add(bold(o.longestName()));
    }
    String joined = String.join(group.exclusive() ? " | " : " ", members);
    return group.multiplicity().min() > 0 ? "(" + joined + ")" : "[" + joined + "]";
  }

  private static String optionTerm(OptionSpec o) {
    List<String> names = new ArrayList<>();
    for (String n : o.names()) {
      names.add(bold(n));
    }
    String term = String.join(", ", names);
    if (o.arity().max() > 0) {
      term += "=" + italic(o.paramLabel());
    }
    return term;
  }

  /** The command's own exit codes, else those of the root command. */
  private static Map<String, String> exitCodes(CommandSpec spec) {
    for (CommandSpec s = spec; s != null; s = s.parent()) {
      Map<String, String> codes = s.usageMessage().exitCodeList();
      if (!codes.isEmpty()) {
        return codes;
      }
    }
    return Map.of();
  }

  private static void files(StringBuilder t, CommandSpec spec) {
    StringBuilder f = new StringBuilder();
    if (readsConfig(spec)) {
      f.append(".na\n"); // ragged right: some paths are longer than a justified line
      for (ConfigFile file : discovered()) {
        String what = DISCOVERY_SLOTS.get(file.origin());
        if (what == null) {
          throw new IllegalStateException(
              "discovery slot '" + file.origin() + "' has no description in ManPages");
        }
        // A long path may break after any slash (\: is a break point that prints nothing).
        String path =
            file.display().length() <= 48
                ? italic(file.display())
                : "\\fI\\%" + escape(file.display()).replace("/", "/\\:") + "\\fR";
        f.append(".TP\n").append(path).append('\n').append(what).append('\n');
      }
      f.append(".ad\n");
      paragraph(
          f,
          "These are read (and listed by kcshare config) when no \\-\\-config file is named,"
              + " or with \\-\\-discover. Workspace files are relative to the working directory.");
      if (WRITES_GATEWAY_CONFIG.contains(path(spec))) {
        Path config = Path.of("config.json");
        f.append(".TP\n").append(italic(ConfigEditor.backupFile(config).toString())).append('\n');
        f.append(text("The previous version of the Kiro Crew configuration, kept beside it."));
        f.append('\n');
        f.append(".TP\n").append(italic(FileLock.lockFileFor(config).toString())).append('\n');
        f.append(text("The lock an edit of the configuration holds."));
        f.append('\n');
      }
    }
    if (readsRecords(spec)) {
      Path home = Path.of("/nonexistent-home");
      RecordsDirectory dir = RecordsDirectory.resolve(null, Map.of(), null, home);
      String shown = "~" + dir.path().toString().substring(home.toString().length()) + "/";
      f.append(".TP\n").append(italic(shown)).append('\n');
      List<String> rules = new ArrayList<>();
      for (RecordsDirectory.Rule rule : RecordsDirectory.Rule.values()) {
        rules.add(rule.description());
      }
      f.append(
              text(
                  "The records directory, shared with the Kiro Crew gateway. The first of these"
                      + " rules that applies chooses it: "
                      + String.join(", ", rules)
                      + " (kcshare records shows which)."))
          .append('\n');
      f.append(".TP\n").append(italic(RecordsDirectory.LEDGER_FILE)).append('\n');
      f.append(text("The hazard ledger: what the gateway observed servers do while shared."));
      f.append('\n');
      f.append(".TP\n").append(italic(RecordsDirectory.CACHE_FILE)).append('\n');
      f.append(text("The verdict cache: each pre\\-flight's result, per execution identity."));
      f.append('\n');
      f.append(".TP\n").append(italic(lockName(RecordsDirectory.LEDGER_FILE))).append(", ");
      f.append(italic(lockName(RecordsDirectory.CACHE_FILE))).append('\n');
      f.append(text("The locks of the two files; the verdict cache's lock also allows one"));
      f.append(text(" measuring pass at a time per directory.")).append('\n');
    }
    f.append(".TP\n").append(italic("~/.cache/kcshare/")).append('\n');
    f.append(
            text(
                "The launcher's start\\-up archives, one per kcshare jar and Java runtime"
                    + " (XDG_CACHE_HOME moves it). Safe to delete."))
        .append('\n');
    f.append(".TP\n").append(italic("/usr/share/kcshare/, PREFIX/lib/kcshare/")).append('\n');
    f.append(
            text(
                "kcshare.jar and kcshare.classlist, which the kcshare script finds relative to"
                    + " itself (the Debian package, the tarball)."))
        .append('\n');
    f.append(".TP\n").append(italic("/usr/share/kcshare/, PREFIX/share/kcshare/")).append('\n');
    f.append(
            text(
                "kcshare.rules.yml and kcshare-dashboard.json: Prometheus rules and a Grafana"
                    + " dashboard for the metrics of many hosts (docs/fleet.md)."))
        .append('\n');
    t.append(".SH FILES\n").append(f);
  }

  private static String lockName(String file) {
    return FileLock.lockFileFor(Path.of(file)).toString();
  }

  private static @org.jspecify.annotations.Nullable List<ConfigFile> discovered;

  /** The files configuration discovery looks at, as it shows them, for a user on Linux. */
  static synchronized List<ConfigFile> discovered() {
    if (discovered == null) {
      discovered = discover();
    }
    return discovered;
  }

  private static List<ConfigFile> discover() {
    Path home = Path.of("/nonexistent-home");
    Path cwd = Path.of("/nonexistent-workspace");
    CliContext ctx = context(cwd, Map.of("HOME", home.toString()));
    return HostConfigLoader.load(ctx.host(), ConfigRequest.discovery(), Platform.LINUX).files();
  }

  static void requireParses(String commandLine) {
    String[] args = commandLine.split(" ");
    // a fresh tree each time: a parse leaves option values behind in the command objects
    CommandLine root = Main.commandLine(context(Path.of("").toAbsolutePath()));
    try {
      root.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalStateException(
          "man page example 'kcshare " + commandLine + "' does not parse: " + e.getMessage(), e);
    }
  }

  static boolean readsRecords(CommandSpec spec) {
    return has(spec, "--records-dir");
  }

  static boolean readsConfig(CommandSpec spec) {
    return has(spec, "--config");
  }

  private static boolean has(CommandSpec spec, String option) {
    return spec.findOption(option) != null;
  }

  private static boolean isHelpCommand(CommandSpec spec) {
    return spec.userObject() instanceof CommandLine.HelpCommand;
  }

  private static String path(CommandSpec spec) {
    return CompletionScripts.path(spec);
  }

  private static CliContext context(Path cwd) {
    return context(cwd, Map.of());
  }

  private static CliContext context(Path cwd, Map<String, String> env) {
    return new CliContext(
        new ByteArrayInputStream(new byte[0]),
        new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()),
        env,
        cwd);
  }

  // ---------------------------------------------------------------------------------------------
  // troff

  /** A description line as one or more paragraphs (picocli's %n breaks a line). */
  private static void paragraph(StringBuilder t, String line) {
    for (String part : line.replace("%%", "\u0000").split("%n", -1)) {
      String p = part.replace('\u0000', '%').strip();
      if (!p.isEmpty()) {
        t.append(".PP\n").append(text(p)).append('\n');
      }
    }
  }

  /**
   * Plain text as troff input: backslashes, hyphens and quotes escaped, non-ASCII as {@code
   * \[uXXXX]}, and a leading control character neutralised. Text that already holds troff escapes
   * ({@code \\-}, {@code \\fB}) is passed in with them and keeps them.
   */
  static String text(String s) {
    String r = escape(s);
    return r.startsWith(".") || r.startsWith("'") ? "\\&" + r : r;
  }

  /** {@link #text} for the middle of a line, where a leading dot needs no guard. */
  private static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      int n = Character.charCount(c);
      if (c == '\\' && i + 1 < s.length() && "-fe(&[%".indexOf(s.charAt(i + 1)) >= 0) {
        out.append('\\'); // an escape already in troff form
      } else if (c == '\\') {
        out.append("\\e");
      } else if (c == '-') {
        out.append(i > 0 && s.charAt(i - 1) == '\\' ? "-" : "\\-");
      } else if (c == '\'') {
        out.append("\\(aq");
      } else if (c == '`') {
        out.append("\\(ga");
      } else if (c == '\n') {
        out.append(' ');
      } else if (c < 0x20) {
        out.append(' ');
      } else if (c > 0x7e) {
        out.append(String.format("\\[u%04X]", c));
      } else {
        out.append((char) c);
      }
      i += n;
    }
    return out.toString();
  }

  /** Bold, never hyphenated ({@code \\%}): option names, commands, page names. */
  private static String bold(String s) {
    return "\\fB\\%" + escape(s) + "\\fR";
  }

  /** Italic, never hyphenated: parameters and file names. */
  private static String italic(String s) {
    return "\\fI\\%" + escape(s) + "\\fR";
  }

  private static String roman(String s) {
    return text(s);
  }

  private static String quoted(String s) {
    return "\"" + text(s).replace("\"", "\\(dq") + "\"";
  }

  private static String capitalized(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private static <V> Map<String, V> ordered(Object... kv) {
    Map<String, V> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      @SuppressWarnings("unchecked")
      V v = (V) kv[i + 1];
      m.put((String) kv[i], v);
    }
    return java.util.Collections.unmodifiableMap(m);
  }

  private static Map<String, List<String[]>> examples() {
    Map<String, List<String[]>> m = new LinkedHashMap<>();
    m.put(
        "",
        List.<String[]>of(
            new String[] {"config", "See which MCP configuration kcshare reads on this host."},
            new String[] {
              "measure --all --no-wait -q",
              "Measure what is due, quietly, as a cron job or systemd timer would."
            },
            new String[] {"assess --all", "Print every configured server's verdict."}));
    m.put(
        "assess",
        List.<String[]>of(
            new String[] {"assess --all", "Every configured server's verdict, as a table."},
            new String[] {"assess notes", "One server's verdict with every reason explained."},
            new String[] {
              "assess --all --json --fail-on refuted,disqualified",
              "JSON for a script; exit status 3 when a server is refuted or disqualified."
            },
            new String[] {
              "assess --all --metrics /var/lib/node_exporter/textfile_collector/kcshare.prom -q",
              "Verdict counts for node_exporter's textfile collector."
            },
            new String[] {
              "assess --evidence evidence.json", "The verdicts for hand-made evidence."
            }));
    m.put(
        "measure",
        List.<String[]>of(
            new String[] {"measure --all", "Pre-flight every server that is due."},
            new String[] {
              "measure --all --no-wait -q",
              "The same from cron: give up at once if another pass runs; errors only."
            },
            new String[] {
              "measure --all --no-wait -q --metrics"
                  + " /var/lib/node_exporter/textfile_collector/kcshare-pass.prom",
              "The same, and a textfile about the pass for node_exporter (docs/fleet.md)."
            },
            new String[] {"measure notes search", "Measure two servers now, due or not."}));
    m.put(
        "cost",
        List.<String[]>of(
            new String[] {
              "cost", "Every server's per-session cost and the totals for five sessions."
            },
            new String[] {
              "cost --sessions 12 --json",
              "The same for twelve concurrent sessions, as JSON for a dashboard."
            }));
    m.put(
        "preflight",
        List.<String[]>of(
            new String[] {"preflight notes", "Pre-flight one server and show the result."},
            new String[] {
              "preflight notes --capture captures --json",
              "The same as JSON, saving both clients' raw answers under captures/notes/."
            }));
    m.put(
        "preflight compare",
        List.<String[]>of(
            new String[] {
              "preflight compare captures/notes/a.json captures/notes/b.json",
              "Decide a pre-flight again from two saved captures."
            }));
    m.put(
        "hazards",
        List.<String[]>of(
            new String[] {"hazards list", "Which servers the gateway saw misbehave."}));
    m.put(
        "hazards list",
        List.<String[]>of(
            new String[] {"hazards list --json", "The ledger's observations as JSON."}));
    m.put(
        "hazards clear",
        List.<String[]>of(
            new String[] {"hazards clear browser", "Forget what was observed of browser."}));
    m.put(
        "records",
        List.<String[]>of(
            new String[] {"records", "Where the record files are, and what they hold."},
            new String[] {
              "records --records-dir /srv/kirocrew/mcp-gateway", "The same for another directory."
            }));
    m.put(
        "identity",
        List.<String[]>of(
            new String[] {
              "identity --command npx --arg -y --arg @modelcontextprotocol/server-memory",
              "The execution identity of one definition, to compare with the record files."
            }));
    m.put(
        "config",
        List.<String[]>of(
            new String[] {"config", "What discovery finds on this host."},
            new String[] {
              "config --config ~/.kiro/settings/mcp.json --json", "One file only, as JSON."
            }));
    m.put(
        "seed",
        List.<String[]>of(
            new String[] {"seed --plan", "What seeding would write, without writing it."},
            new String[] {"seed --apply", "Write it."}));
    m.put(
        "stub",
        List.<String[]>of(
            new String[] {"stub notes", "Keep notes behind a per-session stub."},
            new String[] {
              "stub --resolve-eligibility notes search", "Stub only those the evidence allows."
            }));
    m.put(
        "unstub",
        List.<String[]>of(new String[] {"unstub notes", "Take notes out of the stub set."}));
    m.put(
        "completion",
        List.<String[]>of(
            new String[] {"completion bash", "Print the bash completion script."},
            new String[] {
              "completion zsh", "Print the zsh completion script (a #compdef _kcshare function)."
            }));
    return java.util.Collections.unmodifiableMap(m);
  }
}
