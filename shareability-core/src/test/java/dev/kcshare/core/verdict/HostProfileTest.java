package dev.kcshare.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class HostProfileTest {

  @Test
  void emptyProfileClaimsNothing() {
    HostProfile p = HostProfile.empty();
    assertThat(p.managed()).isEmpty();
    assertThat(p.sessionBound("kirocrew-computer")).isFalse();
    assertThat(p.isUnstubbable("anything")).isFalse();
    assertThat(HostProfile.byName("default")).isEqualTo(p);
  }

  @Test
  void kirocrewProfileHasSevenManagedAndOneSessionBound() {
    HostProfile p = HostProfile.kirocrew();
    assertThat(p.managed())
        .containsExactly(
            "kirocrew-computer",
            "kirocrew-core",
            "kirocrew-crew-log",
            "kirocrew-cron",
            "kirocrew-dashboard",
            "kirocrew-panel",
            "kirocrew-work");
    assertThat(p.withheld()).containsExactly("kirocrew-computer");
    assertThat(p.callerAware()).hasSize(6).doesNotContain("kirocrew-computer");
    assertThat(p.unstubbable()).isEmpty();
    assertThat(p.managed().stream().filter(p::sessionBound)).containsExactly("kirocrew-computer");
    assertThat(p.sessionBound("my-server")).isFalse();
    assertThat(HostProfile.byName("kirocrew")).isEqualTo(p);
  }

  @Test
  void aManagedNameMissingFromCallerAwareIsSessionBound() {
    HostProfile p =
        new HostProfile(Set.of("new-one", "old-one"), Set.of("old-one"), Set.of(), Set.of());
    assertThat(p.sessionBound("new-one")).isTrue();
    assertThat(p.sessionBound("old-one")).isFalse();
  }

  @Test
  void setsAreSortedByCodePointAndUnmodifiable() {
    HostProfile p =
        new HostProfile(
            Set.of("b", "\uD83D\uDE00", "\uFFFD", "a"), Set.of(), Set.of(), Set.of("z", "y"));
    assertThat(p.managed()).containsExactly("a", "b", "\uFFFD", "\uD83D\uDE00");
    assertThat(p.unstubbable()).containsExactly("y", "z");
    assertThat(p.isUnstubbable("y")).isTrue();
    assertThatThrownBy(() -> p.managed().add("c"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void callerAwareOutsideManagedIsRejectedByName() {
    assertThatThrownBy(
            () -> new HostProfile(Set.of("a"), Set.of("a", "b", "c"), Set.of(), Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid host profile: callerAware names not in managed: [b, c]");
  }

  @Test
  void withheldOutsideManagedIsRejectedByName() {
    assertThatThrownBy(() -> new HostProfile(Set.of("a"), Set.of(), Set.of("w"), Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid host profile: withheld names not in managed: [w]");
  }

  @Test
  void withheldAndCallerAwareMustBeDisjoint() {
    assertThatThrownBy(
            () -> new HostProfile(Set.of("a", "b"), Set.of("a", "b"), Set.of("b"), Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid host profile: names both withheld and callerAware: [b]");
  }

  @Test
  void everyBrokenInvariantIsReportedAtOnce() {
    assertThatThrownBy(() -> new HostProfile(Set.of("a"), Set.of("x"), Set.of("x"), Set.of()))
        .hasMessage(
            "invalid host profile: callerAware names not in managed: [x]; withheld names not in"
                + " managed: [x]; names both withheld and callerAware: [x]");
  }

  @Test
  void unknownProfileNameIsRejected() {
    assertThatThrownBy(() -> HostProfile.byName("Kirocrew"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Kirocrew");
  }
}
