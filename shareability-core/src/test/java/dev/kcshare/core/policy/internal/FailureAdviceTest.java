package dev.kcshare.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.policy.internal.FailureAdvice.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class FailureAdviceTest {
  private static FailureAdvice noResponse(String stderrTail) {
    return FailureAdvice.of("no response (process exited with status 1)", "exit 1", stderrTail);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "\\x1b[31mfixture: BRAVE_API_KEY is not set\\x1b[0m\\n | BRAVE_API_KEY",
        "Error: GITHUB_PERSONAL_ACCESS_TOKEN is required | GITHUB_PERSONAL_ACCESS_TOKEN",
        "Error: BRAVE_API_KEY environment variable is required\\n | BRAVE_API_KEY",
        "Missing environment variable: NOTION_TOKEN | NOTION_TOKEN",
        "missing required env var `FIRECRAWL_API_KEY` | FIRECRAWL_API_KEY",
        "The MONGODB_URI environment variable must be provided | MONGODB_URI",
        "Please set CONTEXT7_API_KEY before starting | CONTEXT7_API_KEY",
        "error: \"SLACK_BOT_TOKEN\" was undefined | SLACK_BOT_TOKEN",
        "xxxx\\nfixture: FIXTURE_TOKEN is not set\\n | FIXTURE_TOKEN",
      })
  void aNamedVariableIsFoundInTheStderrTail(String tail, String variable) {
    FailureAdvice advice = noResponse(tail.strip());
    assertThat(advice.kind()).isEqualTo(Kind.SET_VARIABLE);
    assertThat(advice.subject()).isEqualTo(variable);
    assertThat(advice.text("brave"))
        .contains("set the environment variable " + variable)
        .contains("`kcshare measure brave`");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "Error: missing env configuration",
        "an environment variable for the API key is needed",
        "apiKey is required",
      })
  void anUnnamedMissingSettingStillAdvisesSettingAVariable(String tail) {
    FailureAdvice advice = noResponse(tail);
    assertThat(advice.kind()).isEqualTo(Kind.SET_VARIABLE);
    assertThat(advice.subject()).isEmpty();
    assertThat(advice.text("x")).contains("the environment variable its stderr asks for");
  }

  @Test
  void aMissingCommandAdvisesInstallingIt() {
    FailureAdvice direct = FailureAdvice.of("command not found: uvx", null, "");
    assertThat(direct).isEqualTo(new FailureAdvice(Kind.INSTALL_COMMAND, "uvx"));
    assertThat(direct.text("s")).contains("install `uvx`").contains("PATH");

    assertThat(noResponse("sh: 1: mcp-server-git: not found\\n"))
        .isEqualTo(new FailureAdvice(Kind.INSTALL_COMMAND, "mcp-server-git"));
    assertThat(noResponse("Error: spawn docker ENOENT"))
        .isEqualTo(new FailureAdvice(Kind.INSTALL_COMMAND, "docker"));
    assertThat(noResponse("bash: uv: command not found"))
        .isEqualTo(new FailureAdvice(Kind.INSTALL_COMMAND, "uv"));
    FailureAdvice exit127 =
        FailureAdvice.of("no response (process exited with status 127)", "exit 127", "");
    assertThat(exit127).isEqualTo(new FailureAdvice(Kind.INSTALL_COMMAND, ""));
    assertThat(exit127.text("s")).contains("install the command it runs");
  }

  @Test
  void detailsThatSpeakForThemselves() {
    assertThat(FailureAdvice.of("timeout", "exit 0", "").kind()).isEqualTo(Kind.RAISE_TIMEOUT);
    assertThat(FailureAdvice.of("timeout", null, "").text("slow"))
        .contains("`kcshare measure slow --timeout 60`");
    assertThat(FailureAdvice.of("disabled", null, "").kind()).isEqualTo(Kind.ENABLE);
    assertThat(FailureAdvice.of("disabled", null, "").text("off")).contains("enable it");
    assertThat(FailureAdvice.of("no command", null, "").kind()).isEqualTo(Kind.ADD_COMMAND);
    assertThat(FailureAdvice.of("spawn failed: Permission denied", null, ""))
        .isEqualTo(new FailureAdvice(Kind.FIX_SPAWN, "Permission denied"));
  }

  @Test
  void anUnexplainedExitPointsAtTheStderrAndAnythingElseAtThePreflight() {
    assertThat(noResponse("Segmentation fault").kind()).isEqualTo(Kind.READ_STDERR);
    assertThat(
            FailureAdvice.of(
                    "tools/list: no response after a successful initialize", null, "x: crashed")
                .kind())
        .isEqualTo(Kind.READ_STDERR);
    // Nothing on stderr: the advice does not point at a stderr that was never shown.
    FailureAdvice silent =
        FailureAdvice.of("no response (process exited with status 1)", "exit 1", "");
    assertThat(silent.kind()).isEqualTo(Kind.RUN_BY_HAND);
    assertThat(silent.text("s"))
        .doesNotContain("stderr above")
        .contains("wrote nothing on stderr")
        .contains("run its command by hand");
    assertThat(FailureAdvice.of("tools/list: too many pages", null, "").kind())
        .isEqualTo(Kind.RUN_PREFLIGHT);
    assertThat(FailureAdvice.of("probe_error", null, "").text("p"))
        .isEqualTo("run `kcshare preflight p` to see what each identity received");
  }

  @Test
  void textEscapesTheServerNameAndSubject() {
    String text = FailureAdvice.of("command not found: evil\u001b[2J", null, "").text("n\nx");
    assertThat(text).doesNotContain("\u001b").doesNotContain("\n").contains("n\\nx");
  }
}
