package dev.kcshare.cli;

import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code kcshare completion}: prints a shell completion script. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {
      "Prints a completion script for bash or zsh, generated from kcshare's own command"
          + " definitions (so it always matches this version).",
      "bash: source <(kcshare completion bash), or save it as"
          + " /etc/bash_completion.d/kcshare (or ~/.local/share/bash-completion/completions/kcshare).",
      "zsh: source <(kcshare completion zsh) in ~/.zshrc (it runs through zsh's bashcompinit).",
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
    String bash = AutoComplete.bash("kcshare", root);
    if (shell == Shell.BASH) {
      return bash;
    }
    // picocli's script is a bash completion function. Under zsh it initialises compinit (only
    // if it is not already) and bashcompinit itself, so zsh needs no more than this comment.
    return "# kcshare completion for zsh. Add to ~/.zshrc:\n"
        + "#   source <(kcshare completion zsh)\n"
        + "# The bash completion function below runs through zsh's bashcompinit, which it\n"
        + "# enables itself when it sees $ZSH_VERSION.\n"
        + bash;
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
