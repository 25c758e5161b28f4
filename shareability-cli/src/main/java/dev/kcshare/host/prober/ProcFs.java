package dev.kcshare.host.prober;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * What Linux's {@code /proc/PID/stat} says about processes: parent, process group, state and start
 * time (clock ticks since boot, which never repeats for a recycled pid while the host is up). Where
 * there is no {@code /proc}, every answer is "unknown" (empty or null).
 */
final class ProcFs {
  private static final Path PROC = Path.of("/proc");

  private ProcFs() {}

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

  /** Whether this host has a {@code /proc} kcshare can read. */
  static boolean available() {
    return Files.isReadable(PROC.resolve("self").resolve("stat"));
  }

  /** The stat of {@code pid}, or null when it does not exist (or cannot be read). */
  static @Nullable Stat stat(long pid) {
    try {
      return parse(
          pid,
          new String(
              Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("stat")),
              StandardCharsets.ISO_8859_1));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The start time of {@code pid}, when it runs. */
  static OptionalLong startTime(long pid) {
    Stat s = stat(pid);
    return s == null ? OptionalLong.empty() : OptionalLong.of(s.startTime());
  }

  /** Every process of process group {@code group} (one pass over {@code /proc}). */
  static List<Stat> group(long group) {
    List<Stat> out = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
          continue;
        }
        long pid;
        try {
          pid = Long.parseLong(name);
        } catch (NumberFormatException e) {
          continue;
        }
        Stat s = stat(pid);
        if (s != null && s.group() == group) {
          out.add(s);
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: nobody is found
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
