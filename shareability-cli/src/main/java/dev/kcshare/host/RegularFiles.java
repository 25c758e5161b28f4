package dev.kcshare.host;

import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one rule for every file kcshare reads as input (record files, client configurations, env
 * files, the Kiro Crew configuration, documents named on the command line): only a regular file up
 * to a size bound is read, and that is decided by {@code stat} before anything is opened
 * (docs/design.md#read-tolerance). A named pipe, a device, a socket or a directory is never opened,
 * so it cannot block a reader; a file over the bound is never read. What is then opened is read
 * through a stream that fails once more than the bound arrived, so memory stays within the bound
 * even for a file that grows after the {@code stat}. A symbolic link is followed: a link to a
 * regular file is read like the file.
 */
public final class RegularFiles {
  private RegularFiles() {}

  /** What {@link #examine} found at a path. */
  public enum Kind {
    /** Nothing at the path. */
    MISSING,
    /** A symbolic link whose target does not exist. */
    DANGLING_LINK,
    /** A directory. */
    DIRECTORY,
    /** A named pipe, a device, a socket, or another special file. */
    SPECIAL,
    /** A regular file larger than the bound. */
    TOO_LARGE,
    /** A regular file within the bound: the only kind that may be opened. */
    REGULAR
  }

  /**
   * What is at a path.
   *
   * @param kind what was found
   * @param size the size {@code stat} reported (-1 when nothing was found)
   * @param description what a non-regular file is, in words ({@code a named pipe}, {@code a
   *     character device}, {@code a directory}, {@code a symbolic link to nothing}), or null
   */
  public record Found(Kind kind, long size, @Nullable String description) {
    public Found {
      Objects.requireNonNull(kind, "kind");
    }

    /** Whether the file may be opened and read. */
    public boolean readable() {
      return kind == Kind.REGULAR;
    }
  }

  /**
   * Looks at {@code file} without opening it.
   *
   * @param maxBytes the largest size read
   * @throws IOException when even {@code stat} fails (a directory on the way cannot be searched)
   */
  public static Found examine(Path file, long maxBytes) throws IOException {
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      if (Files.isSymbolicLink(file)) {
        return new Found(Kind.DANGLING_LINK, -1, "a symbolic link to nothing");
      }
      return new Found(Kind.MISSING, -1, null);
    } catch (SecurityException e) {
      throw new IOException(FileProblems.reason(e), e);
    }
    if (attrs.isDirectory()) {
      return new Found(Kind.DIRECTORY, attrs.size(), "a directory");
    }
    if (!attrs.isRegularFile()) {
      return new Found(Kind.SPECIAL, attrs.size(), special(file));
    }
    if (attrs.size() > maxBytes) {
      return new Found(Kind.TOO_LARGE, attrs.size(), null);
    }
    return new Found(Kind.REGULAR, attrs.size(), null);
  }

  /**
   * Opens a file {@link #examine} found {@link Kind#REGULAR}: reading more than {@code maxBytes}
   * from the stream throws {@link TooLarge}.
   */
  public static InputStream open(Path file, long maxBytes) throws IOException {
    return new Bounded(new FileInputStream(file.toFile()), maxBytes);
  }

  /**
   * Reads all of {@code file} when it is a regular file within {@code maxBytes}.
   *
   * @throws NoSuchFileException when nothing is at the path (a dangling link included)
   * @throws Refused when something other than a readable regular file is there, or it turned out
   *     larger than the bound while being read
   * @throws IOException when it cannot be read
   */
  public static byte[] readAll(Path file, long maxBytes) throws IOException {
    Found found = examine(file, maxBytes);
    switch (found.kind()) {
      case MISSING, DANGLING_LINK -> throw new NoSuchFileException(file.toString());
      case REGULAR -> {
        // read below
      }
      default -> throw new Refused(found);
    }
    try (InputStream in = open(file, maxBytes)) {
      return in.readAllBytes();
    } catch (TooLarge e) {
      throw new Refused(new Found(Kind.TOO_LARGE, -1, null));
    }
  }

  /** What a special file is, in words. */
  private static String special(Path file) {
    try {
      int mode = (Integer) Files.getAttribute(file, "unix:mode");
      switch (mode & 0170000) {
        case 0010000:
          return "a named pipe";
        case 0020000:
          return "a character device";
        case 0060000:
          return "a block device";
        case 0140000:
          return "a socket";
        default:
          break;
      }
    } catch (IOException | RuntimeException e) {
      // no unix view: say it plainly
    }
    return Files.isSymbolicLink(file) ? "a symbolic link to a special file" : "a special file";
  }

  /** Something other than a readable regular file was found where one was to be read. */
  public static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Found found;

    Refused(Found found) {
      super(
          found.kind() == Kind.TOO_LARGE
              ? "too large"
              : "not a regular file (" + found.description() + ")");
      this.found = found;
    }

    /** What was found. */
    public Found found() {
      return found;
    }
  }

  /** More bytes than the bound arrived (the file grew, or is not what stat said). */
  public static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(long maxBytes) {
      super("larger than " + maxBytes + " bytes");
    }
  }

  /** Fails once more than the bound was read. */
  private static final class Bounded extends FilterInputStream {
    private final long maxBytes;
    private long read;

    Bounded(InputStream in, long maxBytes) {
      super(in);
      this.maxBytes = maxBytes;
    }

    private void count(long n) throws TooLarge {
      if (n > 0) {
        read += n;
        if (read > maxBytes) {
          throw new TooLarge(maxBytes);
        }
      }
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      count(n);
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      count(skipped);
      return skipped;
    }
  }
}
