package dev.kcshare.core.records.internal;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongFunction;
import org.jspecify.annotations.Nullable;

/**
 * Whether a records directory may be written (docs/formats.md#who-may-write-the-records-directory):
 * only when nobody but the user running kcshare can change what is in it, the rule of OpenSSH's
 * {@code StrictModes} with Debian's allowance for a user's private group.
 *
 * <ul>
 *   <li>its owner is the effective user;
 *   <li>others have no write bit (a sticky {@code 1777} directory fails too: anyone may still
 *       create a name in it, a link where a lock belongs for instance);
 *   <li>the group has no write bit, or the group is the owner's private group: it bears the owner's
 *       user name and no group entry with its gid lists another member;
 *   <li>no POSIX ACL entry lets a user or group other than the owner write it (with an ACL the
 *       group bits are the ACL mask, so this matters only when they include write).
 * </ul>
 *
 * <p>Every ancestor of the directory's real path is checked too ({@link #ancestorProblem}): owned
 * by root or the effective user and writable by nobody else, except a sticky directory whose next
 * component root or the effective user owns (OpenSSH's rule for {@code ~/.ssh}). When kcshare runs
 * as root, an ancestor owned by another user is refused with the fix for a borrowed {@code HOME}
 * ({@link #ancestorRefusal}).
 *
 * <p>Pure: the caller gathers the facts ({@link Facts}) from the file system and the group
 * database.
 */
public final class DirectoryTrust {
  private static final int OTHER_WRITE = 0002;
  private static final int GROUP_WRITE = 0020;
  private static final int STICKY = 01000;

  private DirectoryTrust() {}

  /**
   * What is known about a directory.
   *
   * @param ownerUid the owner's user id
   * @param ownerName the owner's user name (its uid as text when it has none)
   * @param groupName the directory group's name (its gid as text when it has none)
   * @param mode the permission bits, including the sticky, setuid and setgid bits
   * @param groupMembers every user name in the directory's group (listed members of every group
   *     entry with its gid, and users whose primary group it is), or null when the group is not
   *     known to the local group database
   * @param aclWriters the users and groups other than the owner and the owning group that a POSIX
   *     ACL entry lets write ({@code user nobody}, {@code group staff}): empty when there is no
   *     such entry, null when it cannot be told
   */
  public record Facts(
      long ownerUid,
      String ownerName,
      String groupName,
      int mode,
      @Nullable Set<String> groupMembers,
      @Nullable Set<String> aclWriters) {
    /**
     * Validates and copies.
     *
     * @throws NullPointerException if a name is null
     */
    public Facts {
      Objects.requireNonNull(ownerName, "ownerName");
      Objects.requireNonNull(groupName, "groupName");
      groupMembers = groupMembers == null ? null : Set.copyOf(groupMembers);
      aclWriters = aclWriters == null ? null : Set.copyOf(aclWriters);
    }

    /**
     * Facts of a directory known to carry no ACL entry that grants write.
     *
     * @throws NullPointerException if a name is null
     */
    public Facts(
        long ownerUid,
        String ownerName,
        String groupName,
        int mode,
        @Nullable Set<String> groupMembers) {
      this(ownerUid, ownerName, groupName, mode, groupMembers, Set.of());
    }

    /** The permission bits as four octal digits: {@code 0755}, {@code 1777}. */
    public String octalMode() {
      return String.format("%04o", mode & 07777);
    }
  }

  /**
   * Why the directory must not be written, in words that complete "records directory DIR …", or
   * null when it may be.
   *
   * @param effectiveUid the user id kcshare runs as
   * @param facts the directory's owner, group and mode
   * @return the problem, or null
   */
  public static @Nullable String problem(long effectiveUid, Facts facts) {
    Objects.requireNonNull(facts, "facts");
    if ((facts.mode() & OTHER_WRITE) != 0) {
      return "is writable by others";
    }
    if (facts.ownerUid() != effectiveUid) {
      return "is owned by " + facts.ownerName() + ", not by the user running kcshare";
    }
    if ((facts.mode() & GROUP_WRITE) != 0) {
      Set<String> members = facts.groupMembers();
      if (!facts.groupName().equals(facts.ownerName())) {
        return "is writable by group " + facts.groupName();
      }
      if (members == null) {
        return "is writable by group " + facts.groupName() + ", not known to be a private group";
      }
      Set<String> others = new TreeSet<>(members);
      others.remove(facts.ownerName());
      if (!others.isEmpty()) {
        return "is writable by group "
            + facts.groupName()
            + ", which has other members ("
            + String.join(", ", others)
            + ")";
      }
      String acl = aclProblem(facts);
      if (acl != null) {
        return acl;
      }
    }
    return null;
  }

