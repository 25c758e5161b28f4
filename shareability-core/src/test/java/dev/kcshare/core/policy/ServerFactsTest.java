package dev.kcshare.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServerFactsTest {
  private static DefinitionFacts stdio(String identity, List<String> env, List<String> removed) {
    return new DefinitionFacts(true, true, false, env, identity, removed);
  }

  @Test
  void definitionsAgreeOnlyOnTheSameIdentityAndTheSameRemovedEnv() {
    ServerFacts same =
        new ServerFacts(
            "s", List.of(stdio("id", List.of(), List.of()), stdio("id", List.of(), List.of())));
    assertThat(same.agreedIdentity()).isEqualTo("id");

    ServerFacts otherIdentity =
        new ServerFacts(
            "s", List.of(stdio("id", List.of(), List.of()), stdio("id2", List.of(), List.of())));
    assertThat(otherIdentity.agreedIdentity()).isNull();

    // the cache identity does not cover removed names: the two would start in different envs
    ServerFacts otherRemoved =
        new ServerFacts(
            "s",
            List.of(stdio("id", List.of(), List.of("HOME")), stdio("id", List.of(), List.of())));
    assertThat(otherRemoved.agreedIdentity()).isNull();

    ServerFacts remote = new ServerFacts("s", List.of(DefinitionFacts.remote(List.of())));
    assertThat(remote.agreedIdentity()).isNull();
  }

  @Test
  void declaredEnvNamesAreTheSortedUnion() {
    ServerFacts s =
        new ServerFacts(
            "s",
            List.of(
                stdio("id", List.of("b", "a"), List.of()),
                stdio("id", List.of("c", "a"), List.of())));
    assertThat(s.declaredEnvNames()).containsExactly("a", "b", "c");
  }
}
