package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

final class CompletionCommandTest {
  @TempDir Path dir;

  @Test
  void bashScriptCoversEveryCommandAndOption() {
    CliRun r = CliRun.run(dir, "completion", "bash");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.stdout())
        .startsWith("# bash completion for kcshare")
        .endsWith("complete -F _kcshare kcshare\n")
        .contains(
            "\"\") REPLY=\" assess measure cost preflight hazards records identity config seed"
                + " stub unstub completion help \"")
        .contains("\"hazards\") REPLY=\" list clear \"")
        .contains("\"stub --config\") _kcshare_files")
        .contains("\"preflight --capture\") _kcshare_directories")
        .contains("--resolve-eligibility")
        .containsPattern("\"config\"\\) REPLY=\"--config --discover --profile --json ")
        .doesNotContainPattern("REPLY=\".*--names");
  }

  @Test
  void zshScriptIsACompletionFunction() {
    CliRun r = CliRun.run(dir, "completion", "ZSH");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .startsWith("#compdef kcshare\n")
        .contains("_kcshare__hazards_clear() {")
        .contains("'1:SERVER:_kcshare_servers'")
        .contains("'*:SERVER:_kcshare_servers'")
        .contains("'(--plan --apply)--plan[Print the plan; write nothing]'")
        .contains("'*--config=[An MCP configuration file to read (repeatable)]:FILE:_files'")
        .doesNotContain("'--names");
  }

  @Test
  void theScriptsAreValidShell() throws Exception {
    Path bash = dir.resolve("kcshare.bash");
    Files.writeString(bash, CliRun.run(dir, "completion", "bash").stdout());
    assertThat(shell(List.of("bash", "-n", bash.toString()), Map.of()).exitCode).isZero();
    if (tool("zsh")) {
      Path zsh = dir.resolve("_kcshare");
      Files.writeString(zsh, CliRun.run(dir, "completion", "zsh").stdout());
      assertThat(shell(List.of("zsh", "-n", zsh.toString()), Map.of()).exitCode).isZero();
    } else {
      assumeTrue(!"true".equals(System.getenv("CI")), "zsh is required under CI");
    }
  }

  /**
   * Server names come from the kcshare being completed, asked with the configuration options
   * already on the line; its standard error never reaches the completion.
   */
  @Test
  void bashAsksTheCompletedKcshareForServerNames() throws Exception {
    Path bash = dir.resolve("kcshare.bash");
    Files.writeString(bash, CliRun.run(dir, "completion", "bash").stdout());
    Path args = dir.resolve("args.txt");
    Path fake = dir.resolve("kcshare");
    Files.writeString(
        fake,
        "#!/bin/sh\nprintf '%s\\n' \"$@\" >\""
            + args
            + "\"\necho oops >&2\nprintf 'notes\\nnotary\\nsearch\\n'\n");
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));

    Run r = complete(bash, fake.toString(), "-v", "stub", "--config", "a.json", "--discover", "no");
    assertThat(r.stdout.lines()).containsExactly("notes", "notary");
    assertThat(Files.readAllLines(args))
        .containsExactly("config", "--names", "--config", "a.json", "--discover");

    r = complete(bash, fake.toString(), "hazards", "clear", "--profile=kirocrew", "");
    assertThat(r.stdout.lines()).containsExactly("notes", "notary", "search");
    assertThat(Files.readAllLines(args)).containsExactly("config", "--names", "--profile=kirocrew");

    // an option's value is not a server name, and a command's second word is not either
    Files.delete(args);
    r = complete(bash, fake.toString(), "assess", "--fail-on", "");
    assertThat(r.stdout).isEmpty();
    r = complete(bash, fake.toString(), "hazards", "clear", "notes", "");
    assertThat(r.stdout).isEmpty();
    assertThat(args).doesNotExist();
    r = complete(bash, fake.toString(), "completion", "");
    assertThat(r.stdout.lines()).containsExactly("bash", "zsh");
    r = complete(bash, fake.toString(), "assess", "--js");
    assertThat(r.stdout.lines()).containsExactly("--json");
  }

  /**
   * Every parameter label that takes a value is either a path (and completes files) or known to
   * take something else, so a new path option cannot miss its file completion.
   */
  @Test
  void everyValueLabelIsClassified() {
    Set<String> others = Set.of("N", "SECONDS", "P", "STRENGTH", "C", "A", "K=V", "K", "COMMAND");
    Set<String> unclassified = new TreeSet<>();
    CommandLine root = Main.commandLine(CliRun.context(dir));
    for (CommandSpec spec : CompletionScripts.commands(root)) {
      List<ArgSpec> args = new ArrayList<>(CompletionScripts.visibleOptions(spec));
      args.addAll(CompletionScripts.visiblePositionals(spec));
      for (ArgSpec a : args) {
        boolean takesValue = a.arity().max() > 0;
        if (takesValue && CompletionScripts.kindOf(a) == CompletionScripts.Kind.NONE) {
          if (!others.contains(a.paramLabel())) {
            unclassified.add(a.paramLabel());
          }
        }
      }
    }
    assertThat(unclassified).isEmpty();
  }

  @Test
  void configNamesPrintsOnlyTheNames() throws Exception {
    Path config = dir.resolve("mcp.json");
    Files.writeString(
        config,
        "{\"mcpServers\": {\"notes\": {\"command\": \"node\"}, \"two words\": {\"command\": \"x\"},"
            + " \"search\": {\"url\": \"https://example.invalid\"}}}");
    CliRun r = CliRun.run(dir, "config", "--names", "--config", config.toString());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEqualTo("notes\nsearch\n");
    CliRun missing = CliRun.run(dir, "config", "--names", "--config", "nope.json");
    assertThat(missing.stdout()).isEmpty();
    assertThat(CliRun.run(dir, "config", "--help").stdout()).doesNotContain("--names");
  }

  @Test
  void anotherShellIsAUsageError() {
    CliRun r = CliRun.run(dir, "completion", "fish");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).contains("expected bash or zsh");
  }

  private record Run(int exitCode, String stdout) {}

  private Run complete(Path script, String... words) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                "bash",
                "-c",
                "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1"
                    + " )); _kcshare; printf '%s\\n' \"${COMPREPLY[@]}\" | sed '/^$/d'",
                "bash",
                script.toString()));
    command.addAll(List.of(words));
    return shell(command, Map.of());
  }

  private Run shell(List<String> command, Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().putAll(env);
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out);
  }

  private static boolean tool(String name) {
    try {
      Process p =
          new ProcessBuilder(name, "--version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (java.io.IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