  /**
   * The {@link Facts#aclWriters} of a directory from its access ACL as {@code getfacl --omit-header
   * --numeric} prints it: every named {@code user:UID:} entry with write whose uid is not the
   * owner's, and every named {@code group:GID:} entry with write. The owner, owning-group, mask and
   * other entries are read from the mode bits instead, and default entries (inherited by new files)
   * do not let anyone write the directory itself.
   *
   * @param getfacl the lines printed
   * @param ownerUid the directory owner's uid
   * @param userName a uid's name (its number as text when it has none)
   * @param groupName a gid's name (its number as text when it has none)
   * @return {@code user NAME} and {@code group NAME} for each such entry
   */
  public static Set<String> aclWriters(
      List<String> getfacl,
      long ownerUid,
      LongFunction<String> userName,
      LongFunction<String> groupName) {
    Set<String> out = new TreeSet<>();
    for (String raw : getfacl) {
      int comment = raw.indexOf('#');
      String line = (comment >= 0 ? raw.substring(0, comment) : raw).strip();
      String[] f = line.split(":", -1);
      if (f.length != 3 || f[1].isEmpty() || f[2].indexOf('w') < 0) {
        continue;
      }
      long id;
      try {
        id = Long.parseLong(f[1]);
      } catch (NumberFormatException e) {
        continue;
      }
      if (f[0].equals("user") && id != ownerUid) {
        out.add("user " + userName.apply(id));
      } else if (f[0].equals("group")) {
        out.add("group " + groupName.apply(id));
      }
    }
    return out;
  }

  /** With the group write bit (the ACL mask) set: an ACL entry that lets someone else write. */
  private static @Nullable String aclProblem(Facts facts) {
    Set<String> writers = facts.aclWriters();
    if (writers == null) {
      return "is writable by group "
          + facts.groupName()
          + ", and whether an ACL lets others write it cannot be told";
    }
    if (!writers.isEmpty()) {
      return "has an ACL that lets " + String.join(", ", new TreeSet<>(writers)) + " write it";
    }
    return null;
  }

  /**
   * Why an ancestor of the records directory makes it untrusted, in words that complete "records
   * directory DIR lies under ANCESTOR, which …", or null when it does not: the ancestor must be
   * owned by root or the effective user, and writable by nobody else (the group rule and the ACL
   * rule are those of the directory itself), except that a sticky directory may be writable by
   * others when its next component on the path is owned by root or the effective user (nobody else
   * can rename or remove that component).
   *
   * @param effectiveUid the user id kcshare runs as
   * @param facts the ancestor's owner, group, mode and ACL
   * @param nextOwnedByUserOrRoot whether the next component on the path is owned by root or the
   *     effective user
   * @return the problem, or null
   */
  public static @Nullable String ancestorProblem(
      long effectiveUid, Facts facts, boolean nextOwnedByUserOrRoot) {
    Objects.requireNonNull(facts, "facts");
    if (facts.ownerUid() != 0 && facts.ownerUid() != effectiveUid) {
      return "is owned by " + facts.ownerName();
    }
    boolean sticky = (facts.mode() & STICKY) != 0;
    if ((facts.mode() & OTHER_WRITE) != 0 && !(sticky && nextOwnedByUserOrRoot)) {
      return sticky
          ? "is writable by others, and the next component is not owned by root or the user"
              + " running kcshare"
          : "is writable by others";
    }
    if ((facts.mode() & GROUP_WRITE) != 0 && !(sticky && nextOwnedByUserOrRoot)) {
      // The group rule and the ACL rule of the directory itself, for the ancestor's owner.
      return problem(facts.ownerUid(), facts);
    }
    return null;
  }

