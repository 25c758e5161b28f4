package dev.kcshare.host.records;

import dev.kcshare.core.records.host.DirectoryTrust;
import dev.kcshare.host.FileProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The one check run before kcshare writes anything in a records directory
 * (docs/formats.md#who-may-write-the-records-directory): every lock, record file, attempts file and
 * process registry there. It gathers the facts {@link DirectoryTrust} decides on: the directory as
 * resolved (symbolic links followed to the real directory, which is what is checked), its owner,
 * group and mode, the members of its group from {@code /etc/group} and {@code /etc/passwd}, when
 * the group bits allow write the entries of its POSIX ACL ({@code getfacl}), and the effective user
 * id from the {@code Uid:} line of {@code /proc/self/status} (where there is no {@code /proc}, the
 * owner's name is compared with the JVM's {@code user.name}, the real user).
 *
 * <p>On a file system without Unix attributes nothing is checked.
 */
public final class RecordsTrust {
  private static final Path PROC_STATUS = Path.of("/proc/self/status");
  private static final Path GROUP_FILE = Path.of("/etc/group");
  private static final Path PASSWD_FILE = Path.of("/etc/passwd");
  private static final long MAX_DATABASE_BYTES = 16L * 1024 * 1024;
  private static final Path GETFACL = Path.of("/usr/bin/getfacl");
  private static final int MAX_ACL_BYTES = 1 << 20;
  private static final long ACL_TIMEOUT_SECONDS = 10;

  private static volatile @Nullable OptionalLong effectiveUid;

  private RecordsTrust() {}

  /**
   * Refuses to go on unless kcshare may write in {@code dir}; a missing directory is created first
   * (0700, with every missing parent), so the check is made on the directory that will be written.
   *
   * @param dir the records directory
   * @throws FileProblem when others may write it ({@link FileProblem#isRefused()}): one line naming
   *     the directory, its owner and mode, and the fix
   * @throws IOException when it cannot be created or examined
   */
  public static void requireWritable(Path dir) throws IOException {
    AtomicFiles.createDirectories(dir);
    String refusal = refusal(dir, "records directory");
    if (refusal != null) {
      throw FileProblem.refused(dir, refusal);
    }
  }

  /**
   * The same rule for another directory kcshare writes into ({@code capture directory}), which must
   * exist: refuses it when others may write it or it is not the effective user's.
   *
   * @param dir the directory
   * @param noun what it is, as the refusal starts
   * @throws FileProblem when others may write it ({@link FileProblem#isRefused()})
   * @throws IOException when it cannot be examined
   */
  public static void requireWritable(Path dir, String noun) throws IOException {
    String refusal = refusal(dir, noun);
    if (refusal != null) {
      throw FileProblem.refused(dir, refusal);
    }
  }

  /**
   * Why {@code dir} would not be written, for a command that only reads it (and warns), or null
   * when it would be, or when it does not exist or cannot be examined (a read says why).
   *
   * @param dir the records directory
   * @return the line, or null
   */
  public static @Nullable String readWarning(Path dir) {
    try {
      return refusal(dir, "records directory");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static @Nullable String refusal(Path dir, String noun) throws IOException {
    Path real;
    try {
      real = dir.toRealPath();
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!real.getFileSystem().supportedFileAttributeViews().contains("unix")) {
      return null;
    }
    long uid = ((Number) Files.getAttribute(real, "unix:uid")).longValue();
    long gid = ((Number) Files.getAttribute(real, "unix:gid")).longValue();
    int mode = ((Number) Files.getAttribute(real, "unix:mode")).intValue();
    String owner = Files.getOwner(real).getName();
    String group = ((GroupPrincipal) Files.getAttribute(real, "posix:group")).getName();
    boolean groupWrite = (mode & 0020) != 0;
    Set<String> members = groupWrite ? groupMembers(gid) : Set.of();
    // With an ACL the group bits are its mask: only when they allow write can an entry grant it.
    Set<String> aclWriters = groupWrite ? aclWriters(real, uid) : Set.of();
    OptionalLong self = effectiveUid();
    long euid;
    if (self.isPresent()) {
      euid = self.getAsLong();
    } else {
      euid = owner.equals(System.getProperty("user.name")) ? uid : -1;
    }
    return DirectoryTrust.refusal(
        noun,
        dir.toString(),
        euid,
        new DirectoryTrust.Facts(uid, owner, group, mode, members, aclWriters));
  }

  /**
   * Who besides the owner a POSIX ACL entry of {@code dir} lets write it ({@link
   * DirectoryTrust#aclWriters}), read with {@code getfacl} (Debian's {@code acl} package); null
   * when that cannot be told (no {@code getfacl}, or it failed), which leaves a group-writable
   * directory untrusted.
   */
  private static @Nullable Set<String> aclWriters(Path dir, long ownerUid) {
    if (!Files.isExecutable(GETFACL)) {
      return null;
    }
    try {
      Process p =
          new ProcessBuilder(
                  GETFACL.toString(),
                  "--omit-header",
                  "--numeric",
                  "--absolute-names",
                  "--",
                  "" + dir)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readNBytes(MAX_ACL_BYTES);
      if (!p.waitFor(ACL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      if (p.exitValue() != 0) {
        return null;
      }
      List<String> passwd = lines(PASSWD_FILE);
      List<String> group = lines(GROUP_FILE);
      return DirectoryTrust.aclWriters(
          new String(out, StandardCharsets.UTF_8).lines().toList(),
          ownerUid,
          id -> nameOf(id, passwd),
          id -> nameOf(id, group));
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The name of the first entry of {@code /etc/passwd} or {@code /etc/group} with this id. */
  private static String nameOf(long id, List<String> database) {
    String text = Long.toString(id);
    for (String line : database) {
      String[] f = line.split(":", -1);
      if (f.length >= 3 && f[2].equals(text)) {
        return f[0];
      }
    }
    return text;
  }

  /**
   * Every user in group {@code gid}: its listed members ({@code /etc/group}) and the users whose
   * primary group it is ({@code /etc/passwd}); null when the group is not in {@code /etc/group} (a
   * directory service's group is not known to be private).
   */
  private static @Nullable Set<String> groupMembers(long gid) {
    return groupMembers(gid, lines(GROUP_FILE), lines(PASSWD_FILE));
  }

  /**
   * {@link #groupMembers(long)} over these lines of {@code /etc/group} and {@code /etc/passwd}. A
   * group is judged by its gid, not by its name: the members of every entry with that gid count
   * ({@code groupadd -o} makes a second entry that shares it).
   */
  static @Nullable Set<String> groupMembers(long gid, List<String> group, List<String> passwd) {
    String id = Long.toString(gid);
    Set<String> members = null;
    for (String line : group) {
      String[] f = line.split(":", -1);
      if (f.length >= 4 && f[2].equals(id)) {
        if (members == null) {
          members = new TreeSet<>();
        }
        for (String m : f[3].split(",")) {
          if (!m.isBlank()) {
            members.add(m.strip());
          }
        }
      }
    }
    if (members == null) {
      return null;
    }
    for (String line : passwd) {
      String[] f = line.split(":", -1);
      if (f.length >= 4 && f[3].equals(id)) {
        members.add(f[0]);
      }
    }
    return members;
  }

  private static List<String> lines(Path file) {
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_DATABASE_BYTES) {
        return List.of();
      }
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return new ArrayList<>();
    }
  }

  /** The effective user id, from {@code /proc/self/status}; empty where it cannot be read. */
  static OptionalLong effectiveUid() {
    OptionalLong known = effectiveUid;
    if (known == null) {
      known = readEffectiveUid();
      effectiveUid = known;
    }
    return known;
  }

  private static OptionalLong readEffectiveUid() {
    for (String line : lines(PROC_STATUS)) {
      if (line.startsWith("Uid:")) {
        String[] f = line.substring(4).strip().split("\\s+");
        if (f.length >= 2) {
          try {
            return OptionalLong.of(Long.parseLong(f[1]));
          } catch (NumberFormatException e) {
            return OptionalLong.empty();
          }
        }
      }
    }
    return OptionalLong.empty();
  }
}
