package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Who is in the records directory's group: judged by its gid (docs/security.md). */
final class RecordsTrustGroupTest {
  private static final List<String> PASSWD =
      List.of(
          "root:x:0:0:root:/root:/bin/bash",
          "alice:x:1000:1000::/home/alice:/bin/bash",
          "mallory:x:1001:1001::/home/mallory:/bin/bash");

  @Test
  void everyEntryWithTheGidCountsNotOnlyTheFirstName() {
    // groupadd -o: a second entry shares alice's gid and lists mallory.
    List<String> group =
        List.of("root:x:0:", "alice:x:1000:", "mallory:x:1001:", "sneaky:x:1000:mallory");
    assertThat(RecordsTrust.groupMembers(1000, group, PASSWD))
        .containsExactlyInAnyOrder("alice", "mallory");
  }

  @Test
  void aPrivateGroupHasOnlyItsUser() {
    List<String> group = List.of("root:x:0:", "alice:x:1000:", "mallory:x:1001:");
    assertThat(RecordsTrust.groupMembers(1000, group, PASSWD)).containsExactly("alice");
  }

  @Test
  void aGroupNotInTheFileIsNotKnownToBePrivate() {
    assertThat(RecordsTrust.groupMembers(4242, List.of("root:x:0:"), PASSWD)).isNull();
  }
}
