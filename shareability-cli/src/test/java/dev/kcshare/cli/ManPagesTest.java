package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

final class ManPagesTest {
  private static final List<String> SECTIONS =
      List.of(
          "NAME",
          "SYNOPSIS",
          "DESCRIPTION",
          "OPTIONS",
          "EXIT STATUS",
          "ENVIRONMENT",
          "FILES",
          "EXAMPLES",
          "SEE ALSO");

  @TempDir static Path dir;
  private static List<Path> pages;

  @BeforeAll
  static void generate() throws IOException {
    pages = ManPages.generate(dir, "1.2.3", "2026-01-01");
  }

  @Test
  void onePagePerCommandWithEverySection() throws Exception {
    List<String> names = new ArrayList<>();
    for (Path p : pages) {
      names.add(p.getFileName().toString());
    }
    assertThat(names)
        .containsExactlyInAnyOrder(
            "kcshare.1",
            "kcshare-assess.1",
            "kcshare-measure.1",
            "kcshare-cost.1",
            "kcshare-preflight.1",
            "kcshare-preflight-compare.1",
            "kcshare-hazards.1",
            "kcshare-hazards-list.1",
            "kcshare-hazards-clear.1",
            "kcshare-records.1",
            "kcshare-identity.1",
            "kcshare-config.1",
            "kcshare-seed.1",
            "kcshare-stub.1",
            "kcshare-unstub.1",
            "kcshare-completion.1");
    for (Path p : pages) {
      String page = Files.readString(p);
      List<String> headings = new ArrayList<>();
      for (String line : page.split("\n")) {
        if (line.startsWith(".SH ")) {
          headings.add(line.substring(4));
        }
      }
      assertThat(headings).as(p.toString()).containsSubsequence(SECTIONS);
      assertThat(page).as(p.toString()).contains(".TH ").contains("\"kcshare 1.2.3\"");
    }
  }

  @Test
  void optionsAndSynopsisComeFromTheCommandDefinitions() throws Exception {
    String seed = Files.readString(dir.resolve("kcshare-seed.1"));
    assertThat(seed)
        .contains(".SY \"kcshare seed\"")
        .contains("\\%(\\fB\\-\\-plan\\fR \\%| \\%\\fB\\-\\-apply\\fR)")
        .contains(".TP\n\\fB\\%\\-\\-records\\-dir\\fR=\\fI\\%DIR\\fR\n");
    String assess = Files.readString(dir.resolve("kcshare-assess.1"));
    assertThat(assess)
        .contains("\\%[\\fISERVER\\fR...]")
        .contains(".TP\n\\fB\\%3\\fR\nassess \\-\\-fail\\-on matched a verdict.")
        .contains(".TP\n\\fB\\%NO_COLOR\\fR");
    // a hidden option stays out of the page
    assertThat(Files.readString(dir.resolve("kcshare-config.1"))).doesNotContain("\\-\\-names");
    String root = Files.readString(dir.resolve("kcshare.1"));
    assertThat(root).contains(".SH COMMANDS").contains("\\fB\\%kcshare\\-hazards\\fR(1)");
  }

  @Test
  void filesListWhatDiscoveryReadsAndTheRecordFiles() throws Exception {
    String assess = Files.readString(dir.resolve("kcshare-assess.1"));
    for (String file :
        List.of(
            "~/.kiro/crew/config.json",
            "~/.kiro/settings/mcp.json",
            ".kiro/settings/mcp.json",
            "~/.kiro/agents/*.json",
            "~/.config/Claude/claude_desktop_config.json",
            "~/.claude.json",
            ".mcp.json",
            "~/.cursor/mcp.json",
            ".cursor/mcp.json",
            ".vscode/mcp.json",
            "~/.kiro/crew/mcp\\-gateway/",
            "observed\\-hazards.json",
            "shareability\\-verdicts.json.lock")) {
      assertThat(assess).as(file).contains("\\fI\\%" + file + "\\fR");
    }
    assertThat(Files.readString(dir.resolve("kcshare-stub.1"))).contains("config.json.bak");
    assertThat(Files.readString(dir.resolve("kcshare-completion.1")))
        .doesNotContain("observed\\-hazards.json")
        .doesNotContain(".mcp.json");
  }

  @Test
  void everyCommandHasASummaryAndNoStaleOnes() {
    CommandLine root = Main.commandLine(context());
    Set<String> paths = new TreeSet<>();
    for (CommandSpec spec : CompletionScripts.commands(root)) {
      if (!(spec.userObject() instanceof CommandLine.HelpCommand)) {
        paths.add(CompletionScripts.path(spec));
      }
    }
    assertThat(new TreeSet<>(ManPages.SUMMARIES.keySet())).isEqualTo(paths);
    assertThat(paths).containsAll(ManPages.EXAMPLES.keySet());
  }