  /**
   * The one line that refuses to write under {@code ancestor}, or null when it is trusted ({@link
   * #ancestorProblem}). Run as root, an ancestor owned by another user gets the fix for a borrowed
   * {@code HOME}: {@code records directory /home/alice/.kiro/crew/mcp-gateway lies under
   * /home/alice, owned by alice: root does not create or replace files in another user's directory:
   * run sudo -H kcshare ..., sudo -u alice kcshare ..., or give --records-dir}.
   *
   * @param what what is refused, as it starts the line: {@code records directory /x}
   * @param ancestor the ancestor as it is shown (the caller escapes it)
   * @param alternative the last fix offered: {@code give --records-dir}; null for none
   * @param effectiveUid the user id kcshare runs as
   * @param facts the ancestor's facts
   * @param nextOwnedByUserOrRoot as for {@link #ancestorProblem}
   * @return the line, or null
   */
  public static @Nullable String ancestorRefusal(
      String what,
      String ancestor,
      @Nullable String alternative,
      long effectiveUid,
      Facts facts,
      boolean nextOwnedByUserOrRoot) {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(ancestor, "ancestor");
    String problem = ancestorProblem(effectiveUid, facts, nextOwnedByUserOrRoot);
    if (problem == null) {
      return null;
    }
    if (facts.ownerUid() != 0 && facts.ownerUid() != effectiveUid) {
      if (effectiveUid == 0) {
        return what
            + " lies under "
            + ancestor
            + ", owned by "
            + facts.ownerName()
            + ": "
            + borrowedHomeFix(facts.ownerName(), alternative);
      }
      return what
          + " lies under "
          + ancestor
          + ", owned by "
          + facts.ownerName()
          + ", not by root or the user running kcshare: run kcshare as its owner: sudo -u "
          + facts.ownerName()
          + " kcshare ..."
          + orElse(alternative);
    }
    return what
        + " lies under "
        + ancestor
        + ", which "
        + problem
        + " (owner "
        + facts.ownerName()
        + ", mode "
        + facts.octalMode()
        + "): run chmod go-w "
        + ancestor
        + orElse(alternative);
  }

  /**
   * The refusal of root's write under a directory {@code owner} owns, and its fixes: the {@code
   * HOME} of {@code su} without {@code -} or {@code sudo -E} is the usual cause, so {@code sudo -H}
   * (root's own home) comes first, then running as the owner, then the caller's alternative.
   */
  private static String borrowedHomeFix(String owner, @Nullable String alternative) {
    return "root does not create or replace files in another user's directory: run sudo -H"
        + " kcshare ..."
        + (alternative == null ? " or " : ", ")
        + "sudo -u "
        + owner
        + " kcshare ..."
        + orElse(alternative);
  }

  private static String orElse(@Nullable String alternative) {
    return alternative == null ? "" : ", or " + alternative;
  }

  /**
   * The one line that refuses to write {@code directory}, or null when it may be written: {@code
   * records directory /x is writable by others (owner alice, mode 1777): run chmod go-w /x, or run
   * kcshare as its owner: sudo -u alice kcshare ...}.
   *
   * @param directory the directory as it is shown (the caller escapes it)
   * @param effectiveUid the user id kcshare runs as
   * @param facts the directory's owner, group and mode
   * @return the line, or null
   */
  public static @Nullable String refusal(String directory, long effectiveUid, Facts facts) {
    return refusal("records directory", directory, "give --records-dir", effectiveUid, facts);
  }

  /**
   * {@link #refusal(String, long, Facts)} for another kind of directory: {@code capture directory}.
   * Run as root, a directory another user owns gets the fixes for a borrowed {@code HOME} ({@link
   * #ancestorRefusal}), ending with {@code alternative}.
   *
   * @param noun what the directory is, as the line starts
   * @param directory the directory as it is shown (the caller escapes it)
   * @param alternative the last fix offered to root: {@code give --records-dir}; null for none
   * @param effectiveUid the user id kcshare runs as
   * @param facts the directory's owner, group and mode
   * @return the line, or null
   */
  public static @Nullable String refusal(
      String noun, String directory, @Nullable String alternative, long effectiveUid, Facts facts) {
    Objects.requireNonNull(noun, "noun");
    Objects.requireNonNull(directory, "directory");
    String problem = problem(effectiveUid, facts);
    if (problem == null) {
      return null;
    }
    boolean widelyWritable = (facts.mode() & (OTHER_WRITE | GROUP_WRITE)) != 0;
    boolean otherOwner = facts.ownerUid() != effectiveUid;
    StringBuilder fix = new StringBuilder();
    if (widelyWritable) {
      fix.append("run chmod go-w ").append(directory);
    }
    if (otherOwner && effectiveUid == 0) {
      fix.append(fix.length() == 0 ? "" : ", or ")
          .append(borrowedHomeFix(facts.ownerName(), alternative));
    } else if (otherOwner) {
      fix.append(fix.length() == 0 ? "" : ", or ")
          .append("run kcshare as its owner: sudo -u ")
          .append(facts.ownerName())
          .append(" kcshare ...");
    }
    return noun
        + " "
        + directory
        + " "
        + problem
        + " (owner "
        + facts.ownerName()
        + ", mode "
        + facts.octalMode()
        + "): "
        + fix;
  }
}
