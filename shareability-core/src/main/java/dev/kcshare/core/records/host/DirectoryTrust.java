package dev.kcshare.core.records.host;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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
 *       user name and has no other member.
 * </ul>
 *
 * <p>Pure: the caller gathers the facts ({@link Facts}) from the file system and the group
 * database.
 */
public final class DirectoryTrust {
  private static final int OTHER_WRITE = 0002;
  private static final int GROUP_WRITE = 0020;

  private DirectoryTrust() {}

  /**
   * What is known about a directory.
   *
   * @param ownerUid the owner's user id
   * @param ownerName the owner's user name (its uid as text when it has none)
   * @param groupName the directory group's name (its gid as text when it has none)
   * @param mode the permission bits, including the sticky, setuid and setgid bits
   * @param groupMembers every user name in the directory's group (listed members and users whose
   *     primary group it is), or null when the group is not known to the local group database
   */
  public record Facts(
      long ownerUid,
      String ownerName,
      String groupName,
      int mode,
      @Nullable Set<String> groupMembers) {
    /**
     * Validates and copies.
     *
     * @throws NullPointerException if a name is null
     */
    public Facts {
      Objects.requireNonNull(ownerName, "ownerName");
      Objects.requireNonNull(groupName, "groupName");
      groupMembers = groupMembers == null ? null : Set.copyOf(groupMembers);
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
    }
    return null;
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
    if (otherOwner) {
      fix.append(fix.length() == 0 ? "" : ", or ")
          .append("run kcshare as its owner: sudo -u ")
          .append(facts.ownerName())
          .append(" kcshare ...");
    }
    return "records directory "
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
