package dev.kcshare.host.prober;

import dev.kcshare.core.cost.internal.ProcScreen;
import dev.kcshare.core.cost.internal.ProcText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongUnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * What Linux's {@code /proc} says about processes: from {@code /proc/PID/stat} the parent, process
 * group, state and start time (clock ticks since boot, which never repeats for a recycled pid while
 * the host is up); from {@code /proc/PID/status} the real and effective user; from {@code
 * /proc/PID/environ} whether an environment entry is present; from the owner of {@code /proc/PID}
 * (one {@code stat}, nothing opened) whose process it may be, and from {@code
 * /proc/PID/task/TID/children} the children of its threads. Where there is no {@code /proc}, every
 * answer is "unknown" (empty or null). {@link #at} reads another tree laid out the same way, for
 * tests.
 */
final class ProcFs {
  /** The most of {@code /proc/PID/environ} that is read; a larger environment counts as unread. */
  static final int ENVIRON_LIMIT = 8 * 1024 * 1024;

  /** What {@link #owner} answers for a process that is gone or whose directory cannot be read. */
  static final long NO_OWNER = -2;

  private static final ProcFs SYSTEM = new ProcFs(Path.of("/proc"), null);

  private final Path root;

  /** The owner of each process's directory, or null to read it from the directory itself. */
  private final @Nullable LongUnaryOperator owners;

  private volatile @Nullable Boolean childLists;

  /** {@code pid_max} once read; 0 before. */
  private volatile long pidMax;

  private ProcFs(Path root, @Nullable LongUnaryOperator owners) {
    this.root = root;
    this.owners = owners;
  }

  /** This host's {@code /proc}. */
  static ProcFs system() {
    return SYSTEM;
  }

  /**
   * A tree laid out like {@code /proc} ({@code root/PID/stat}, {@code status}, {@code environ}).
   */
  static ProcFs at(Path root) {
    return new ProcFs(root, pid -> ProcScreen.UNKNOWN_OWNER);
  }

  /**
   * A tree laid out like {@code /proc} whose process directories belong to whom {@code owners} says
   * (a directory a test writes always belongs to the test's user).
   */
  static ProcFs at(Path root, LongUnaryOperator owners) {
    return new ProcFs(root, owners);
  }

  /**
   * One process.
   *
   * @param pid the process id
   * @param parent its parent's pid
   * @param group its process group id
   * @param state the state letter ({@code R}, {@code S}, {@code Z} for a zombie…)
   * @param startTime clock ticks since boot at which it started
   */
  record Stat(long pid, long parent, long group, char state, long startTime) {
    /** Running or sleeping: not a zombie and not dead. */
    boolean isRunning() {
      return state != 'Z' && state != 'X' && state != 'x';
    }
  }

  /**
   * The user ids of a process, from the {@code Uid:} line of {@code /proc/PID/status}.
   *
   * @param real the real user id
   * @param effective the effective user id
   */
  record Uids(long real, long effective) {}

  /** What {@link #environHas} found. */
  enum Presence {
    PRESENT,
    ABSENT,
    UNREADABLE
  }

  /** Whether this host has a {@code /proc} kcshare can read. */
  boolean available() {
    return Files.isReadable(root.resolve("self").resolve("stat"));
  }

  private Path dir(long pid) {
    return root.resolve(Long.toString(pid));
  }

  /**
   * The owner of {@code /proc/PID} (the process's effective user, or root for a process that is not
   * dumpable), from one {@code stat} of the directory: nothing is opened. {@link #NO_OWNER} when it
   * cannot be read (the process is gone); {@link ProcScreen#UNKNOWN_OWNER} for a test tree that
   * does not say.
   */
  long owner(long pid) {
    if (owners != null) {
      return owners.applyAsLong(pid);
    }
    try {
      Object uid = Files.getAttribute(dir(pid), "unix:uid", LinkOption.NOFOLLOW_LINKS);
      return uid instanceof Integer i ? Integer.toUnsignedLong(i) : NO_OWNER;
    } catch (IOException | RuntimeException e) {
      return NO_OWNER;
    }
  }

  /**
   * The children of every thread of {@code pid}, from the kernel's {@code
   * /proc/PID/task/TID/children} lists; empty for a process that is gone, null when this kernel
   * keeps no such lists.
   */
  @Nullable List<Long> children(long pid) {
    if (!keepsChildLists()) {
      return null;
    }
    List<Long> out = new ArrayList<>();
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(dir(pid).resolve("task"))) {
      for (Path thread : threads) {
        try {
          out.addAll(
              ProcText.parseChildren(
                  new String(
                      Files.readAllBytes(thread.resolve("children")),
                      StandardCharsets.ISO_8859_1)));
        } catch (IOException | RuntimeException e) {
          // a thread that ended meanwhile
        }
      }
    } catch (IOException | RuntimeException e) {
      // gone: what was read so far
    }
    return out;
  }

  /** Whether this kernel keeps {@code children} lists (looked up once). */
  private boolean keepsChildLists() {
    Boolean keeps = childLists;
    if (keeps == null) {
      keeps = Files.isReadable(root.resolve("thread-self").resolve("children"));
      childLists = keeps;
    }
    return keeps;
  }

  /** The stat of {@code pid}, or null when it does not exist (or cannot be read). */
  @Nullable Stat stat(long pid) {
    try {
      return parse(
          pid,
          new String(Files.readAllBytes(dir(pid).resolve("stat")), StandardCharsets.ISO_8859_1));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The tasks created since boot ({@code /proc/stat}, {@link ProcText#forks}), or -1 when it cannot
   * be read.
   */
  long forks() {
    return ProcText.forks(text(root.resolve("stat"))).orElse(-1);
  }

  /** The tasks that exist ({@code /proc/loadavg}, {@link ProcText#tasks}), or -1. */
  long tasks() {
    return ProcText.tasks(text(root.resolve("loadavg"))).orElse(-1);
  }

  /** The kernel's {@code pid_max} ({@code /proc/sys/kernel/pid_max}, read once), or -1. */
  long pidMax() {
    long known = pidMax;
    if (known == 0) {
      String text = text(root.resolve("sys").resolve("kernel").resolve("pid_max")).strip();
      known = ProcText.isPid(text) ? Long.parseLong(text) : -1;
      pidMax = known;
    }
    return known;
  }

  /**
   * A {@code /proc} file's text (at most 1 MiB), or {@code ""} when it cannot be read. Not {@link
   * Files#readAllBytes}: for a file that reports size 0 it reads one byte first, and a {@code
   * /proc/sys} file then ends, since it answers a read only at position 0 ({@code pid_max} read as
   * {@code 3}).
   */
  private static String text(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(1 << 20), StandardCharsets.ISO_8859_1);
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** The start time of {@code pid}, when it runs. */
  OptionalLong startTime(long pid) {
    Stat s = stat(pid);
    return s == null ? OptionalLong.empty() : OptionalLong.of(s.startTime());
  }

  /** The real and effective user of {@code pid}, or null when its status cannot be read. */
  @Nullable Uids uids(long pid) {
    String status;
    try {
      status =
          new String(Files.readAllBytes(dir(pid).resolve("status")), StandardCharsets.ISO_8859_1);
    } catch (IOException | RuntimeException e) {
      return null;
    }
    OptionalLong real = ProcText.uid(status, 0);
    OptionalLong effective = ProcText.uid(status, 1);
    if (real.isPresent() && effective.isPresent()) {
      return new Uids(real.getAsLong(), effective.getAsLong());
    }
    return null;
  }

  /**
   * Whether the environment of {@code pid} holds exactly the entry {@code entry} ({@code
   * NAME=value}, compared byte for byte with each NUL-separated entry of {@code
   * /proc/PID/environ}). Unreadable when the file cannot be read (another user's process, a process
   * that is gone) or is larger than {@link #ENVIRON_LIMIT}.
   */
  Presence environHas(long pid, String entry) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(dir(pid).resolve("environ"))) {
      bytes = in.readNBytes(ENVIRON_LIMIT + 1);
    } catch (IOException | RuntimeException e) {
      return Presence.UNREADABLE;
    }
    if (bytes.length > ENVIRON_LIMIT) {
      return Presence.UNREADABLE;
    }
    byte[] wanted = entry.getBytes(StandardCharsets.UTF_8);
    int start = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length || bytes[i] == 0) {
        if (i - start == wanted.length && regionEquals(bytes, start, wanted)) {
          return Presence.PRESENT;
        }
        start = i + 1;
      }
    }
    return Presence.ABSENT;
  }

  private static boolean regionEquals(byte[] bytes, int from, byte[] wanted) {
    for (int j = 0; j < wanted.length; j++) {
      if (bytes[from + j] != wanted[j]) {
        return false;
      }
    }
    return true;
  }

  /** Every process id listed (one pass over the directory); empty without {@code /proc}. */
  List<Long> pids() {
    List<Long> out = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
          continue;
        }
        try {
          out.add(Long.parseLong(name));
        } catch (NumberFormatException e) {
          // not a process
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: nobody is found
    }
    return out;
  }

  /** Every process of process group {@code group} (one pass over {@code /proc}). */
  List<Stat> group(long group) {
    return group(group, 0);
  }

  /**
   * Every process of process group {@code group} whose pid is {@code lowest} or above: the {@code
   * stat} of a lower pid is not read ({@link ProcScreen#lowestMemberPid}).
   */
  List<Stat> group(long group, long lowest) {
    List<Stat> out = new ArrayList<>();
    for (long pid : pids()) {
      if (pid < lowest) {
        continue;
      }
      Stat s = stat(pid);
      if (s != null && s.group() == group) {
        out.add(s);
      }
    }
    return out;
  }

  /** Parses a stat line; the command name (field 2) may hold spaces and parentheses. */
  static @Nullable Stat parse(long pid, String line) {
    int close = line.lastIndexOf(')');
    if (close < 0 || close + 2 >= line.length()) {
      return null;
    }
    String[] f = line.substring(close + 2).trim().split(" ");
    // After the name: state(3) ppid(4) pgrp(5) session(6) ... starttime(22).
    if (f.length < 20) {
      return null;
    }
    try {
      return new Stat(
          pid, Long.parseLong(f[1]), Long.parseLong(f[2]), f[0].charAt(0), Long.parseLong(f[19]));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
