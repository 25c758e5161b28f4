package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.host.json.JsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code kcshare identity} against the identity test vectors
 * (docs/design.md#identity-test-vectors).
 */
final class IdentityCommandTest {
  private static final String EMPTY_ENV =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  @TempDir Path dir;

  private Map<?, ?> identity(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("identity", "--json"));
    all.addAll(List.of(args));
    CliRun r = CliRun.run(dir, "", Map.of("PATH", "/usr/bin:/bin"), all.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    return (Map<?, ?>) JsonReader.withDepthLimit(100).parse(r.stdout());
  }

  static List<Arguments> commandVectors() {
    return List.of(
        Arguments.of(
            List.of("--command", "/bin/true"),
            "9e44697a1718b7986fd04a1af01205543efa0e1988c32ba2131bb27a69398251"),
        Arguments.of(
            List.of("--command", "/bin/a", "--arg=--x"),
            "e2a474eb0384ddf6a5751f9e292f24a33c54a29f7de265f8379858ae49713bd6"),
        Arguments.of(
            List.of("--command", "/bin/a"),
            "29c8d349df795d3fea71c9402933547b7c9d6e80b0e7d5b4adf7645fdc73bd83"),
        Arguments.of(
            List.of("--command", "/bin/b"),
            "29cbc1d3b5f769bf68b2446d0c402e49509b1b7030e1ff5426d0e86eacc641cd"),
        Arguments.of(
            List.of("--command", "a", "--arg", "b c"),
            "398daf8b98eb62e969b3adbb7eadb1cf8afb367a15cf22704324cb353e9354bc"),
        Arguments.of(
            List.of("--command", "a", "--arg", "b", "--arg", "c"),
            "13e228567e8249fce53337f25d7970de3bd68ab2653424c7b8f9fd05e33caedf"),
        Arguments.of(
            List.of("--command", "a", "--arg="),
            "ea6fde9e840d240a4f5df3d85b5ad6183060057bd18dff9c453ba4061117f83b"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commandVectors")
  void commandArgsHashMatchesTheSpecVectors(List<String> args, String hash) throws Exception {
    Map<?, ?> out = identity(args.toArray(String[]::new));
    assertThat(out.get("commandArgsHash")).isEqualTo(hash);
    assertThat(out.get("envHash")).isEqualTo(EMPTY_ENV);
  }

  static List<Arguments> envVectors() {
    return List.of(
        Arguments.of(List.of(), List.of(), EMPTY_ENV, EMPTY_ENV),
        Arguments.of(
            List.of("AWS_SECRET_ACCESS_KEY=s", "OAUTH2_X=y"), List.of(), EMPTY_ENV, EMPTY_ENV),
        Arguments.of(
            List.of("REGION=eu-west-1", "MODE=fast", "AWS_SESSION_TOKEN=abc"),
            List.of(),
            "c4c29c3c2ba7159ad670d31b1cd883dc961d8b8430b7aa0d715404d6ea7720a1",
            "c4c29c3c2ba7159ad670d31b1cd883dc961d8b8430b7aa0d715404d6ea7720a1"),
        Arguments.of(
            List.of("oauth_token=x", "Z=1"),
            List.of(),
            "a65c000c8ccde17672da47b0b438ac2971254b85042ec192eb6b278c8a52fb50",
            "a65c000c8ccde17672da47b0b438ac2971254b85042ec192eb6b278c8a52fb50"),
        // The identity key reaches the launch identity only; the cache identity hashes none.
        Arguments.of(
            List.of("OAUTH_CLIENT=k1", "MODE=fast"),
            List.of("OAUTH_CLIENT"),
            "a416bc22003dee2b102508a1bb0ef06ddc6bbff50fbcfd5c7a83b8adabfabccf",
            "06d59a85eeae1f7d73a4f5bd14f1860ce03345287d8d7375414097d3981b513a"),
        Arguments.of(
            List.of("\uD83D\uDE00=a", "\uFB01=b"),
            List.of(),
            "a201957fb410b6f4fd1fa5b222d59150f4fb2158107ebd9dee104e3d7689b54d",
            "a201957fb410b6f4fd1fa5b222d59150f4fb2158107ebd9dee104e3d7689b54d"));
  }

  @ParameterizedTest(name = "{0} keys={1}")
  @MethodSource("envVectors")
  void envHashesMatchTheSpecVectors(
      List<String> env, List<String> identityKeys, String cacheEnvHash, String launchEnvHash)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("--command", "/bin/true"));
    env.forEach(e -> args.addAll(List.of("--env", e)));
    identityKeys.forEach(k -> args.addAll(List.of("--identity-key", k)));
    Map<?, ?> out = identity(args.toArray(String[]::new));
    assertThat(out.get("envHash")).isEqualTo(cacheEnvHash);
    assertThat(((String) out.get("cacheIdentity")).split("\u0000")[1]).isEqualTo(cacheEnvHash);
    assertThat(((String) out.get("launchIdentity")).split("\u0000")[1]).isEqualTo(launchEnvHash);
  }

  @Test
  void identitiesAreAssembledFromTheParts() throws Exception {
    Path script = Files.writeString(dir.resolve("server.sh"), "#!/bin/sh\necho v1\n");
    Files.writeString(dir.resolve("empty.txt"), "");
    Map<?, ?> out =
        identity(
            "--command", script.toString(), "--arg=--flag", "--arg", "empty.txt", "--arg", "x");
    // fp(script) then fp(each existing file argument), NUL-joined; flags and missing paths add
    // nothing. Fingerprints from the documented vectors.
    assertThat(out.get("binaryVersion"))
        .isEqualTo("667f61a069b75f1f57fc5616\u0000e3b0c44298fc1c149afbf4c8");
    String cah = (String) out.get("commandArgsHash");
    assertThat(out.get("cacheIdentity"))
        .isEqualTo(
            cah
                + "\u0000"
                + EMPTY_ENV
                + "\u0000667f61a069b75f1f57fc5616\u0000e3b0c44298fc1c149afbf4c8\u00002");
    // The launch identity has the command's fingerprint only, and no schema.
    assertThat(out.get("launchIdentity"))
        .isEqualTo(cah + "\u0000" + EMPTY_ENV + "\u0000667f61a069b75f1f57fc5616");

    Map<?, ?> missing = identity("--command", dir.resolve("not-there").toString());
    assertThat(missing.get("binaryVersion")).isEqualTo("unknown");
    assertThat(((String) missing.get("cacheIdentity"))).endsWith("\u0000unknown\u00002");
  }

  /** Option values that look like options, or like the end of options, are values. */
  static List<Arguments> verbatimValues() {
    return List.of(
        Arguments.of(List.of("--arg=-v"), List.of("-v")),
        Arguments.of(List.of("--arg", "-v"), List.of("-v")),
        Arguments.of(List.of("--arg=--"), List.of("--")),
        Arguments.of(List.of("--arg", "--"), List.of("--")),
        Arguments.of(List.of("--arg=--json"), List.of("--json")),
        Arguments.of(List.of("--arg", "--json"), List.of("--json")),
        Arguments.of(List.of("--arg", "-q", "--arg=--help"), List.of("-q", "--help")),
        Arguments.of(List.of("--arg", "--command", "--arg", "x"), List.of("--command", "x")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("verbatimValues")
  void anyArgumentValueIsTakenVerbatim(List<String> options, List<String> expectedArgs)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("--command", "/bin/a"));
    args.addAll(options);
    Map<?, ?> out = identity(args.toArray(String[]::new));
    assertThat(out.get("commandArgsHash"))
        .isEqualTo(dev.kcshare.core.records.IdentityHashes.commandArgsHash("/bin/a", expectedArgs));
    // Human output too: an argument "--json" does not switch the output to JSON.
    List<String> human = new ArrayList<>(List.of("identity"));
    human.addAll(args);
    CliRun r = CliRun.run(dir, "", Map.of("PATH", "/usr/bin:/bin"), human.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).startsWith("commandArgsHash  " + out.get("commandArgsHash") + "\n");
  }

  @Test
  void verbatimValuesForTheOtherOptions() throws Exception {
    Map<?, ?> out =
        identity("--command=--json", "--env", "-X=--v", "--identity-key", "-v", "--arg", "-v");
    assertThat(out.get("commandArgsHash"))
        .isEqualTo(
            dev.kcshare.core.records.IdentityHashes.commandArgsHash("--json", List.of("-v")));
    assertThat(out.get("envHash"))
        .isEqualTo(
            dev.kcshare.core.records.IdentityHashes.envHash(
                Map.of("-X", "--v"), java.util.Set.of()));
    CliRun missing = CliRun.run(dir, "", Map.of(), "identity", "--command", "/bin/a", "--arg");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.stderr()).contains("--arg");
  }

  @Test
  void identityOfAConfiguredServerListsEachDefinition() throws Exception {
    Path script = Files.writeString(dir.resolve("server.sh"), "#!/bin/sh\necho v1\n");
    Files.writeString(
        dir.resolve("a.json"),
        "{\"mcpServers\": {\"srv\": {\"command\": \""
            + script
            + "\", \"args\": [\"-v\"], \"env\": {\"OAUTH_CLIENT\": \"k1\", \"MODE\": \"fast\"}},"
            + " \"web\": {\"url\": \"https://x.example/mcp\"}}}");
    Files.writeString(
        dir.resolve("b.json"),
        "{\"mcp_gateway\": {\"pool_identity_env\": [\"OAUTH_CLIENT\"]},"
            + " \"mcpServers\": {\"srv\": {\"command\": \""
            + script
            + "\", \"args\": [\"-w\"]}, \"web\": {\"command\": \""
            + script
            + "\"}}}");
    Map<String, String> env = Map.of("PATH", "/usr/bin:/bin");
    CliRun r =
        CliRun.run(
            dir, "", env, "identity", "srv", "--json", "--config", "a.json", "--config", "b.json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<?, ?> out = (Map<?, ?>) JsonReader.withDepthLimit(100).parse(r.stdout());
    assertThat(out.get("name")).isEqualTo("srv");
    assertThat(out.get("identityKeys")).isEqualTo(List.of("OAUTH_CLIENT"));
    assertThat(out.get("identitiesAgree")).isEqualTo(false);
    List<?> defs = (List<?>) out.get("definitions");
    assertThat(defs).hasSize(2);
    Map<?, ?> first = (Map<?, ?>) defs.get(0);
    assertThat(first.get("source")).isEqualTo("a.json");
    assertThat(first.get("pointer")).isEqualTo("/mcpServers/srv");
    // The same parts as the definition given by hand, with the configured identity keys.
    Map<?, ?> byHand =
        identity(
            "--command",
            script.toString(),
            "--arg",
            "-v",
            "--env",
            "OAUTH_CLIENT=k1",
            "--env",
            "MODE=fast",
            "--identity-key",
            "OAUTH_CLIENT");
    for (String part :
        List.of("commandArgsHash", "envHash", "binaryVersion", "cacheIdentity", "launchIdentity")) {
      assertThat(first.get(part)).as(part).isEqualTo(byHand.get(part));
    }
    // And the cache identity is the one kcshare config computed for that definition.
    CliRun config = CliRun.run(dir, "", env, "config", "--json", "--config", "a.json");
    assertThat(config.stdout()).contains(JsonWriterLike.quote((String) first.get("cacheIdentity")));
    assertThat(((Map<?, ?>) defs.get(1)).get("source")).isEqualTo("b.json");

    // A definition that is not stdio has no identity; human output says so.
    CliRun web =
        CliRun.run(dir, "", env, "identity", "web", "--config", "a.json", "--config", "b.json");
    assertThat(web.exitCode()).as(web.stderr()).isZero();
    assertThat(web.stdout())
        .startsWith("web\n  a.json /mcpServers/web\n    not stdio: no execution identity\n")
        .contains("  b.json /mcpServers/web\n    commandArgsHash  ")
        .contains("the definitions have different cache identities");
  }

  @Test
  void serverAndCommandAreExclusive() {
    for (String[] args :
        List.of(
            new String[] {"identity"},
            new String[] {"identity", "srv", "--command", "/bin/true"},
            new String[] {"identity", "srv", "--arg", "x"})) {
      CliRun r = CliRun.run(dir, "", Map.of(), args);
      assertThat(r.exitCode()).as(List.of(args).toString()).isEqualTo(2);
      assertThat(r.stdout()).isEmpty();
    }
  }

  /** The JSON text of a string as kcshare writes it (NUL as \\u0000). */
  private static final class JsonWriterLike {
    static String quote(String s) {
      return dev.kcshare.core.json.JsonWriter.pretty(s).strip();
    }
  }

  @Test
  void humanOutputEscapesTheNuls() {
    CliRun r = CliRun.run(dir, "", Map.of(), "identity", "--command", "/bin/true");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).doesNotContain("\u0000");
    List<String> lines = r.stdout().lines().toList();
    assertThat(lines).hasSize(5);
    assertThat(lines.get(0))
        .isEqualTo(
            "commandArgsHash  9e44697a1718b7986fd04a1af01205543efa0e1988c32ba2131bb27a69398251");
    assertThat(lines.get(3))
        .startsWith(
            "cacheIdentity    9e44697a1718b7986fd04a1af01205543efa0e1988c32ba2131bb27a69398251\\x00"
                + EMPTY_ENV
                + "\\x00")
        .endsWith("\\x002");
  }

  @Test
  void aBadEnvEntryIsAUsageError() {
    for (String bad : List.of("NOEQUALS", "=value", "")) {
      CliRun r =
          CliRun.run(
              dir, "", Map.of(), "identity", "--command", "/bin/true", "--env", bad, "--json");
      assertThat(r.exitCode()).as(bad).isEqualTo(2);
      assertThat(r.stdout()).as(bad).isEmpty();
      assertThat(r.stderr()).as(bad).contains("--env").contains("expected K=V");
    }
    CliRun hostile =
        CliRun.run(dir, "", Map.of(), "identity", "--command", "c", "--env", "A\u001b[2J");
    assertThat(hostile.exitCode()).isEqualTo(2);
    assertThat(hostile.stderr()).doesNotContain("\u001b").contains("A\\x1b[2J");
    assertThat(CliRun.run(dir, "", Map.of(), "identity").exitCode()).isEqualTo(2);
  }
}
