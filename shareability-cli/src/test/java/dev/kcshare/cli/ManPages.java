package dev.kcshare.cli;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Generates the AsciiDoc man pages ({@code kcshare.adoc}, {@code kcshare-seed.adoc}, ...) from the
 * command definitions, at build time ({@code package} phase, {@code exec:java} in the CLI pom). It
 * lives in the test tree so picocli-codegen never reaches the runtime jar; it builds the command
 * tree through {@link Main#commandLine}, because the commands take a {@link CliContext} and the
 * generator's own entry point could not construct them.
 */
public final class ManPages {
  private ManPages() {}

  /**
   * Writes one page per command into the directory.
   *
   * @param args the output directory
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ManPages OUTPUT_DIRECTORY");
    }
    int code = generate(Path.of(args[0]));
    if (code != 0) {
      throw new IllegalStateException("man page generation failed with exit code " + code);
    }
  }

  /** Writes the pages; returns the generator's exit code. */
  static int generate(Path dir) throws IOException {
    CliContext ctx =
        new CliContext(
            new ByteArrayInputStream(new byte[0]),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()),
            Map.of(),
            dir);
    CommandLine root = Main.commandLine(ctx);
    return ManPageGenerator.generateManPage(
        dir.toFile(), (File) null, new boolean[0], true, root.getCommandSpec());
  }
}
