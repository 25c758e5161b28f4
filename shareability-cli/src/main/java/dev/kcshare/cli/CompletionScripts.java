package dev.kcshare.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The bash and zsh completion scripts, generated from the command tree (every command, option and
 * positional parameter, hidden ones left out), so they always match this version. Where a parameter
 * names configured servers ({@link ServerNames}), the scripts ask {@code kcshare config --names} at
 * TAB time, passing on the {@code --config}, {@code --discover} and {@code --profile} options
 * already on the command line; that command only reads configuration files, and its standard error
 * is discarded.
 */
final class CompletionScripts {
  private CompletionScripts() {}

  /** What a value can be completed with. */
  enum Kind {
    /** Nothing to offer (a number, a free-form string). */
    NONE,
    /** A file name. */
    FILE,
    /** A directory name. */
    DIRECTORY,
    /** Configured server names, looked up when TAB is pressed. */
    SERVERS,
    /** A fixed list of words. */
    WORDS
  }

  /**
   * The value kind of each parameter label in the command tree that takes a path. Every other label
   * completes nothing, unless the parameter lists its candidates; {@code CompletionScriptsTest}
   * fails for a label it has not seen, so a new path parameter gets its file completion.
   */
  static final Map<String, Kind> PATH_LABELS =
      Map.of(
          "FILE", Kind.FILE,
          "DIR", Kind.DIRECTORY,
          "CAPTURE", Kind.FILE);

  /** The options whose values select the configuration {@code config --names} reads. */
  static final List<String> CONFIG_SELECTION = List.of("--config", "--profile");

  static final String CONFIG_DISCOVER = "--discover";

  /** The completion kind of an option's or positional parameter's value. */
  static Kind kindOf(ArgSpec arg) {
    Iterable<String> candidates = arg.completionCandidates();
    if (candidates instanceof ServerNames) {
      return Kind.SERVERS;
    }
    if (candidates != null && candidates.iterator().hasNext()) {
      return Kind.WORDS;
    }
    return PATH_LABELS.getOrDefault(arg.paramLabel(), Kind.NONE);
  }

  static List<String> words(ArgSpec arg) {
    List<String> out = new ArrayList<>();
    Iterable<String> candidates = arg.completionCandidates();
    if (candidates != null) {
      candidates.forEach(out::add);
    }
    return out;
  }

  /** Every visible command of the tree, parents before children; the root first. */
  static List<CommandSpec> commands(CommandLine root) {
    List<CommandSpec> out = new ArrayList<>();
    collect(root.getCommandSpec(), out);
    return out;
  }

  private static void collect(CommandSpec spec, List<CommandSpec> out) {
    out.add(spec);
    for (CommandLine sub : visibleSubcommands(spec)) {
      collect(sub.getCommandSpec(), out);
    }
  }

  /** The subcommands help lists (aliases left out), in order. */
  static List<CommandLine> visibleSubcommands(CommandSpec spec) {
    List<CommandLine> out = new ArrayList<>();
    for (Map.Entry<String, CommandLine> e : spec.subcommands().entrySet()) {
      CommandSpec sub = e.getValue().getCommandSpec();
      if (!sub.usageMessage().hidden() && e.getKey().equals(sub.name())) {
        out.add(e.getValue());
      }
    }
    return out;
  }

