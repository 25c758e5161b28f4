package dev.kcshare.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdentityKeysTest {

  @Test
  void nonArrayValuesResolveToNothing() {
    assertThat(IdentityKeys.resolve(null)).isEmpty();
    assertThat(IdentityKeys.resolve("OAUTH_TOKEN")).isEmpty();
    assertThat(IdentityKeys.resolve(Map.of("OAUTH_TOKEN", true))).isEmpty();
    assertThat(IdentityKeys.resolve(1L)).isEmpty();
  }

  @Test
  void trimsDropsNonStringsAndBlanksAndSortsByCodePoint() {
    List<Object> raw =
        Arrays.asList(
            " OAUTH_TOKEN ", 7L, null, true, "", "   ", "\t\n", List.of("X"), "b_key", "A_KEY");
    assertThat(IdentityKeys.resolve(raw)).containsExactly("A_KEY", "OAUTH_TOKEN", "b_key");
  }

  @Test
  void trimsWhatPythonStripTrims() {
    // U+00A0 and U+0085 count as space for str.strip() but not for Character.isWhitespace.
    assertThat(IdentityKeys.resolve(List.of("\u00a0OAUTH_A\u0085", "\u3000OAUTH_B\u2007")))
        .containsExactly("OAUTH_A", "OAUTH_B");
    // NUL is not whitespace for Python: it stays (String.trim would have removed it).
    assertThat(IdentityKeys.resolve(List.of("\u0000OAUTH_C"))).containsExactly("\u0000OAUTH_C");
  }

  @Test
  void removesCredentialScrubNamesCaseSensitively() {
    List<String> raw =
        List.of(
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "SSH_AUTH_SOCK",
            "GNUPGHOME",
            "GIT_ASKPASS",
            " AWS_SECRET_X",
            "aws_secret_access_key",
            "OAUTH_TOKEN");
    assertThat(IdentityKeys.resolve(raw)).containsExactly("OAUTH_TOKEN", "aws_secret_access_key");
  }

  @Test
  void duplicatesCollapseAndTheResultIsUnmodifiable() {
    var keys = IdentityKeys.resolve(List.of("OAUTH_B", " OAUTH_B", "OAUTH_A"));
    assertThat(keys).containsExactly("OAUTH_A", "OAUTH_B");
    assertThatThrownBy(() -> keys.add("X")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void resolvedKeysExemptInAssess() {
    Evidence evidence = Evidence.builder().declaredEnvNames(List.of("OAUTH_TOKEN")).build();
    var keys = IdentityKeys.resolve(List.of(" OAUTH_TOKEN\n"));
    assertThat(Assessor.assess(evidence, keys).codes()).containsExactly(ReasonCode.NOT_PROBED);
  }
}
