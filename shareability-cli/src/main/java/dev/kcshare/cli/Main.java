package dev.kcshare.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kcshare} front door. */
@Command(name = "kcshare", mixinStandardHelpOptions = true)
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }
}
