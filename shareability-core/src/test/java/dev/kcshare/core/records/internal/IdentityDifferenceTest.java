package dev.kcshare.core.records.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.ExecutionIdentity;
import dev.kcshare.core.records.IdentityHashes;
import dev.kcshare.core.records.internal.IdentityDifference.Part;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class IdentityDifferenceTest {
  private static String identity(String command, List<String> args, Map<String, String> env) {
    return ExecutionIdentity.cacheIdentity(
        IdentityHashes.commandArgsHash(command, args),
        IdentityHashes.envHash(env, Set.of()),
        ExecutionIdentity.binaryVersion(List.of("667f61a069b75f1f57fc5616")));
  }

  @Test
  void namesEachPartThatDiffers() {
    String base = identity("npx", List.of("-y", "dup-mcp@1"), Map.of("MODE", "fast"));
    assertThat(IdentityDifference.between(base, base)).isEmpty();
    assertThat(
            IdentityDifference.between(
                base, identity("npx", List.of("-y", "dup-mcp@2"), Map.of("MODE", "fast"))))
        .containsExactly(Part.COMMAND_OR_ARGUMENTS);
    assertThat(
            IdentityDifference.between(
                base, identity("npx", List.of("-y", "dup-mcp@1"), Map.of("MODE", "slow"))))
        .containsExactly(Part.ENV);
    // A secret-prefixed env name is not part of the identity: no difference.
    assertThat(
            IdentityDifference.between(
                base,
                identity(
                    "npx",
                    List.of("-y", "dup-mcp@1"),
                    Map.of("MODE", "fast", "AWS_SESSION_TOKEN", "t"))))
        .isEmpty();
    String otherBinary =
        ExecutionIdentity.cacheIdentity(
            IdentityHashes.commandArgsHash("npx", List.of("-y", "dup-mcp@1")),
            IdentityHashes.envHash(Map.of("MODE", "fast"), Set.of()),
            ExecutionIdentity.binaryVersion(List.of("667f61a069b75f1f57fc5616", "unknown")));
    assertThat(IdentityDifference.between(base, otherBinary)).containsExactly(Part.BINARIES);
  }

  @Test
  void aBinaryVersionWithNulsIsOneField() {
    String a = "c\0e\0fp1\0fp2\0" + ExecutionIdentity.SCHEMA_FIELD;
    String b = "c\0e\0fp1\0fp3\0" + ExecutionIdentity.SCHEMA_FIELD;
    assertThat(IdentityDifference.between(a, b)).containsExactly(Part.BINARIES);
    assertThat(IdentityDifference.between(a, "c\0e\0fp1\0fp2\0" + "3"))
        .containsExactly(Part.SCHEMA);
  }

  @Test
  void aMalformedIdentityDiffersInEveryPart() {
    assertThat(IdentityDifference.between("c\0e\0" + "2", "c\0e\0b\0" + "2"))
        .containsExactlyInAnyOrder(Part.values());
  }
}
