package dev.kcshare.cli.records;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * Durable replacement of a record file (records spec §9.1, §9.2): readers see the old file or the
 * new one, never a torn one. Files are created 0600 and directories kcshare creates are 0700; on
 * file systems without POSIX modes the modes are best effort.
 */
final class AtomicFiles {
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> DIR_MODE =
      PosixFilePermissions.fromString("rwx------");

  private AtomicFiles() {}

  /**
   * Replaces {@code target} with {@code content}: exclusive temporary file in the same directory
   * (mode 0600 from creation), write, fsync, atomic rename, fsync of the directory. On failure the
   * temporary file is deleted and the exception propagates; the old file is untouched.
   */
  public static void write(Path target, byte[] content) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    createDirectories(dir);
    Path tmp =
        POSIX
            ? Files.createTempFile(
                dir,
                "." + target.getFileName() + ".",
                ".tmp",
                PosixFilePermissions.asFileAttribute(FILE_MODE))
            : Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
    boolean moved = false;
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(content);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      moved = true;
      syncDirectory(dir);
    } finally {
      if (!moved) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  /**
   * Creates {@code dir} and every missing parent with mode 0700. Existing directories are never
   * re-moded.
   */
  public static void createDirectories(Path dir) throws IOException {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path p = dir.toAbsolutePath(); p != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.push(p);
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
          throw e;
        }
      }
    }
  }

  /** Creates an empty file with mode 0600 if it does not exist (used for lock files). */
  static void createPrivateFile(Path file) throws IOException {
    createDirectories(file.toAbsolutePath().getParent());
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

  private static void syncDirectory(Path dir) {
    // Not every platform can open a directory for syncing; the rename is already atomic there.
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // best effort
    }
  }
}