  static List<OptionSpec> visibleOptions(CommandSpec spec) {
    List<OptionSpec> out = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (!o.hidden()) {
        out.add(o);
      }
    }
    return out;
  }

  static List<PositionalParamSpec> visiblePositionals(CommandSpec spec) {
    List<PositionalParamSpec> out = new ArrayList<>();
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (!p.hidden()) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * The words after {@code kcshare} that name this command ({@code "hazards clear"}); empty for the
   * root.
   */
  static String path(CommandSpec spec) {
    List<String> names = new ArrayList<>();
    for (CommandSpec s = spec; s.parent() != null; s = s.parent()) {
      names.add(0, s.name());
    }
    return String.join(" ", names);
  }

  private static String functionName(String prefix, CommandSpec spec) {
    String path = path(spec);
    return path.isEmpty()
        ? prefix
        : prefix + "_" + path.replace(' ', '_').replace('-', '_').toLowerCase(Locale.ROOT);
  }

  /**
   * The values {@code help}'s positional parameter completes: the names of the commands it can
   * explain, else whatever the parameter declares.
   */
  private static Kind positionalKind(CommandSpec spec, PositionalParamSpec p) {
    if (isHelpCommand(spec)) {
      return Kind.WORDS;
    }
    return kindOf(p);
  }

  private static List<String> positionalWords(CommandSpec spec, PositionalParamSpec p) {
    if (isHelpCommand(spec) && spec.parent() != null) {
      List<String> names = new ArrayList<>();
      for (CommandLine sub : visibleSubcommands(spec.parent())) {
        names.add(sub.getCommandSpec().name());
      }
      return names;
    }
    return words(p);
  }

  private static boolean isHelpCommand(CommandSpec spec) {
    return spec.helpCommand() || spec.userObject() instanceof CommandLine.HelpCommand;
  }

  // ---------------------------------------------------------------------------------------------
  // bash

  /** The bash script: {@code complete -F _kcshare kcshare}. Needs bash 4; no bash-completion. */
  static String bash(CommandLine root) {
    List<CommandSpec> commands = commands(root);
    StringBuilder b = new StringBuilder();
    b.append("# bash completion for kcshare").append("                    -*- shell-script -*-\n");
    b.append("# Generated by `kcshare completion bash` from kcshare's command definitions.\n");
    b.append("# Install: /usr/share/bash-completion/completions/kcshare (packages),\n");
    b.append("# ~/.local/share/bash-completion/completions/kcshare, or in ~/.bashrc:\n");
    b.append("#   source <(kcshare completion bash)\n\n");

    b.append("# The subcommands of the command named by $1 (\"\" for kcshare itself).\n");
    b.append("_kcshare_subcommands() {\n  case $1 in\n");
    for (CommandSpec spec : commands) {
      List<CommandLine> subs = visibleSubcommands(spec);
      if (!subs.isEmpty()) {
        List<String> names = new ArrayList<>();
        for (CommandLine sub : subs) {
          names.add(sub.getCommandSpec().name());
        }
        b.append("    ").append(bashCaseLabel(path(spec))).append(") REPLY=\" ");
        b.append(String.join(" ", names)).append(" \" ;;\n");
      }
    }
    b.append("    *) REPLY=\"\" ;;\n  esac\n}\n\n");

    b.append("# The options of the command named by $1 that take a value.\n");
    b.append("_kcshare_value_options() {\n  case $1 in\n");
    for (CommandSpec spec : commands) {
      List<String> names = new ArrayList<>();
      for (OptionSpec o : visibleOptions(spec)) {
        if (o.arity().max() > 0) {
          names.addAll(List.of(o.names()));
        }
      }
      if (!names.isEmpty()) {
        b.append("    ").append(bashCaseLabel(path(spec))).append(") REPLY=\" ");
        b.append(String.join(" ", names)).append(" \" ;;\n");
      }
    }
    b.append("    *) REPLY=\"\" ;;\n  esac\n}\n\n");

    b.append(
        """
        # Adds the lines of standard input to COMPREPLY.
        _kcshare_add() {
          local line
          while IFS= read -r line; do COMPREPLY+=("$line"); done
        }

        _kcshare_files() {
          compopt -o filenames 2>/dev/null
          _kcshare_add < <(compgen -f -- "$cur")
        }

        _kcshare_directories() {
          compopt -o filenames 2>/dev/null
          _kcshare_add < <(compgen -d -- "$cur")
        }

        _kcshare_words() {
          _kcshare_add < <(compgen -W "$1" -- "$cur")
        }

        # Configured server names, read by the kcshare being completed, with the
        # configuration options already on the line (kcshare config --names reads files
        # only; its errors are discarded).
        _kcshare_servers() {
          local kcshare=${COMP_WORDS[0]} names
          # shellcheck disable=SC2088 # a literal ~/ typed on the line
          case $kcshare in "~/"*) kcshare=$HOME/${kcshare#"~/"} ;; esac
          names=$("$kcshare" config --names "${config[@]}" 2>/dev/null </dev/null) || names=""
          _kcshare_add < <(compgen -W "$names" -- "$cur")
        }

        """);

    b.append("# Completes the value of option $2 of the command named by $1.\n");
    b.append("_kcshare_option_value() {\n  case \"$1 $2\" in\n");
    for (CommandSpec spec : commands) {
      for (OptionSpec o : visibleOptions(spec)) {
        if (o.arity().max() == 0) {
          continue;
        }
        String action = bashAction(kindOf(o), words(o));
        if (action == null) {
          continue;
        }
        List<String> labels = new ArrayList<>();
        for (String name : o.names()) {
          labels.add(bashCaseLabel(path(spec) + " " + name));
        }
        b.append("    ").append(String.join("|", labels)).append(") ").append(action);
        b.append(" ;;\n");
      }
    }
    b.append("  esac\n}\n\n");

    b.append("# Completes positional parameter number $2 (from 0) of the command named by $1.\n");
    b.append("_kcshare_positional() {\n  case $1 in\n");
    for (CommandSpec spec : commands) {
      StringBuilder body = new StringBuilder();
      for (PositionalParamSpec p : visiblePositionals(spec)) {
        String action = bashAction(positionalKind(spec, p), positionalWords(spec, p));
        if (action == null) {
          continue;
        }
        int first = p.index().min();
        int last = lastIndex(p);
        String test =
            last == Integer.MAX_VALUE
                ? "(( $2 >= " + first + " ))"
                : "(( $2 >= " + first + " && $2 <= " + last + " ))";
        body.append("      if ").append(test).append("; then ").append(action);
        body.append("; return; fi\n");
      }
      if (body.length() > 0) {
        b.append("    ").append(bashCaseLabel(path(spec))).append(")\n").append(body);
        b.append("      ;;\n");
      }
    }
    b.append("  esac\n}\n\n");

    b.append("# All options of the command named by $1.\n");
    b.append("_kcshare_options() {\n  case $1 in\n");
    for (CommandSpec spec : commands) {
      List<String> names = new ArrayList<>();
      for (OptionSpec o : visibleOptions(spec)) {
        names.addAll(List.of(o.names()));
      }
      b.append("    ").append(bashCaseLabel(path(spec))).append(") REPLY=\"");
      b.append(String.join(" ", names)).append("\" ;;\n");
    }
    b.append("    *) REPLY=\"\" ;;\n  esac\n}\n\n");

    b.append(
        """
        _kcshare() {
          local cur=${COMP_WORDS[COMP_CWORD]} command="" option="" positionals=0 i word REPLY
          local -a config=()
          COMPREPLY=()
          # Which command the words before the cursor name, how many positional
          # parameters they hold, and whether the last one is an option awaiting its value.
          for ((i = 1; i < COMP_CWORD; i++)); do
            word=${COMP_WORDS[i]}
            if [[ $word == "=" && -n $option ]]; then
              continue # --option=value, split at '=' by bash
            fi
            if [[ -n $option ]]; then
              case $option in --config | --profile) config+=("$option" "$word") ;; esac
              option=""
              continue
            fi
            case $word in
              --discover) config+=("$word") ;;
              --config=?* | --profile=?*) config+=("$word") ;;
            esac
            if [[ $word == -* ]]; then
              _kcshare_value_options "$command"
              if [[ $word != *=* && $REPLY == *" $word "* ]]; then
                option=$word
              elif [[ $word == *= && $REPLY == *" ${word%=} "* ]]; then
                option=${word%=}
              fi
              continue
            fi
            _kcshare_subcommands "$command"
            if ((positionals == 0)) && [[ $REPLY == *" $word "* ]]; then
              command=${command:+$command }$word
            else
              positionals=$((positionals + 1))
            fi
          done
          local prefix=""
          if [[ $cur == "=" && -n $option ]]; then
            cur=""
          elif [[ -z $option && $cur == --*=* ]]; then
            # --option=value as one word ('=' taken out of COMP_WORDBREAKS)
            _kcshare_value_options "$command"
            if [[ $REPLY == *" ${cur%%=*} "* ]]; then
              option=${cur%%=*}
              prefix=$option=
              cur=${cur#*=}
            fi
          fi
          if [[ -n $option ]]; then
            _kcshare_option_value "$command" "$option"
            if [[ -n $prefix ]]; then
              COMPREPLY=("${COMPREPLY[@]/#/$prefix}")
            fi
            return 0
          fi
          if [[ $cur == -* ]]; then
            _kcshare_options "$command"
            _kcshare_words "$REPLY"
            return 0
          fi
          if ((positionals == 0)); then
            _kcshare_subcommands "$command"
            _kcshare_words "$REPLY"
          fi
          _kcshare_positional "$command" "$positionals"
          return 0
        }

        complete -F _kcshare kcshare
        """);
    return b.toString();
  }

  /** The last position a positional parameter can take; {@code MAX_VALUE} when unbounded. */
  private static int lastIndex(PositionalParamSpec p) {
    CommandLine.Range index = p.index();
    if (!p.isMultiValue()) {
      return index.max();
    }
    int arityMax = p.arity().max();
    return arityMax == Integer.MAX_VALUE
        ? Integer.MAX_VALUE
        : Math.min(index.max(), index.min() + arityMax - 1);
  }

  private static String bashCaseLabel(String path) {
    return "\"" + path + "\"";
  }

  private static @Nullable String bashAction(Kind kind, List<String> words) {
    return switch (kind) {
      case NONE -> null;
      case FILE -> "_kcshare_files";
      case DIRECTORY -> "_kcshare_directories";
      case SERVERS -> "_kcshare_servers";
      case WORDS -> "_kcshare_words \"" + String.join(" ", words) + "\"";
    };
  }

  // ---------------------------------------------------------------------------------------------
  // zsh

  /** The zsh script: a {@code #compdef kcshare} function for zsh's completion system. */
  static String zsh(CommandLine root) {
    List<CommandSpec> commands = commands(root);
    StringBuilder b = new StringBuilder();
    b.append("#compdef kcshare\n");
    b.append(
        "# zsh completion for kcshare, generated by `kcshare completion zsh` from kcshare's\n");
    b.append("# command definitions. Install as _kcshare in a directory of $fpath\n");
    b.append("# (/usr/share/zsh/vendor-completions, /usr/local/share/zsh/site-functions), or in\n");
    b.append("# ~/.zshrc after compinit:  source <(kcshare completion zsh)\n\n");
    b.append(
        """
        # Configured server names, read by the kcshare being completed, with the
        # configuration options already on the line (kcshare config --names reads files
        # only; its errors are discarded).
        _kcshare_servers() {
          local -a config names
          local i word kcshare=${(Q)_kcshare_line[1]}
          for (( i = 2; i <= ${#_kcshare_line}; i++ )); do
            word=${(Q)_kcshare_line[i]}
            case $word in
              (--config|--profile) config+=("$word" "${(Q)_kcshare_line[i+1]}") ;;
              (--config=?*|--profile=?*|--discover) config+=("$word") ;;
            esac
          done
          [[ $kcshare == '~/'* ]] && kcshare=$HOME/${kcshare#'~/'}
          names=(${(f)"$(command $kcshare config --names "${config[@]}" 2>/dev/null </dev/null)"})
          _wanted servers expl 'configured server' compadd -a names
        }

        """);
    for (int i = commands.size() - 1; i >= 0; i--) {
      zshFunction(b, commands.get(i));
    }
    b.append(
        """
        _kcshare() {
          # The words before the cursor, for _kcshare_servers (subcommand functions see
          # only their own words).
          local -a _kcshare_line
          _kcshare_line=("${(@)words[1,CURRENT-1]}")
          _kcshare_
        }

        if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
          _kcshare "$@"
        else
          compdef _kcshare kcshare
        fi
        """);
    return b.toString();
  }

  private static void zshFunction(StringBuilder b, CommandSpec spec) {
    String name = functionName("_kcshare_", spec);
    List<CommandLine> subs = visibleSubcommands(spec);
    List<PositionalParamSpec> positionals = visiblePositionals(spec);
    b.append(name).append("() {\n");
    if (!subs.isEmpty()) {
      b.append("  local curcontext=$curcontext state state_descr line ret=1\n");
      b.append("  typeset -A opt_args\n");
    }
    b.append("  _arguments -s -S");
    if (!subs.isEmpty()) {
      b.append(" -C");
    }
    b.append(" \\\n");
    for (OptionSpec o : visibleOptions(spec)) {
      b.append("    ").append(zshOption(o)).append(" \\\n");
    }
    if (!subs.isEmpty()) {
      b.append("    '1: :->command' \\\n");
      b.append("    '*:: :->arguments'");
    } else {
      for (PositionalParamSpec p : positionals) {
        b.append("    ").append(zshPositional(spec, p)).append(" \\\n");
      }
      trimContinuation(b);
    }
    b.append(subs.isEmpty() ? "\n}\n\n" : " && ret=0\n");
    if (subs.isEmpty()) {
      return;
    }
    b.append("  case $state in\n");
    b.append("    (command)\n");
    b.append("      local -a commands\n      commands=(\n");
    for (CommandLine sub : subs) {
      CommandSpec s = sub.getCommandSpec();
      b.append("        ").append(zshQuote(s.name() + ":" + summary(s))).append('\n');
    }
    b.append("      )\n");
    b.append("      _describe -t commands 'kcshare command' commands && ret=0\n");
    for (PositionalParamSpec p : positionals) {
      if (kindOf(p) == Kind.SERVERS) {
        b.append("      _kcshare_servers && ret=0\n");
      }
    }
    b.append("      ;;\n");
    b.append("    (arguments)\n");
    b.append("      curcontext=${curcontext%:*:*}:kcshare-$words[1]:\n");
    b.append("      case $words[1] in\n");
    for (CommandLine sub : subs) {
      CommandSpec s = sub.getCommandSpec();
      b.append("        (").append(s.name()).append(") ");
      b.append(functionName("_kcshare_", s)).append(" && ret=0 ;;\n");
    }
    b.append("      esac\n      ;;\n  esac\n  return ret\n}\n\n");
  }

  private static void trimContinuation(StringBuilder b) {
    int end = b.length();
    if (b.toString().endsWith(" \\\n")) {
      b.setLength(end - 3);
    }
  }

  private static String zshOption(OptionSpec o) {
    String[] names = o.names();
    boolean takesValue = o.arity().max() > 0;
    boolean repeatable = o.isMultiValue();
    StringBuilder spec = new StringBuilder();
    String description = "[" + zshBracketed(firstSentence(String.join(" ", o.description()))) + "]";
    String value = "";
    if (takesValue) {
      value = ":" + zshMessage(o.paramLabel()) + ":" + zshAction(kindOf(o), words(o));
    }
    boolean help = o.usageHelp() || o.versionHelp();
    if (names.length == 1) {
      List<String> excluded = excluded(o);
      String exclusion =
          help ? "(- *)" : excluded.size() > 1 ? "(" + String.join(" ", excluded) + ")" : "";
      spec.append("'").append(exclusion).append(repeatable ? "*" : "");
      spec.append(names[0]).append(takesValue ? suffix(names[0]) : "");
      spec.append(zshEscapeQuotes(description + value)).append("'");
      return spec.toString();
    }
    String exclusion = help ? "(- *)" : repeatable ? "" : "(" + String.join(" ", excluded(o)) + ")";
    spec.append("'").append(exclusion).append(repeatable ? "*" : "").append("'{");
    List<String> each = new ArrayList<>();
    for (String n : names) {
      each.add(n + (takesValue ? suffix(n) : ""));
    }
    spec.append(String.join(",", each)).append("}'");
    spec.append(zshEscapeQuotes(description + value)).append("'");
    return spec.toString();
  }

  /** The option's own names, and those of the other options of its exclusive group. */
  private static List<String> excluded(OptionSpec o) {
    List<String> out = new ArrayList<>(List.of(o.names()));
    CommandLine.Model.ArgGroupSpec group = o.group();
    if (group != null && group.exclusive()) {
      for (OptionSpec other : group.options()) {
        if (other != o) {
          out.addAll(List.of(other.names()));
        }
      }
    }
    return out;
  }

  /** {@code --long=}: the value after '=' or as the next word; {@code -s+}: attached or next. */
  private static String suffix(String name) {
    return name.startsWith("--") ? "=" : "+";
  }

  private static String zshPositional(CommandSpec spec, PositionalParamSpec p) {
    String label = zshMessage(p.paramLabel());
    String action = zshAction(positionalKind(spec, p), positionalWords(spec, p));
    int last = lastIndex(p);
    boolean optional = p.arity().min() == 0;
    if (last == Integer.MAX_VALUE) {
      return zshQuote("*:" + label + ":" + action);
    }
    List<String> out = new ArrayList<>();
    for (int i = p.index().min(); i <= last; i++) {
      out.add(zshQuote((i + 1) + (optional ? "::" : ":") + label + ":" + action));
    }
    return String.join(" ", out);
  }

  private static String zshAction(Kind kind, List<String> words) {
    return switch (kind) {
      case NONE -> " ";
      case FILE -> "_files";
      case DIRECTORY -> "_files -/";
      case SERVERS -> "_kcshare_servers";
      case WORDS -> "(" + String.join(" ", words) + ")";
    };
  }

  /** The first sentence of a description, for a one-line summary. */
  static String firstSentence(String text) {
    String t = text.replace("%n", " ").replace("%%", "%").strip();
    int end = t.indexOf(". ");
    String s = end < 0 ? t : t.substring(0, end + 1);
    if (s.endsWith(".")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  /** The one-line summary of a command: its description's first sentence. */
  static String summary(CommandSpec spec) {
    String[] description = spec.usageMessage().description();
    return description.length == 0 ? "" : firstSentence(description[0]);
  }

  private static String zshBracketed(String s) {
    return s.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]");
  }

  private static String zshMessage(String s) {
    return s.replace("\\", "\\\\").replace(":", "\\:");
  }

  private static String zshEscapeQuotes(String s) {
    return s.replace("'", "'\\''");
  }

  private static String zshQuote(String s) {
    return "'" + zshEscapeQuotes(s) + "'";
  }
}
