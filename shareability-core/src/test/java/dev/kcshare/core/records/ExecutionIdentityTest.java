package dev.kcshare.core.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The test vectors of docs/design.md#identity-test-vectors and the identity string forms of
 * docs/design.md#cache-identity and docs/design.md#launch-identity.
 */
final class ExecutionIdentityTest {

  static Stream<Arguments> commandArgsVectors() {
    return Stream.of(
        Arguments.of(
            "/bin/true",
            List.of(),
            "9e44697a1718b7986fd04a1af01205543efa0e1988c32ba2131bb27a69398251"),
        Arguments.of(
            "/bin/a",
            List.of("--x"),
            "e2a474eb0384ddf6a5751f9e292f24a33c54a29f7de265f8379858ae49713bd6"),
        Arguments.of(
            "/bin/a",
            List.of(),
            "29c8d349df795d3fea71c9402933547b7c9d6e80b0e7d5b4adf7645fdc73bd83"),
        Arguments.of(
            "/bin/b",
            List.of(),
            "29cbc1d3b5f769bf68b2446d0c402e49509b1b7030e1ff5426d0e86eacc641cd"),
        Arguments.of(
            "a",
            List.of("b c"),
            "398daf8b98eb62e969b3adbb7eadb1cf8afb367a15cf22704324cb353e9354bc"),
        Arguments.of(
            "a",
            List.of("b", "c"),
            "13e228567e8249fce53337f25d7970de3bd68ab2653424c7b8f9fd05e33caedf"),
        Arguments.of(
            "a", List.of(""), "ea6fde9e840d240a4f5df3d85b5ad6183060057bd18dff9c453ba4061117f83b"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("commandArgsVectors")
  void commandArgsHashMatchesTheSpecVectors(String command, List<String> args, String expected) {
    assertThat(IdentityHashes.commandArgsHash(command, args)).isEqualTo(expected);
  }

  private static Map<String, Object> env(Object... keyValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put((String) keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  static Stream<Arguments> envVectors() {
    String empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    return Stream.of(
        Arguments.of("empty", env(), Set.of(), empty),
        Arguments.of(
            "only secret-prefixed keys",
            env("AWS_SECRET_ACCESS_KEY", "s", "AWS_SESSION_TOKEN", "t", "OAUTH2_X", "o"),
            Set.of(),
            empty),
        Arguments.of(
            "session token scrubbed, keys sorted",
            env("REGION", "eu-west-1", "MODE", "fast", "AWS_SESSION_TOKEN", "abc"),
            Set.of(),
            "c4c29c3c2ba7159ad670d31b1cd883dc961d8b8430b7aa0d715404d6ea7720a1"),
        Arguments.of(
            "lower-case oauth kept",
            env("oauth_token", "x", "Z", "1"),
            Set.of(),
            "a65c000c8ccde17672da47b0b438ac2971254b85042ec192eb6b278c8a52fb50"),
        Arguments.of(
            "identity key exempts OAUTH_CLIENT",
            env("OAUTH_CLIENT", "k1", "MODE", "fast"),
            Set.of("OAUTH_CLIENT"),
            "06d59a85eeae1f7d73a4f5bd14f1860ce03345287d8d7375414097d3981b513a"),
        Arguments.of(
            "OAUTH_CLIENT scrubbed without identity keys",
            env("OAUTH_CLIENT", "k1", "MODE", "fast"),
            Set.of(),
            "a416bc22003dee2b102508a1bb0ef06ddc6bbff50fbcfd5c7a83b8adabfabccf"),
        Arguments.of(
            "code-point order, U+FB01 before U+1F600",
            env("\ud83d\ude00", "a", "\ufb01", "b"),
            Set.of(),
            "a201957fb410b6f4fd1fa5b222d59150f4fb2158107ebd9dee104e3d7689b54d"),
        Arguments.of(
            "code-point order regardless of insertion order",
            env("\ufb01", "b", "\ud83d\ude00", "a"),
            Set.of(),
            "a201957fb410b6f4fd1fa5b222d59150f4fb2158107ebd9dee104e3d7689b54d"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("envVectors")
  void envHashMatchesTheSpecVectors(
      String label, Map<String, Object> env, Set<String> identityKeys, String expected) {
    assertThat(IdentityHashes.envHash(env, identityKeys)).isEqualTo(expected);
  }

  @Test
  void utf16OrderWouldGiveTheWrongEnvHash() {
    // Documents why the sort is by code point: hashing in UTF-16 order gives the documented "wrong"
    // value.
    byte[] utf16Order = "\ud83d\ude00=a\u0000\ufb01=b\u0000".getBytes(StandardCharsets.UTF_8);
    assertThat(IdentityHashes.sha256Hex(utf16Order))
        .isEqualTo("7344f4516315d9dee1a89fec8b0d59289a5cc59a0b42ece1dcd8a72bc6c3bef4");
  }

  @Test
  void nonObjectEnvHashesAsEmpty() {
    String empty = IdentityHashes.envHash(Map.of(), Set.of());
    assertThat(IdentityHashes.envHash(null, Set.of())).isEqualTo(empty);
    assertThat(IdentityHashes.envHash(List.of("A=1"), Set.of())).isEqualTo(empty);
    assertThat(IdentityHashes.envHash("A=1", Set.of())).isEqualTo(empty);
    assertThat(IdentityHashes.envHash(7, Set.of())).isEqualTo(empty);
  }

  @Test
  void scrubIsACaseSensitivePrefixTestWithExactExemptions() {
    Set<String> none = Set.of();
    assertThat(IdentityHashes.isScrubbed("OAUTH2_X", none)).isTrue();
    assertThat(IdentityHashes.isScrubbed("AWS_SECRETS_MANAGER_ARN", none)).isTrue();
    assertThat(IdentityHashes.isScrubbed("AWS_SESSION_TOKEN", none)).isTrue();
    assertThat(IdentityHashes.isScrubbed("aws_secret_key", none)).isFalse();
    assertThat(IdentityHashes.isScrubbed("MY_OAUTH_TOKEN", none)).isFalse();
    assertThat(IdentityHashes.isScrubbed("GITHUB_TOKEN", none)).isFalse();
    assertThat(IdentityHashes.isScrubbed("AWS_ACCESS_KEY_ID", none)).isFalse();
    assertThat(IdentityHashes.isScrubbed("OAUTH_CLIENT", Set.of("OAUTH_CLIENT"))).isFalse();
    assertThat(IdentityHashes.isScrubbed("OAUTH_CLIENT_ID", Set.of("OAUTH_CLIENT"))).isTrue();
  }

  @Test
  void nonStringValuesAreConvertedLikeThePythonGateway() {
    assertThat(IdentityHashes.valueText("x")).isEqualTo("x");
    assertThat(IdentityHashes.valueText(42)).isEqualTo("42");
    assertThat(IdentityHashes.valueText(-7L)).isEqualTo("-7");
    assertThat(IdentityHashes.valueText(new BigInteger("123456789012345678901234567890")))
        .isEqualTo("123456789012345678901234567890");
    assertThat(IdentityHashes.valueText(true)).isEqualTo("True");
    assertThat(IdentityHashes.valueText(false)).isEqualTo("False");
    assertThat(IdentityHashes.valueText(1.5)).isEqualTo("1.5");
    assertThat(IdentityHashes.valueText(null)).isEqualTo("null");
    assertThat(IdentityHashes.valueText(List.of(1, "a"))).isEqualTo("[1,\"a\"]");
    assertThat(IdentityHashes.envHash(env("PORT", 8080), Set.of()))
        .isEqualTo(IdentityHashes.envHash(env("PORT", "8080"), Set.of()));
    assertThat(IdentityHashes.envHash(env("DEBUG", true), Set.of()))
        .isEqualTo(IdentityHashes.envHash(env("DEBUG", "True"), Set.of()));
  }

  @Test
  void contentFingerprintsMatchTheSpecVectors() {
    assertThat(
            ExecutionIdentity.fingerprintOfContent(
                "#!/bin/sh\necho v1\n".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("667f61a069b75f1f57fc5616");
    assertThat(ExecutionIdentity.fingerprintOfContent(new byte[0]))
        .isEqualTo("e3b0c44298fc1c149afbf4c8");
    assertThat(ExecutionIdentity.fingerprintOfContent("hello\n".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("5891b5b522d5df086d0ff0b1");
  }

  @Test
  void largeFileFingerprintAndConstants() {
    assertThat(ExecutionIdentity.fingerprintOfLargeFile(67108864L, 1700000000L))
        .isEqualTo("sz67108864-mt1700000000");
    assertThat(ExecutionIdentity.LARGE_FILE_THRESHOLD).isEqualTo(4_194_304L);
    assertThat(ExecutionIdentity.UNKNOWN).isEqualTo("unknown");
    assertThat(ExecutionIdentity.SCHEMA).isEqualTo(2);
  }

  @Test
  void cacheIdentityHasFourFieldsWithSchemaLast() {
    String bv = ExecutionIdentity.binaryVersion(List.of("667f61a069b75f1f57fc5616", "unknown"));
    assertThat(bv).isEqualTo("667f61a069b75f1f57fc5616\u0000unknown");
    String id = ExecutionIdentity.cacheIdentity("c".repeat(64), "e".repeat(64), bv);
    assertThat(id)
        .isEqualTo(
            "c".repeat(64)
                + "\u0000"
                + "e".repeat(64)
                + "\u0000667f61a069b75f1f57fc5616\u0000unknown\u00002");
    assertThat(ExecutionIdentity.schemaOf(id)).isEqualTo("2");
    assertThat(ExecutionIdentity.hasCurrentSchema(id)).isTrue();
  }

  @Test
  void launchIdentityHasThreePartsAndNoSchema() {
    String id = ExecutionIdentity.launchIdentity("c", "e", "sz1-mt2");
    assertThat(id).isEqualTo("c\u0000e\u0000sz1-mt2");
    assertThat(ExecutionIdentity.schemaOf(id)).isEqualTo("sz1-mt2");
    assertThat(ExecutionIdentity.hasCurrentSchema(id)).isFalse();
  }

  @Test
  void schemaIsTheLastNulField() {
    assertThat(ExecutionIdentity.schemaOf("no-nul-at-all")).isNull();
    assertThat(ExecutionIdentity.schemaOf("a\u0000b\u00001")).isEqualTo("1");
    assertThat(ExecutionIdentity.schemaOf("a\u0000")).isEmpty();
    assertThat(ExecutionIdentity.hasCurrentSchema("a\u0000b\u00002 ")).isFalse();
    assertThat(ExecutionIdentity.hasCurrentSchema("\u00002")).isTrue();
    assertThat(ExecutionIdentity.hasCurrentSchema("2")).isFalse();
  }

  @Test
  void singlePartBinaryVersionHasNoSeparator() {
    assertThat(ExecutionIdentity.binaryVersion(List.of("unknown"))).isEqualTo("unknown");
  }
}
