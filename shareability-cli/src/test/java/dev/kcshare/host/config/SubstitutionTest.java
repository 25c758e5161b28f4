package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.api.UnresolvedVariable.Reason;
import dev.kcshare.host.config.Substitution.Found;
import dev.kcshare.host.config.Substitution.Style;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SubstitutionTest {
  private static final Substitution.Values VALUES =
      new Substitution.Values(
          Map.of("SET", "v", "EMPTY", ""), Path.of("/w/proj"), Path.of("/h/op"), "/");

  private static Substitution of(Style style) {
    return new Substitution(style, VALUES);
  }

  @Test
  void editorVariables() {
    Substitution s = of(Style.EDITOR_WITH_INPUTS);
    assertThat(s.apply("${workspaceFolder}/a${/}b", "/p")).isEqualTo("/w/proj/a/b");
    assertThat(s.apply("${userHome}:${workspaceFolderBasename}${pathSeparator}", "/p"))
        .isEqualTo("/h/op:proj/");
    assertThat(s.apply("x=${env:SET}|${env:EMPTY}|", "/p")).isEqualTo("x=v||");
    assertThat(s.drain()).isEmpty();
  }

  @Test
  void editorUnsetEnvBecomesEmptyAndIsReported() {
    Substitution s = of(Style.EDITOR);
    assertThat(s.apply("a${env:NOPE}b", "/e/X")).isEqualTo("ab");
    assertThat(s.drain()).containsExactly(new Found("/e/X", "${env:NOPE}", Reason.UNSET));
  }

  @Test
  void inputsAndUnknownVariablesStayAsWritten() {
    Substitution vscode = of(Style.EDITOR_WITH_INPUTS);
    assertThat(vscode.apply("Bearer ${input:tok} ${command:pick} ${workspaceFolder:other}", "/p"))
        .isEqualTo("Bearer ${input:tok} ${command:pick} ${workspaceFolder:other}");
    assertThat(vscode.drain())
        .containsExactly(
            new Found("/p", "${input:tok}", Reason.INPUT),
            new Found("/p", "${command:pick}", Reason.UNSUPPORTED),
            new Found("/p", "${workspaceFolder:other}", Reason.UNSUPPORTED));
    Substitution cursor = of(Style.EDITOR);
    assertThat(cursor.apply("${input:tok}", "/p")).isEqualTo("${input:tok}");
    assertThat(cursor.drain()).containsExactly(new Found("/p", "${input:tok}", Reason.UNSUPPORTED));
  }

  @Test
  void shellVariablesWithDefaults() {
    Substitution s = of(Style.SHELL);
    assertThat(s.apply("${SET}-${EMPTY}-${NOPE:-dflt}-${SET:-dflt}-${NOPE:-}", "/p"))
        .isEqualTo("v--dflt-v-");
    assertThat(s.drain()).isEmpty();
    assertThat(s.apply("$SET ${NOPE} ${}", "/q")).isEqualTo("$SET ${NOPE} ${}");
    assertThat(s.drain()).containsExactly(new Found("/q", "${NOPE}", Reason.UNSET));
  }

  @Test
  void unclosedReferencesAndNoneStyleAreLiteral() {
    assertThat(of(Style.EDITOR).apply("a ${env:SET", "/p")).isEqualTo("a ${env:SET");
    Substitution none = of(Style.NONE);
    assertThat(none.apply("${env:SET} ${SET}", "/p")).isEqualTo("${env:SET} ${SET}");
    assertThat(none.drain()).isEmpty();
  }

  @Test
  void windowsPathSeparator() {
    Substitution s =
        new Substitution(
            Style.EDITOR, new Substitution.Values(Map.of(), Path.of("/w"), Path.of("/h"), "\\"));
    assertThat(s.apply("a${/}b${pathSeparator}c", "/p")).isEqualTo("a\\b\\c");
  }
}
