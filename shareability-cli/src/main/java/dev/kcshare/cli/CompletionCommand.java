package dev.kcshare.cli;

import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code kcshare completion}: prints a shell completion script. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {
      "Prints a completion script for bash or zsh, generated from kcshare's own command"
          + " definitions (so it always matches this version). Server names complete from the"
          + " configuration kcshare reads, with the --config, --discover and --profile options"
          + " already typed.",
      "The packages install both scripts. By hand, bash: save it as"
          + " ~/.local/share/bash-completion/completions/kcshare, or source <(kcshare completion"
          + " bash) in ~/.bashrc; zsh: save it as _kcshare in a directory of $fpath, or source"
          + " <(kcshare completion zsh) in ~/.zshrc after compinit.",
      ""
    })
final class CompletionCommand implements Callable<Integer> {
  /** The shells a script can be printed for. */
  enum Shell {
    BASH,
    ZSH
  }

  private final CliContext ctx;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "1",
      paramLabel = "SHELL",
      description = "bash or zsh.",
      converter = ShellConverter.class,
      completionCandidates = ShellNames.class)
  Shell shell;

  CompletionCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    ctx.out().print(script(spec.root().commandLine(), shell));
    ctx.out().flush();
    return Main.EXIT_OK;
  }

  /** The completion script for the command tree rooted at {@code root}. */
  static String script(CommandLine root, Shell shell) {
    return shell == Shell.BASH ? CompletionScripts.bash(root) : CompletionScripts.zsh(root);
  }

  /** Accepts the shell name case-insensitively. */
  static final class ShellConverter implements CommandLine.ITypeConverter<Shell> {
    @Override
    public Shell convert(String value) {
      try {
        return Shell.valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException("expected bash or zsh, got '" + value + "'");
      }
    }
  }

  /** The shell names, for completing {@code kcshare completion <TAB>}. */
  static final class ShellNames extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    ShellNames() {
      super(java.util.List.of("bash", "zsh"));
    }
  }
}
