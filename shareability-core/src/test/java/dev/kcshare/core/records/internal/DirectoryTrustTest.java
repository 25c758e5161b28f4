package dev.kcshare.core.records.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class DirectoryTrustTest {
  private static final long ALICE = 1000;
  private static final long ROOT = 0;
  private static final long BOB = 1001;

  private static DirectoryTrust.Facts alice(int mode, String group, Set<String> members) {
    return new DirectoryTrust.Facts(ALICE, "alice", group, mode, members);
  }

  /** Case name, who runs kcshare, the directory's facts, the expected problem (null: trusted). */
  static Stream<Arguments> cases() {
    Set<String> none = Set.of();
    return Stream.of(
        Arguments.of("0700 own", ALICE, alice(0700, "alice", none), null),
        Arguments.of("0755 own", ALICE, alice(0755, "alice", none), null),
        Arguments.of("0755 own, shared group", ALICE, alice(0755, "staff", Set.of("bob")), null),
        Arguments.of("0775 private group", ALICE, alice(0775, "alice", none), null),
        Arguments.of(
            "0775 private group listing its owner",
            ALICE,
            alice(0775, "alice", Set.of("alice")),
            null),
        Arguments.of("2775 private group, setgid", ALICE, alice(02775, "alice", none), null),
        Arguments.of(
            "0775 shared group",
            ALICE,
            alice(0775, "staff", Set.of("alice", "bob")),
            "is writable by group staff"),
        Arguments.of(
            "0775 group named like the owner, with members",
            ALICE,
            alice(0775, "alice", Set.of("alice", "mallory", "bob")),
            "is writable by group alice, which has other members (bob, mallory)"),
        Arguments.of(
            "0775 group not in the group database",
            ALICE,
            alice(0775, "alice", null),
            "is writable by group alice, not known to be a private group"),
        Arguments.of("0777", ALICE, alice(0777, "alice", none), "is writable by others"),
        Arguments.of("0757", ALICE, alice(0757, "alice", none), "is writable by others"),
        Arguments.of("1777 sticky", ALICE, alice(01777, "alice", none), "is writable by others"),
        Arguments.of(
            "0700 other owner",
            ROOT,
            alice(0700, "alice", none),
            "is owned by alice, not by the user running kcshare"),
        Arguments.of(
            "0755 owned by root, run by alice",
            ALICE,
            new DirectoryTrust.Facts(ROOT, "root", "root", 0755, Set.of()),
            "is owned by root, not by the user running kcshare"),
        Arguments.of(
            "0777 owned by root, run as root",
            ROOT,
            new DirectoryTrust.Facts(ROOT, "root", "root", 0777, Set.of()),
            "is writable by others"),
        Arguments.of(
            "1777 owned by root, run as root",
            ROOT,
            new DirectoryTrust.Facts(ROOT, "root", "root", 01777, Set.of()),
            "is writable by others"),
        Arguments.of(
            "0700 owned by a uid without a name",
            ALICE,
            new DirectoryTrust.Facts(4242, "4242", "4242", 0700, null),
            "is owned by 4242, not by the user running kcshare"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decidesWhetherTheDirectoryMayBeWritten(
      String name, long euid, DirectoryTrust.Facts facts, String expected) {
    assertThat(DirectoryTrust.problem(euid, facts)).isEqualTo(expected);
    String refusal = DirectoryTrust.refusal("/x", euid, facts);
    if (expected == null) {
      assertThat(refusal).isNull();
    } else {
      assertThat(refusal).startsWith("records directory /x " + expected + " (owner ");
    }
  }

  static Stream<Arguments> lines() {
    return Stream.of(
        Arguments.of(
            ALICE,
            alice(01777, "alice", Set.of()),
            "records directory /x is writable by others (owner alice, mode 1777):"
                + " run chmod go-w /x"),
        Arguments.of(
            ROOT,
            alice(0777, "alice", Set.of()),
            "records directory /x is writable by others (owner alice, mode 0777):"
                + " run chmod go-w /x, or root does not create or replace files in another"
                + " user's directory: run sudo -H kcshare ..., sudo -u alice kcshare ..., or give"
                + " --records-dir"),
        Arguments.of(
            ROOT,
            alice(0700, "alice", Set.of()),
            "records directory /x is owned by alice, not by the user running kcshare"
                + " (owner alice, mode 0700): root does not create or replace files in another"
                + " user's directory: run sudo -H kcshare ..., sudo -u alice kcshare ..., or give"
                + " --records-dir"),
        Arguments.of(
            BOB,
            alice(0700, "alice", Set.of()),
            "records directory /x is owned by alice, not by the user running kcshare"
                + " (owner alice, mode 0700): run kcshare as its owner: sudo -u alice kcshare ..."),
        Arguments.of(
            ALICE,
            alice(0770, "staff", Set.of("bob")),
            "records directory /x is writable by group staff (owner alice, mode 0770):"
                + " run chmod go-w /x"));
  }

  @ParameterizedTest
  @MethodSource("lines")
  void theRefusalNamesTheDirectoryItsOwnerAndModeAndTheFix(
      long euid, DirectoryTrust.Facts facts, String line) {
    assertThat(DirectoryTrust.refusal("/x", euid, facts)).isEqualTo(line);
  }

  static Stream<Arguments> acls() {
    return Stream.of(
        Arguments.of("0770 mask, no ACL entry", Set.of(), null),
        Arguments.of(
            "0770 mask, user nobody may write",
            Set.of("user nobody"),
            "has an ACL that lets user nobody write it"),
        Arguments.of(
            "0770 mask, two writers",
            Set.of("user nobody", "group staff"),
            "has an ACL that lets group staff, user nobody write it"),
        Arguments.of(
            "0770, the ACL cannot be read",
            null,
            "is writable by group alice, and whether an ACL lets others write it cannot be told"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("acls")
  void anAclEntryThatGrantsWriteCountsWhateverTheModeShows(
      String name, Set<String> writers, String expected) {
    DirectoryTrust.Facts facts =
        new DirectoryTrust.Facts(ALICE, "alice", "alice", 0770, Set.of(), writers);
    assertThat(DirectoryTrust.problem(ALICE, facts)).isEqualTo(expected);
    if (expected != null) {
      assertThat(DirectoryTrust.refusal("/x", ALICE, facts)).endsWith("run chmod go-w /x");
    }
  }

  @org.junit.jupiter.api.Test
  void anAclOnlyMattersWhenTheMaskGrantsWrite() {
    DirectoryTrust.Facts masked =
        new DirectoryTrust.Facts(ALICE, "alice", "alice", 0750, Set.of(), null);
    assertThat(DirectoryTrust.problem(ALICE, masked)).isNull();
  }

  /** Case, who runs kcshare, the ancestor, whether its next component is owned, the problem. */
  static Stream<Arguments> ancestors() {
    DirectoryTrust.Facts rootDir = new DirectoryTrust.Facts(ROOT, "root", "root", 0755, Set.of());
    DirectoryTrust.Facts tmp = new DirectoryTrust.Facts(ROOT, "root", "root", 01777, Set.of());
    return Stream.of(
        Arguments.of("/ as alice", ALICE, rootDir, true, null),
        Arguments.of("/tmp, next owned", ALICE, tmp, true, null),
        Arguments.of(
            "/tmp, next someone else's",
            ALICE,
            tmp,
            false,
            "is writable by others, and the next component is not owned by root or the user"
                + " running kcshare"),
        Arguments.of(
            "0777 without sticky",
            ALICE,
            new DirectoryTrust.Facts(ROOT, "root", "root", 0777, Set.of()),
            true,
            "is writable by others"),
        Arguments.of("alice's home as alice", ALICE, alice(0700, "alice", Set.of()), true, null),
        Arguments.of(
            "alice's home as root",
            ROOT,
            alice(0700, "alice", Set.of()),
            true,
            "is owned by alice"),
        Arguments.of(
            "shared group",
            ALICE,
            new DirectoryTrust.Facts(ROOT, "root", "staff", 02775, Set.of("bob")),
            true,
            "is writable by group staff"),
        Arguments.of(
            "root's private group",
            ALICE,
            new DirectoryTrust.Facts(ROOT, "root", "root", 0775, Set.of()),
            true,
            null),
        Arguments.of(
            "an ACL",
            ALICE,
            new DirectoryTrust.Facts(ROOT, "root", "root", 0775, Set.of(), Set.of("user bob")),
            true,
            "has an ACL that lets user bob write it"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ancestors")
  void everyAncestorIsOwnedByRootOrTheUserAndWritableByNobodyElse(
      String name, long euid, DirectoryTrust.Facts facts, boolean nextOwned, String expected) {
    assertThat(DirectoryTrust.ancestorProblem(euid, facts, nextOwned)).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void rootUnderAnotherUsersDirectoryIsToldTheFixesForABorrowedHome() {
    assertThat(
            DirectoryTrust.ancestorRefusal(
                "records directory /home/alice/r",
                "/home/alice",
                "give --records-dir",
                ROOT,
                alice(0755, "alice", Set.of()),
                true))
        .isEqualTo(
            "records directory /home/alice/r lies under /home/alice, owned by alice: root does not"
                + " create or replace files in another user's directory: run sudo -H kcshare ...,"
                + " sudo -u alice kcshare ..., or give --records-dir");
    assertThat(
            DirectoryTrust.ancestorRefusal(
                "records directory /srv/r",
                "/srv",
                "give --records-dir",
                ALICE,
                new DirectoryTrust.Facts(ROOT, "root", "root", 0777, Set.of()),
                true))
        .isEqualTo(
            "records directory /srv/r lies under /srv, which is writable by others (owner root,"
                + " mode 0777): run chmod go-w /srv, or give --records-dir");
    assertThat(
            DirectoryTrust.ancestorRefusal(
                "file /home/alice/.kiro/settings/mcp.json",
                "/home/alice",
                null,
                ROOT,
                alice(0755, "alice", Set.of()),
                true))
        .isEqualTo(
            "file /home/alice/.kiro/settings/mcp.json lies under /home/alice, owned by alice: root"
                + " does not create or replace files in another user's directory: run sudo -H"
                + " kcshare ... or sudo -u alice kcshare ...");
  }

  /** getfacl --omit-header --numeric of a 0700 directory after setfacl -m u:nobody:rwx. */
  private static final List<String> NOBODY_MAY_WRITE =
      List.of(
          "user::rwx",
          "user:65534:rwx",
          "group::---",
          "mask::rwx",
          "other::---",
          "default:user::rwx",
          "default:user:65534:rwx",
          "default:group:27:rwx",
          "");

  @Test
  void namedAclEntriesWithWriteAreTheWritersDefaultsAndTheOwnerAreNot() {
    assertThat(DirectoryTrust.aclWriters(NOBODY_MAY_WRITE, 0, id -> "nobody", id -> "g" + id))
        .containsExactly("user nobody");
    assertThat(
            DirectoryTrust.aclWriters(
                List.of("user::rwx", "user:0:rwx", "group:27:r-x", "group:50:rw-\t#effective:r--"),
                0,
                id -> "u" + id,
                id -> "g" + id))
        .containsExactly("group g50");
    assertThat(DirectoryTrust.aclWriters(List.of("user::rwx", "group::r-x"), 0, null, null))
        .isEmpty();
  }

  @Test
  void anAclThatLetsSomeoneWriteRefusesAGroupWritableDirectory() {
    DirectoryTrust.Facts facts =
        new DirectoryTrust.Facts(0, "root", "root", 0770, Set.of("root"), Set.of("user nobody"));
    assertThat(DirectoryTrust.problem(0, facts))
        .isEqualTo("has an ACL that lets user nobody write it");
  }
}
