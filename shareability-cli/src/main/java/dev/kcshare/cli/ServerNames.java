package dev.kcshare.cli;

import java.util.ArrayList;

/**
 * Marks a positional parameter that names configured servers ({@code completionCandidates =
 * ServerNames.class}). It holds no names: the names depend on the host's configuration, so the
 * completion scripts ({@link CompletionScripts}) ask {@code kcshare config --names} for them when
 * the user presses TAB, with the {@code --config}, {@code --discover} and {@code --profile} options
 * already typed.
 */
final class ServerNames extends ArrayList<String> {
  private static final long serialVersionUID = 1L;

  ServerNames() {
    super(0);
  }
}
