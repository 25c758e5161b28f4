package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the screens of a look for a pass's processes read from this host's {@code /proc}: the owner
 * of a process's directory (one {@code stat}), the kernel's {@code children} lists, and the tree a
 * snapshot walks from them.
 */
final class ProcFsSystemTest {
  @BeforeEach
  void linux() {
    Assumptions.assumeTrue(ProcFs.system().available(), "no /proc");
  }

  @Test
  void aProcessDirectoryBelongsToItsEffectiveUser() {
    long self = ProcessHandle.current().pid();
    ProcFs.Uids uids = ProcFs.system().uids(self);
    assertThat(uids).isNotNull();
    assertThat(ProcFs.system().owner(self)).isEqualTo(uids.effective());
    assertThat(ProcFs.system().owner(Long.MAX_VALUE)).isEqualTo(ProcFs.NO_OWNER);
  }

  @Test
  void childrenListsAndTheSnapshotFindTheWholeTree() throws Exception {
    Assumptions.assumeTrue(
        Files.isReadable(Path.of("/proc/thread-self/children")), "no children lists");
    // sh starts a subshell that starts a sleep: a child and a grandchild of sh.
    Process sh =
        new ProcessBuilder("/bin/sh", "-c", "(sleep 30; true) & sleep 30 & wait")
            .redirectErrorStream(true)
            .start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      Set<ProcessHandle> seen = Set.of();
      while (System.nanoTime() < deadline) {
        seen = new ProcessTree(sh).knownDescendants();
        if (seen.size() >= 3) {
          break;
        }
        Thread.sleep(20);
      }
      // The walk and the JDK's own scan agree.
      assertThat(seen).hasSize(3).containsExactlyInAnyOrderElementsOf(sh.descendants().toList());
      List<Long> children = ProcFs.system().children(sh.pid());
      assertThat(children)
          .containsExactlyInAnyOrderElementsOf(sh.children().map(ProcessHandle::pid).toList());
      assertThat(ProcFs.system().children(Long.MAX_VALUE)).isEmpty();
    } finally {
      sh.descendants().forEach(ProcessHandle::destroyForcibly);
      sh.destroyForcibly();
      sh.waitFor(5, TimeUnit.SECONDS);
    }
  }
}
