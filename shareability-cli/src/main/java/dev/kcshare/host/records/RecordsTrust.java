package dev.kcshare.host.records;

import dev.kcshare.core.cost.internal.ProcText;
import dev.kcshare.core.records.internal.DirectoryTrust;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.FileProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

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

  /** How many times {@code getfacl} was started in this JVM (for the tests of its cost). */
  private static final AtomicLong ACL_READS = new AtomicLong();

  /** The records directories whose read warning this JVM has given. */
  private static final Set<Path> WARNED = ConcurrentHashMap.newKeySet();

  private RecordsTrust() {}

  /**
   * Refuses to go on unless kcshare may write in {@code dir}; a missing directory is created first
   * (0700, with every missing parent), so the check is made on the directory that will be written.
   * Before anything is created, the part of the path that exists must already pass the ancestor
   * rule ({@link DirectoryTrust#ancestorRefusal}): root creates nothing under another user's
   * directory.
   *
   * @param dir the records directory
   * @return the directory's real path, checked: every later operation uses it, so a link along
   *     {@code dir} retargeted after the check changes nothing (each directory of the real path is
   *     root's or the user's and writable by nobody else, so nobody else can change what it names)
   * @throws FileProblem when others may write it ({@link FileProblem#isRefused()}): one line naming
   *     the directory, its owner and mode, and the fix
   * @throws IOException when it cannot be created or examined
   */
  public static Path requireWritable(Path dir) throws IOException {
    String what = "records directory " + dir;
    Path existing = nearestExisting(dir);
    if (existing != null && !existing.equals(dir.toAbsolutePath())) {
      String refusal = chainRefusal(what, existing.toRealPath(), RECORDS_ALTERNATIVE);
      if (refusal != null) {
        throw FileProblem.refused(dir, refusal);
      }
    }
    AtomicFiles.createDirectories(dir);
    return requireTrusted(dir, "records directory");
  }

  /**
   * What {@link #requireWritable(Path)} would refuse, checked without creating or writing anything,
   * for a gateway's start-up check: a path that is not a directory, one others may write (or an
   * ancestor that lets them), and one this process cannot write. A missing directory is checked
   * through the part of its path that exists, which must be a directory this process may create it
   * in.
   *
   * @param dir the records directory
   * @throws FileProblem for each of those, naming the path and the reason (a trust refusal is
   *     {@link FileProblem#isRefused()})
   * @throws IOException when the path cannot be examined
   */
  public static void check(Path dir) throws IOException {
    Path absolute = dir.toAbsolutePath();
    Path existing = nearestExisting(absolute);
    if (existing == null) {
      throw FileProblem.unusable(
          dir, "cannot use records directory " + dir + ": no such directory");
    }
    Path real = existing.toRealPath();
    if (!Files.isDirectory(real)) {
      throw FileProblem.unusable(
          dir, "cannot use records directory " + dir + ": " + existing + " is not a directory");
    }
    if (existing.equals(absolute)) {
      requireTrusted(dir, "records directory");
    } else {
      String refusal = chainRefusal("records directory " + dir, real, RECORDS_ALTERNATIVE);
      if (refusal != null) {
        throw FileProblem.refused(dir, refusal);
      }
    }
    if (!Files.isWritable(real)) {
      throw FileProblem.unusable(
          dir,
          "cannot use records directory "
              + dir
              + ": "
              + (existing.equals(absolute) ? "it is" : existing + " is")
              + " not writable (read-only or permission denied)");
    }
  }

  /**
   * The same rule for another directory kcshare writes into ({@code capture directory}), which must
   * exist: refuses it when others may write it or it is not the effective user's.
   *
   * @param dir the directory
   * @param noun what it is, as the refusal starts
   * @return the directory's real path, checked
   * @throws FileProblem when others may write it ({@link FileProblem#isRefused()})
   * @throws IOException when it cannot be examined
   */
  public static Path requireWritable(Path dir, String noun) throws IOException {
    return requireTrusted(dir, noun);
  }

  /**
   * {@link #requireWritable(Path)} for the directory of a record file, and the file as it is then
   * written: in the directory's real path.
   *
   * @param file a file in the records directory
   * @return the same file name in the checked real directory
   * @throws IOException as {@link #requireWritable(Path)}
   */
  public static Path requireWritableFile(Path file) throws IOException {
    Path name = file.getFileName();
    if (name == null) {
      throw new IOException(file + ": not a file name");
    }
    return requireWritable(file.toAbsolutePath().getParent()).resolve(name);
  }

  /**
   * Why {@code dir} would not be written, for a command that only reads it (and warns), or null
   * when it would be, or when it does not exist, is not a directory or cannot be examined (a read
   * says why: each file reads as "not a directory"). A file's mode says nothing about who may write
   * into a directory, and a warning built on it would tell the operator to {@code chmod go-w
   * /dev/null}.
   *
   * @param dir the records directory
   * @return the line, or null
   */
  public static @Nullable String readWarning(Path dir) {
    try {
      Path real;
      try {
        real = dir.toRealPath();
      } catch (NoSuchFileException e) {
        return null;
      }
      if (!Files.isDirectory(real)) {
        return null;
      }
      return refusal(dir, real, "records directory", RECORDS_ALTERNATIVE);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * {@link #readWarning}, the first time it is asked for {@code dir} in this JVM; null after that,
   * so that a command and the facade it builds say it once between them.
   *
   * @param dir the records directory
   * @return the line, or null
   */
  public static @Nullable String readWarningOnce(Path dir) {
    Path key = dir.toAbsolutePath().normalize();
    if (WARNED.contains(key)) {
      return null; // said already: not examined again
    }
    String warning = readWarning(dir);
    return warning != null && WARNED.add(key) ? warning : null;
  }

  /**
   * Logs {@link #readWarningOnce} at WARN when there is one: the records are read anyway
   * (docs/security.md#who-may-write-the-records-directory), and every write there is refused.
   *
   * @param dir the records directory
   */
  public static void warnOnRead(Path dir) {
    String warning = readWarningOnce(dir);
    if (warning != null) {
      LoggerFactory.getLogger(RecordsTrust.class)
          .warn(
              "{} (read anyway; nothing is written there until then)",
              Escaper.esc(warning, Escaper.LONG_LIMIT));
    }
  }

  /**
   * Root's rule for every file kcshare creates or replaces (docs/security.md): when kcshare runs as
   * root, nothing is created under a directory another user owns, wherever it lies (the {@code
   * HOME} of {@code su} without {@code -}, or of {@code sudo -E}, is the usual one). Checked on the
   * part of {@code dir}'s path that exists, followed to its real path, before anything is created.
   * Nothing is checked for any other user: the records directory's rule covers what they write.
   *
   * @param dir the directory the file is created in (it may not exist yet)
   * @param what what is written, as the refusal starts: {@code file /home/alice/x.json}
   * @throws FileProblem when it is refused ({@link FileProblem#isRefused()})
   */
  static void requireRootMayWriteIn(Path dir, String what) throws IOException {
    OptionalLong self = effectiveUid();
    if (self.isEmpty() || self.getAsLong() != 0 || !UNIX) {
      return;
    }
    Path existing = nearestExisting(dir);
    if (existing == null) {
      return;
    }
    Names names = new Names();
    long childUid = -1; // none: the nearest existing directory is the first
    for (Path p = existing.toRealPath(); p != null; p = p.getParent()) {
      long uid = Integer.toUnsignedLong((Integer) Files.getAttribute(p, "unix:uid"));
      if (uid != 0) {
        String refusal =
            DirectoryTrust.ancestorRefusal(
                what, p.toString(), null, 0, facts(p, names), childUid == -1 || childUid == 0);
        if (refusal != null) {
          throw FileProblem.refused(dir, refusal);
        }
      }
      childUid = uid;
    }
  }

  private static final String RECORDS_ALTERNATIVE = "give --records-dir";
  private static final boolean UNIX =
      Path.of("/").getFileSystem().supportedFileAttributeViews().contains("unix");

  private static Path requireTrusted(Path dir, String noun) throws IOException {
    Path real = dir.toRealPath();
    String refusal =
        refusal(
            dir,
            real,
            noun,
            noun.equals("records directory")
                ? RECORDS_ALTERNATIVE
                : "give another --capture directory");
    if (refusal != null) {
      throw FileProblem.refused(dir, refusal);
    }
    return real;
  }

  /** The directory itself ({@link DirectoryTrust#refusal}), then each ancestor of its real path. */
  private static @Nullable String refusal(Path dir, Path real, String noun, String alternative)
      throws IOException {
    if (!real.getFileSystem().supportedFileAttributeViews().contains("unix")) {
      return null;
    }
    Names names = new Names();
    DirectoryTrust.Facts facts = facts(real, names);
    long euid = effectiveUid(facts.ownerUid(), facts.ownerName());
    String refusal = DirectoryTrust.refusal(noun, dir.toString(), alternative, euid, facts);
    if (refusal != null) {
      return refusal;
    }
    return chainRefusal(noun + " " + dir, real, facts, alternative, names);
  }

  /**
   * The first ancestor along the real path {@code real} that makes it untrusted ({@link
   * DirectoryTrust#ancestorRefusal}), nearest first, or null; {@code real} itself counts as one (it
   * is the existing part of a path still to be created, by the user).
   */
  private static @Nullable String chainRefusal(String what, Path real, String alternative)
      throws IOException {
    if (!UNIX) {
      return null;
    }
    return ancestorsRefusal(what, real, null, alternative, new Names());
  }

  /**
   * As {@link #chainRefusal(String, Path, String)} for the ancestors of {@code real} only, whose
   * own {@code facts} were read already.
   */
  private static @Nullable String chainRefusal(
      String what, Path real, DirectoryTrust.Facts facts, String alternative, Names names)
      throws IOException {
    Path parent = real.getParent();
    return parent == null ? null : ancestorsRefusal(what, parent, facts, alternative, names);
  }

  /**
   * Each directory from {@code first} up to the root, nearest first: the first that makes the path
   * untrusted, or null. {@code child} is what was read of the directory below {@code first}, or
   * null when {@code first} is the path itself.
   */
  private static @Nullable String ancestorsRefusal(
      String what,
      Path first,
      DirectoryTrust.@Nullable Facts child,
      String alternative,
      Names names)
      throws IOException {
    long euid = -1;
    OptionalLong self = effectiveUid();
    for (Path p = first; p != null; p = p.getParent()) {
      DirectoryTrust.Facts facts = facts(p, names);
      if (euid == -1) {
        euid =
            self.isPresent() ? self.getAsLong() : effectiveUid(facts.ownerUid(), facts.ownerName());
      }
      boolean nextOwned = child == null || child.ownerUid() == 0 || child.ownerUid() == euid;
      String refusal =
          DirectoryTrust.ancestorRefusal(what, p.toString(), alternative, euid, facts, nextOwned);
      if (refusal != null) {
        return refusal;
      }
      child = facts;
    }
    return null;
  }

  /** The nearest of {@code dir} and its parents that exists (links followed), or null. */
  private static @Nullable Path nearestExisting(Path dir) {
    for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p)) {
        return p;
      }
    }
    return null;
  }

  /**
   * The facts {@link DirectoryTrust} decides on for the real directory {@code real}, from one
   * {@code stat} (two when {@code names} does not know its owner's or group's name yet, the second
   * giving ids and names together); the group's members and the ACL are read only when the group
   * bits allow write.
   */
  private static DirectoryTrust.Facts facts(Path real, Names names) throws IOException {
    Map<String, Object> a = Files.readAttributes(real, "unix:uid,gid,mode");
    String owner = names.users.get(a.get("uid"));
    String group = names.groups.get(a.get("gid"));
    if (owner == null || group == null) {
      a = Files.readAttributes(real, "unix:uid,gid,mode,owner,group");
      owner = ((UserPrincipal) a.get("owner")).getName();
      group = ((GroupPrincipal) a.get("group")).getName();
      names.users.put((Integer) a.get("uid"), owner);
      names.groups.put((Integer) a.get("gid"), group);
    }
    long uid = Integer.toUnsignedLong((Integer) a.get("uid"));
    long gid = Integer.toUnsignedLong((Integer) a.get("gid"));
    int mode = (Integer) a.get("mode");
    // With an ACL the group bits are its mask: only when they allow write can an entry grant it.
    // Where others may write anyway, neither the group nor the ACL can change the answer
    // (DirectoryTrust decides on the other and sticky bits first), so neither is read.
    boolean groupDecides = (mode & 0020) != 0 && (mode & 0002) == 0;
    Set<String> members = groupDecides ? groupMembers(gid) : Set.of();
    Set<String> aclWriters = groupDecides ? aclWriters(real, uid) : Set.of();
    return new DirectoryTrust.Facts(uid, owner, group, mode, members, aclWriters);
  }

  /**
   * The user and group names of the ids one check has met, so that a path whose directories are
   * mostly root's looks each name up once, not once per directory (each lookup reads {@code
   * /etc/passwd} or {@code /etc/group}, or asks a directory service).
   */
  private static final class Names {
    final Map<Integer, String> users = new HashMap<>(4);
    final Map<Integer, String> groups = new HashMap<>(4);
  }

  /**
   * The effective user id; where {@code /proc} cannot tell, the owner's id when the owner's name is
   * the JVM's {@code user.name} (the real user), else -1 (nobody).
   */
  private static long effectiveUid(long ownerUid, String ownerName) {
    OptionalLong self = effectiveUid();
    if (self.isPresent()) {
      return self.getAsLong();
    }
    return ownerName.equals(System.getProperty("user.name")) ? ownerUid : -1;
  }

  /**
   * Who besides the owner a POSIX ACL entry of {@code dir} lets write it ({@link
   * DirectoryTrust#aclWriters}), read with {@code getfacl} (Debian's {@code acl} package); null
   * when that cannot be told (no {@code getfacl}, or it failed), which leaves a group-writable
   * directory untrusted.
   */
  private static @Nullable Set<String> aclWriters(Path dir, long ownerUid) throws IOException {
    // Only the owner or root can change an ACL, and every change (setfacl, chmod, chown) sets the
    // status-change time: an answer read for this file and this ctime is still the answer.
    AclKey key =
        new AclKey(
            dir,
            Files.readAttributes(dir, java.nio.file.attribute.BasicFileAttributes.class).fileKey(),
            Files.getAttribute(dir, "unix:ctime"),
            ownerUid);
    Set<String> known = ACLS.get(key);
    if (known != null) {
      return known;
    }
    Set<String> read = readAclWriters(dir, ownerUid);
    if (read != null) {
      if (ACLS.size() >= MAX_ACLS) {
        ACLS.clear();
      }
      ACLS.put(key, read);
    }
    return read;
  }

  /** The ACL answers this JVM read, by directory, file key and status-change time. */
  private record AclKey(Path dir, @Nullable Object fileKey, Object ctime, long ownerUid) {}

  private static final int MAX_ACLS = 64;
  private static final Map<AclKey, Set<String>> ACLS = new ConcurrentHashMap<>();

  private static @Nullable Set<String> readAclWriters(Path dir, long ownerUid) {
    if (!Files.isExecutable(GETFACL)) {
      return null;
    }
    try {
      ACL_READS.incrementAndGet();
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

  /** How many times {@code getfacl} was started in this JVM. */
  static long aclReads() {
    return ACL_READS.get();
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
    return ProcText.uid(String.join("\n", lines(PROC_STATUS)), 1);
  }
}
