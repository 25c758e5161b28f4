package dev.kcshare.host.records;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * Durable replacement of a record file (docs/design.md#writing-files): readers see the old file or
 * the new one, never a torn one. Files are created 0600 and directories kcshare creates are 0700;
 * on file systems without POSIX modes the modes are best effort.
 *
 * <p>A writer killed between creating its temporary file and renaming it leaves that file behind
 * ({@code .<name>.<digits>.tmp}, 0600, never read by anyone). The next successful write of the same
 * target removes such leftovers when they are older than its own temporary file, so at most the
 * leftover of the most recently killed writer survives. Every kcshare writer of a record file holds
 * that file's lock, so a temporary file older than the lock holder's own can only be a leftover.
 */
public final class AtomicFiles {
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> DIR_MODE =
      PosixFilePermissions.fromString("rwx------");
  private static final String TMP_SUFFIX = ".tmp";

  private AtomicFiles() {}

  /**
   * Fails a write the way the file system would: an instrumentation seam for tests of full and
   * read-only disks (it runs after the content was written to the temporary file, before the sync).
   */
  @FunctionalInterface
  public interface WriteFault {
    /**
     * Throws to make the write of {@code target} fail.
     *
     * @param target the file being replaced
     * @param temporary the temporary file holding the new content
     * @throws IOException the failure to simulate
     */
    void check(Path target, Path temporary) throws IOException;
  }

  private static volatile @Nullable WriteFault fault;

  /**
   * Installs a {@link WriteFault} for every following write (null removes it). An instrumentation
   * seam for tests; never set in production.
   *
   * @param writeFault the fault, or null
   */
  public static void simulateFault(@Nullable WriteFault writeFault) {
    fault = writeFault;
  }

  /**
   * Replaces {@code target} with {@code content}: exclusive temporary file in the same directory
   * (mode 0600 from creation), write, fsync, atomic rename, fsync of the directory. On failure the
   * temporary file is deleted and the exception propagates; the old file is untouched.
   */
  public static void write(Path target, byte[] content) throws IOException {
    write(target, content, null);
  }

  /**
   * {@link #write(Path, byte[])} for a file that is not a record file and keeps its own mode (an
   * operator's configuration file): the temporary file is still 0600 while it is written, and gets
   * {@code mode} just before the rename, so the content is never visible more widely than the
   * target allows. The mode is set explicitly, so the umask cannot narrow it.
   *
   * @param mode the mode the replaced file gets; null for 0600 (the record-file mode)
   */
  public static void write(Path target, byte[] content, @Nullable Set<PosixFilePermission> mode)
      throws IOException {
    write(target, content, mode, true);
  }

  /**
   * {@link #write(Path, byte[])} without syncing to disk: still atomic (readers see the old file or
   * the new one), for kcshare's own bookkeeping that a crash of the host makes moot anyway.
   */
  public static void writeUnsynced(Path target, byte[] content) throws IOException {
    write(target, content, null, false);
  }

  private static void write(
      Path target, byte[] content, @Nullable Set<PosixFilePermission> mode, boolean sync)
      throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    RecordsTrust.requireRootMayWriteIn(dir, "file " + target);
    createDirectories(dir);
    Temporary temporary = createTemporary(dir, target.getFileName().toString());
    Path tmp = temporary.path();
    @Nullable FileTime started = modifiedTime(tmp);
    boolean moved = false;
    try {
      try (FileChannel ch = temporary.channel()) {
        ByteBuffer buf = ByteBuffer.wrap(content);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        WriteFault f = fault;
        if (f != null) {
          f.check(target, tmp);
        }
        if (sync) {
          ch.force(true);
        }
      }
      if (POSIX && mode != null) {
        Files.setPosixFilePermissions(tmp, mode);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      moved = true;
      if (sync) {
        syncDirectory(dir);
      }
    } finally {
      if (!moved) {
        Files.deleteIfExists(tmp);
      }
    }
    if (started != null) {
      removeStaleTemporaries(dir, target.getFileName().toString(), started);
    }
  }

  /** A temporary file just created, and the channel it was created through. */
  private record Temporary(Path path, FileChannel channel) {}

  /**
   * Creates and opens the temporary file for {@code target} in {@code dir} in one step, exclusively
   * ({@code CREATE_NEW}: an existing name, or a symbolic link, is never opened, and the file
   * written is the one created) and 0600 from creation: {@code .TARGET.N.tmp}, N an unsigned
   * decimal random number, the names {@link Files#createTempFile} gives. The number comes from
   * {@link ThreadLocalRandom}: a name needs to be unlikely to be taken, not unpredictable, since a
   * taken one is simply never used; {@code createTempFile}'s {@code SecureRandom} cost some 25 ms
   * of class loading and seeding on the path of every pass's write.
   */
  private static Temporary createTemporary(Path dir, String targetName) throws IOException {
    Set<OpenOption> options = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    for (int attempt = 1; ; attempt++) {
      String n = Long.toUnsignedString(ThreadLocalRandom.current().nextLong());
      Path tmp = dir.resolve("." + targetName + "." + n + TMP_SUFFIX);
      try {
        FileChannel channel =
            POSIX
                ? FileChannel.open(tmp, options, PosixFilePermissions.asFileAttribute(FILE_MODE))
                : FileChannel.open(tmp, options);
        return new Temporary(tmp, channel);
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 100) {
          throw e;
        }
      }
    }
  }

  /** Whether {@code name} is a temporary file name {@link #write} uses for {@code target}. */
  static boolean isTemporaryName(String name, String target) {
    String prefix = "." + target + ".";
    if (!name.startsWith(prefix)
        || !name.endsWith(TMP_SUFFIX)
        || name.length() <= prefix.length() + TMP_SUFFIX.length()) {
      return false;
    }
    // An unsigned decimal random number between prefix and suffix (createTemporary).
    for (int i = prefix.length(); i < name.length() - TMP_SUFFIX.length(); i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * Best effort: deletes regular files in {@code dir} named like {@code target}'s temporary files
   * whose modification time is strictly before {@code before}. Failures are ignored: a leftover is
   * harmless, and the write it follows has already succeeded.
   */
  static void removeStaleTemporaries(Path dir, String target, FileTime before) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (!isTemporaryName(entry.getFileName().toString(), target)) {
          continue;
        }
        try {
          BasicFileAttributes attrs =
              Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          if (attrs.isRegularFile() && attrs.lastModifiedTime().compareTo(before) < 0) {
            Files.deleteIfExists(entry);
          }
        } catch (IOException e) {
          // gone already, or not ours to delete
        }
      }
    } catch (IOException | DirectoryIteratorException e) {
      // best effort
    }
  }

  private static @Nullable FileTime modifiedTime(Path file) {
    try {
      return Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return null;
    }
  }

  /** The POSIX mode of an existing file; null when it is missing or the file system has none. */
  public static @Nullable Set<PosixFilePermission> modeOf(Path file) throws IOException {
    if (!POSIX) {
      return null;
    }
    try {
      return Files.getPosixFilePermissions(file);
    } catch (java.nio.file.NoSuchFileException e) {
      return null;
    }
  }

  /**
   * Creates {@code dir} and every missing parent with mode 0700. Existing directories are never
   * re-moded. Run as root, nothing is created under a directory another user owns ({@link
   * RecordsTrust#requireRootMayWriteIn}).
   *
   * @throws FileProblem when root would create a directory under another user's directory ({@link
   *     FileProblem#isRefused()})
   */
  public static void createDirectories(Path dir) throws IOException {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path p = dir.toAbsolutePath(); p != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.push(p);
    }
    if (!missing.isEmpty()) {
      RecordsTrust.requireRootMayWriteIn(dir, "directory " + dir);
    }
    while (!missing.isEmpty()) {
      Path p = missing.pop();
      try {
        if (POSIX) {
          FileAttribute<Set<PosixFilePermission>> mode =
              PosixFilePermissions.asFileAttribute(DIR_MODE);
          Files.createDirectory(p, mode);
          Files.setPosixFilePermissions(p, DIR_MODE); // the umask may have narrowed it further
        } else {
          Files.createDirectory(p);
        }
      } catch (java.nio.file.FileAlreadyExistsException e) {
        if (!Files.isDirectory(p)) {
          java.nio.file.FileSystemException notADirectory =
              new java.nio.file.FileSystemException(p.toString(), null, "Not a directory");
          notADirectory.initCause(e);
          throw notADirectory;
        }
      }
    }
  }

  /** Creates an empty file with mode 0600 if it does not exist (used for lock files). */
  static void createPrivateFile(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    RecordsTrust.requireRootMayWriteIn(dir, "file " + file);
    createDirectories(dir);
    try {
      if (POSIX) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE_MODE));
      } else {
        Files.createFile(file);
      }
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // another process created it first: fine
    }
  }

  /**
   * Opens {@code file} for writing without following a symbolic link and without truncating it,
   * creating it 0600 if it is missing (used for lock files).
   */
  static FileChannel openPrivate(Path file) throws IOException {
    Set<OpenOption> options =
        Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE, LinkOption.NOFOLLOW_LINKS);
    return POSIX
        ? FileChannel.open(file, options, PosixFilePermissions.asFileAttribute(FILE_MODE))
        : FileChannel.open(file, options);
  }

  private static void syncDirectory(Path dir) {
    // Not every platform can open a directory for syncing; the rename is already atomic there.
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // best effort
    }
  }
}