  @Test
  void anExampleThatNoLongerParsesFailsTheBuild() {
    ManPages.requireParses("assess --all --json");
    assertThatThrownBy(() -> ManPages.requireParses("assess --everything"))
        .hasMessageContaining("kcshare assess --everything");
  }

  /**
   * Every environment variable the code or the launcher reads is in ENVIRONMENT (or explicitly left
   * out), and every documented one is still read somewhere.
   */
  @Test
  void environmentListsEveryVariableTheCodeReads() throws IOException {
    Set<String> read = new TreeSet<>();
    Pattern java =
        Pattern.compile(
            "(?:getenv|env\\(\\)\\.get|env\\.get|getOrDefault|environment\\.get)\\(\"([A-Z][A-Z0-9_]*)\"");
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = java.matcher(Files.readString(f));
        while (m.find()) {
          read.add(m.group(1));
        }
      }
    }
    String launcher = Files.readString(Path.of("src/main/sh/kcshare"));
    Matcher m = Pattern.compile("\\$\\{?([A-Z][A-Z0-9_]*)").matcher(launcher);
    while (m.find()) {
      read.add(m.group(1));
    }
    assertThat(read).contains("KCSHARE_RECORDS_DIR", "JAVA_HOME", "XDG_CACHE_HOME");
    Set<String> documented = new TreeSet<>();
    for (ManPages.Variable v : ManPages.ENVIRONMENT) {
      documented.add(v.name());
    }
    Set<String> expected = new TreeSet<>(read);
    expected.removeAll(ManPages.UNDOCUMENTED_VARIABLES.keySet());
    assertThat(documented).isEqualTo(expected);
  }

  @Test
  void textIsEscapedForTroff() {
    assertThat(ManPages.text(".starts with a dot")).isEqualTo("\\&.starts with a dot");
    assertThat(ManPages.text("a-b 'c' \\u0000 \u2014"))
        .isEqualTo("a\\-b \\(aqc\\(aq \\eu0000 \\[u2014]");
    assertThat(ManPages.text("\\fB\\-\\-x\\fR")).isEqualTo("\\fB\\-\\-x\\fR");
  }

  /** groff renders every page without a warning ({@code -ww}); under CI=true groff must exist. */
  @Test
  void everyPageRendersWithoutWarnings() throws Exception {
    requireGroff();
    for (Path page : pages) {
      Process p =
          new ProcessBuilder("groff", "-man", "-Tutf8", "-ww", "-z", page.toString())
              .redirectErrorStream(true)
              .start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(page + ": " + output).isZero();
      assertThat(output).as(page.toString()).isEmpty();
    }
  }

  /**
   * Rendered at 80 columns, a SYNOPSIS line never ends inside an option: every bracket opened on a
   * line closes on it, and no line ends with a hyphen or an equals sign.
   */
  @Test
  void theSynopsisNeverBreaksInsideAnOption() throws Exception {
    requireGroff();
    for (Path page : pages) {
      Process p =
          new ProcessBuilder("groff", "-man", "-Tutf8", "-rLL=80n", "-P-cbou", page.toString())
              .redirectErrorStream(true)
              .start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      int start = output.indexOf("\nSYNOPSIS\n");
      assertThat(start).as(page.toString()).isNotNegative();
      int end = output.indexOf("\n\n", start + "\nSYNOPSIS\n".length());
      for (String line : output.substring(start + 1, end).split("\n")) {
        String text = line.strip();
        long open = text.chars().filter(c -> c == '[').count();
        long close = text.chars().filter(c -> c == ']').count();
        assertThat(open).as("%s: %s", page.getFileName(), text).isEqualTo(close);
        assertThat(text).as("%s", page.getFileName()).doesNotMatch(".*[\u2010=-]$");
      }
    }
  }

  /** Skips without groff, except under CI=true, where it fails (.ci/run installs it). */
  private static void requireGroff() {
    boolean groff = available("groff", "--version");
    if (!groff && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("groff is not installed (.ci/run installs it)");
    }
    assumeTrue(groff, "groff is not installed");
  }

  static boolean available(String... command) {
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static CliContext context() {
    return new CliContext(
        new ByteArrayInputStream(new byte[0]),
        new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()),
        Map.of(),
        Path.of("").toAbsolutePath());
  }
}
