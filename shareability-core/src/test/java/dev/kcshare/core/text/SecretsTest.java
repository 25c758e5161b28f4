package dev.kcshare.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every case of the masking rule (docs/config.md#what-kcshare-masks), and its near misses. */
final class SecretsTest {

  /** Arguments (space-separated) as {@code config} shows them. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // the value after a secret-looking option, both forms, any case, one or two dashes
        "--api-key ctx7sk-abc | --api-key ***",
        "--api-key=ctx7sk-abc | --api-key=***",
        "--token=t | --token=***",
        "--TOKEN x | --TOKEN ***",
        "-api-key v | -api-key ***",
        "--password p | --password ***",
        "--passwd p | --passwd ***",
        "--client-secret s | --client-secret ***",
        "--auth a | --auth ***",
        "--authorization=Bearer-x | --authorization=***",
        "--credentials-file /c.json | --credentials-file ***",
        "--cookie c | --cookie ***",
        "--key k | --key ***",
        "--signature s | --signature ***",
        "--sig s | --sig ***",
        // contains a secret word: masked too (a false positive is preferred to a leak)
        "--keyboard us | --keyboard ***",
        "--author me | --author ***",
        // single-letter options are never masked
        "-k value | -k value",
        "-k=value | -k=value",
        "-t tok | -t tok",
        // the next argument is not a value when it is another long option
        "--auth --stdio | --auth --stdio",
        "--token --api-key k | --token --api-key ***",
        "--token | --token",
        // options that are not secret-looking
        "--port 8080 | --port 8080",
        "--name=files | --name=files",
        "-y @upstash/context7-mcp | -y @upstash/context7-mcp",
        // NAME=value with a secret-looking NAME or a secret prefix (ignoring case)
        "API_KEY=abc | API_KEY=***",
        "GITHUB_TOKEN=ghp_x | GITHUB_TOKEN=***",
        "key=v | key=***",
        "AWS_SESSION_ID=abc | AWS_SESSION_ID=***",
        "aws_access_id=abc | aws_access_id=***",
        "OAuthClient=abc | OAuthClient=***",
        "GNUPGHOME=/g | GNUPGHOME=***",
        "MODE=fast | MODE=fast",
        "a/b=c | a/b=c",
        // URL userinfo (user alone too) and secret query or fragment parameters
        "https://alice:pw@host/mcp?api_key=v1&mode=x | https://***@host/mcp?api_key=***&mode=x",
        "https://ghp_tok@github.com/o/r.git | https://***@github.com/o/r.git",
        "https://host/cb#access_token=abc&state=1 | https://host/cb#access_token=***&state=1",
        "https://acct.blob/c?sv=1&sig=abc | https://acct.blob/c?sv=1&sig=***",
        "https://h/o?X-Amz-Signature=a&X-Amz-Credential=b&x=1"
            + " | https://h/o?X-Amz-Signature=***&X-Amz-Credential=***&x=1",
        "--url=https://u:p@h/ | --url=https://***@h/",
        "https://host:8080/mcp?page=2 | https://host:8080/mcp?page=2",
        "https://host/a@b | https://host/a@b",
      })
  void maskArgs(String args, String shown) {
    List<String> list = Arrays.asList(args.split(" "));
    assertThat(String.join(" ", Secrets.NONE.maskArgs(list))).isEqualTo(shown);
  }

  /** Free text (stderr tails, details) of a server with the definition below. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // every declared env value of 4 characters or more, anywhere
        "bad key sk-live-abcdef123456 | bad key ***",
        "xsk-live-abcdef123456x | x***x",
        "abcd and xyz | *** and xyz",
        // overlapping values mask as one run
        "[abcdefgh] | [***]",
        // values from secret arguments and the URL
        "echo ctx7sk-0123 back | echo *** back",
        "auth failed for alice: wrong pw-4242 | auth failed for ***: wrong ***",
        "q url-5555 | q ***",
        // the patterns, for secrets kcshare was not told about
        "token=zzz in text | token=*** in text",
        "GITHUB_TOKEN=ghp_1,next | GITHUB_TOKEN=***,next",
        "--password=zzz | --password=***",
        "--port=8080 mode=x | --port=8080 mode=x",
        "see https://u:p@h/?token=q&a=1 now | see https://***@h/?token=***&a=1 now",
        // near misses: short values, other names
        "xyz 1 mode | xyz 1 mode",
        "no response (process exited with status 1) | no response (process exited with status 1)",
      })
  void mask(String text, String shown) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("API_KEY", "sk-live-abcdef123456");
    env.put("FOUR", "abcd");
    env.put("SHORT", "xyz");
    env.put("DEBUG", "1");
    env.put("A", "abcdef");
    env.put("B", "cdefgh");
    Secrets secrets =
        Secrets.of(
            env,
            List.of("--api-key", "ctx7sk-0123", "https://alice:pw-4242@h/?api_key=url-5555"),
            null);
    assertThat(secrets.mask(text)).isEqualTo(shown);
  }

  @Test
  void theDefinitionsUrlIsMaskedAndItsSecretsAreKnownValues() {
    Secrets secrets =
        Secrets.of(Map.of(), List.of(), "https://bob:remote-pw-7777@h/mcp?token=remote-tok-8888");
    assertThat(secrets.maskUrl("https://bob:remote-pw-7777@h/mcp?token=remote-tok-8888"))
        .isEqualTo("https://***@h/mcp?token=***");
    assertThat(secrets.mask("connect remote-tok-8888 as remote-pw-7777"))
        .isEqualTo("connect *** as ***");
    assertThat(secrets.maskUrl(null)).isNull();
  }

  @Test
  void headerValuesAndWellKnownTokenShapesAreMaskedWithoutBeingDeclared() {
    String jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N";
    List<String> args =
        List.of(
            "mcp-remote",
            "https://h/mcp",
            "--header",
            "Authorization: Bearer abcdef123456",
            "-H",
            "X-Api-Key: k-998877",
            "AKIAIOSFODNN7EXAMPLE",
            "ghp_" + "a".repeat(36),
            "github_pat_" + "b".repeat(82),
            "xoxb-1234567890-1234567890-abcdef",
            "glpat-" + "c".repeat(20),
            jwt);
    assertThat(Secrets.NONE.maskArgs(args))
        .containsExactly(
            "mcp-remote",
            "https://h/mcp",
            "--header",
            "Authorization: Bearer ***",
            "-H",
            "X-Api-Key: ***",
            "***",
            "***",
            "***",
            "***",
            "***",
            "***");
    assertThat(
            Secrets.NONE.mask(
                "401 for Authorization: Basic dXNlcjpwYXNz; key AKIAIOSFODNN7EXAMPLE, jwt " + jwt))
        .isEqualTo("401 for Authorization: Basic ***; key ***, jwt ***");
    assertThat(
            Secrets.NONE.mask(
                "x -----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY----- y"))
        .isEqualTo("x *** y");
    // Ordinary text, ports and URLs are left as they are.
    assertThat(Secrets.NONE.mask("Error: listening on localhost:8080 see https://h/p"))
        .isEqualTo("Error: listening on localhost:8080 see https://h/p");
  }

  @Test
  void anAddedValueIsMaskedLikeADeclaredOne() {
    Secrets secrets =
        Secrets.of(Map.of("K", "sk-live-1234"), List.of(), null)
            .with("0123456789abcdef0123456789abcdef");
    assertThat(secrets.mask("token 0123456789abcdef0123456789abcdef key sk-live-1234"))
        .isEqualTo("token *** key ***");
    assertThat(Secrets.NONE.with("abc").mask("abc")).isEqualTo("abc");
  }

  @Test
  void argumentsCarryingDeclaredValuesAreMaskedInside() {
    Secrets secrets = Secrets.of(Map.of("TOKEN", "sk-live-1234"), List.of(), null);
    assertThat(secrets.maskArgs(List.of("--header", "Authorization: Bearer sk-live-1234")))
        .containsExactly("--header", "Authorization: Bearer ***");
  }

  @ParameterizedTest
  @CsvSource({
    "key, true",
    "API_KEY, true",
    "x-auth-token, true",
    "Cookie, true",
    "sig, true",
    "SIG, true",
    "signal, false",
    "port, false",
    "mode, false",
    "pass, false",
  })
  void isSecretName(String name, boolean secret) {
    assertThat(Secrets.isSecretName(name)).isEqualTo(secret);
  }
}
