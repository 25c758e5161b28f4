package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** VS Code's envFile grammar, JavaScript number text, and each client's variable syntax. */
final class EnvFilesAndValuesTest {
  @Test
  void envFilesParseAsVsCodeParsesThem() {
    Map<String, String> vars =
        EnvFiles.parse(
            "\uFEFF# comment\n"
                + "A=1\r\n"
                + "export B = two words \n"
                + "C: colon\n"
                + "D=\"quoted # not a comment\\nnext\"\n"
                + "E='single' # comment\n"
                + "F=`back`\n"
                + "no separator\n"
                + "=nokey\n"
                + "A=later wins\n");
    assertThat(vars)
        .containsExactly(
            Map.entry("A", "later wins"),
            Map.entry("B", "two words"),
            Map.entry("C", "colon"),
            Map.entry("D", "quoted # not a comment\nnext"),
            Map.entry("E", "single"),
            Map.entry("F", "back"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "8080, 8080",
    "1.5, 1.5",
    "0.1, 0.1",
    "-0.0, 0",
    "1e21, 1e+21",
    "1e-7, 1e-7",
    "123456789012345678, 123456789012345680",
    "100, 100"
  })
  void numbersReadAsJavaScriptWritesThem(String json, String text) throws Exception {
    Number n = (Number) dev.kcshare.host.json.JsonReader.withDepthLimit(5).parse(json);
    assertThat(EntryParser.jsNumber(n)).isEqualTo(text);
  }

  private static Substitution sub(Substitution.Style style, Map<String, String> secrets) {
    return new Substitution(
        style,
        new Substitution.Values(
            Map.of("SET", "v", "HOME", "/h"), Path.of("/ws"), Path.of("/h"), "/", secrets));
  }

  @ParameterizedTest(name = "{0}: {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "GEMINI|$SET-${SET}-${NOPE:-d}-$NOPE|v-v-d-$NOPE",
        "ROO|${env:SET} ${env:NOPE} ${workspaceFolder}|v ${env:NOPE} /ws",
        "WINDSURF|${env:SET}/${env:NOPE}/${file:/x}|v//${file:/x}",
        "OPENCODE|{env:SET}/{env:NOPE}/{file:x}|v//{file:x}",
        "CONTINUE|${{ secrets.S }}/${{secrets.NOPE}}/${{ inputs.I }}|s/${{secrets.NOPE}}/${{ inputs.I }}",
        "CONTINUE_JSON|${S}/${NOPE}|s/${NOPE}",
        "NONE|${SET} $SET|${SET} $SET"
      })
  void eachClientsVariables(String style, String value, String expected) {
    Substitution s = sub(Substitution.Style.valueOf(style), Map.of("S", "s"));
    assertThat(s.apply(value, "/p")).isEqualTo(expected);
  }

  @Test
  void amazonQExpandsEnvReferencesInEnvAndTheShellInTheCommand() {
    Substitution s = sub(Substitution.Style.AMAZONQ, Map.of());
    assertThat(s.apply("env", "${env:SET}:${env:NOPE}", "/e")).isEqualTo("v:${NOPE}");
    assertThat(s.apply("command", "~/bin/$SET-${NOPE}", "/c")).isEqualTo("/h/bin/v-${NOPE}");
    assertThat(s.apply("args", "${env:SET} ~/x $SET", "/a")).isEqualTo("${env:SET} ~/x $SET");
    assertThat(s.drain())
        .extracting(Substitution.Found::reference)
        .containsExactly("${env:NOPE}", "${NOPE}");
  }
}
