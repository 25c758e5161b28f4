package dev.kcshare.host.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.host.FileProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the trust check costs: {@code getfacl} is a process, so it runs only where an ACL could
 * change the answer, and once per directory while the directory's status is unchanged
 * (docs/performance.md, "The trust checks"). Every answer stays the one a fresh read gives.
 */
final class RecordsTrustAclReadsTest {
  @TempDir Path dir;

  @BeforeEach
  void aclTools() {
    boolean tools =
        Files.isExecutable(Path.of("/usr/bin/getfacl"))
            && Files.isExecutable(Path.of("/usr/bin/setfacl"));
    if (!tools && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("getfacl/setfacl are not installed (.ci/run installs Debian's acl)");
    }
    Assumptions.assumeTrue(tools, "getfacl/setfacl (Debian's acl) are not installed");
  }

  @Test
  void aStickyDirectoryEveryoneMayWriteNeedsNoAclRead() throws Exception {
    // /tmp's shape: 1777. Others may write it whatever its ACL says, so only the sticky rule
    // decides, and the ACL is not read.
    Path shared = Files.createDirectory(dir.resolve("shared"));
    sh("chmod", "1777", shared.toString());
    Path records = shared.resolve("rec");
    long before = RecordsTrust.aclReads();

    RecordsTrust.requireWritable(records);
    RecordsTrust.requireWritable(records);
    RecordsTrust.check(records);

    assertThat(RecordsTrust.aclReads() - before).isZero();
  }

  @Test
  void anUnchangedDirectoryIsReadOnceAndAChangedOneAgain() throws Exception {
    Path records = Files.createDirectory(dir.resolve("private-group"));
    Files.setPosixFilePermissions(records, PosixFilePermissions.fromString("rwxrwx---"));
    String owner = Files.getOwner(records).getName();
    String group =
        ((java.nio.file.attribute.GroupPrincipal) Files.getAttribute(records, "posix:group"))
            .getName();
    Assumptions.assumeTrue(
        owner.equals(group) && members(records).isEmpty(),
        "the directory's group is not the user's private group here");
    long before = RecordsTrust.aclReads();

    RecordsTrust.requireWritable(records);
    RecordsTrust.requireWritable(records);
    RecordsTrust.check(records);
    assertThat(RecordsTrust.aclReads() - before).as("one read while nothing changed").isEqualTo(1);

    sh("setfacl", "-m", "u:nobody:rwx", records.toString());
    assertThatThrownBy(() -> RecordsTrust.requireWritable(records))
        .isInstanceOf(FileProblem.class)
        .hasMessageContaining("has an ACL that lets user nobody write it");
    assertThat(RecordsTrust.aclReads() - before).as("the change is read again").isEqualTo(2);
  }

  private static java.util.Set<String> members(Path records) throws Exception {
    long gid = ((Number) Files.getAttribute(records, "unix:gid")).longValue();
    java.util.Set<String> all =
        RecordsTrust.groupMembers(
            gid,
            Files.readAllLines(Path.of("/etc/group")),
            Files.readAllLines(Path.of("/etc/passwd")));
    if (all == null) {
      return java.util.Set.of("?");
    }
    java.util.Set<String> others = new java.util.TreeSet<>(all);
    others.remove(Files.getOwner(records).getName());
    return others;
  }

  private static void sh(String... command) throws Exception {
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
  }
}
