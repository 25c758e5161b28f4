package dev.kcshare.core.cost.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * Pure parsers of the Linux {@code /proc} files a footprint is read from ({@code proc(5)}). Each
 * takes the file's text (or bytes) and never throws on malformed input: it answers "unknown"
 * instead, because a process can vanish or a kernel can differ between reading and parsing.
 */
public final class ProcText {
  /** {@code USER_HZ} on every Linux architecture a JVM runs on; used when auxv does not say. */
  public static final long DEFAULT_CLOCK_TICKS = 100;

  /** {@code AT_CLKTCK}: the auxiliary-vector entry holding the clock-tick frequency. */
  static final long AT_CLKTCK = 17;

  private ProcText() {}

  /**
   * The members of {@code /proc/PID/stat} a footprint uses; times are in clock ticks.
   *
   * @param state the state letter ({@code R}, {@code S}, {@code Z}, ...)
   * @param ppid the parent's pid
   * @param utime user time of the process (all its threads)
   * @param stime system time of the process
   * @param cutime user time of the children it has waited for
   * @param cstime system time of the children it has waited for
   * @param startTime when the process started, in ticks since boot
   */
  public record Stat(
      char state, long ppid, long utime, long stime, long cutime, long cstime, long startTime) {

    /** A zombie ({@code Z}) or dead ({@code X}, {@code x}) process: no memory, not running. */
    public boolean isGone() {
      return state == 'Z' || state == 'X' || state == 'x';
    }

    /** Own and waited-for children's user and system time, in ticks. */
    public long cpuTicks() {
      return utime + stime + cutime + cstime;
    }
  }

  /**
   * Parses {@code /proc/PID/stat}. The command name (field 2) may hold spaces and parentheses, so
   * the fields are counted after its LAST closing parenthesis.
   *
   * @return the parsed fields, or null when the text is not a stat line
   */
  public static @Nullable Stat parseStat(String text) {
    int close = text.lastIndexOf(')');
    if (close < 0 || close + 2 > text.length()) {
      return null;
    }
    List<String> f = fields(text, close + 1, 20);
    // f[0] is field 3 (state); utime is field 14, starttime field 22.
    if (f.size() < 20 || f.get(0).length() != 1) {
      return null;
    }
    long ppid = number(f.get(1));
    long utime = number(f.get(11));
    long stime = number(f.get(12));
    long cutime = number(f.get(13));
    long cstime = number(f.get(14));
    long start = number(f.get(19));
    if (ppid < 0 || utime < 0 || stime < 0 || start < 0) {
      return null;
    }
    // cutime and cstime are signed in the kernel's format; a negative one counts as nothing.
    return new Stat(
        f.get(0).charAt(0), ppid, utime, stime, Math.max(0, cutime), Math.max(0, cstime), start);
  }

  /** Up to {@code max} whitespace-separated fields of {@code text} from {@code from} on. */
  private static List<String> fields(String text, int from, int max) {
    List<String> out = new ArrayList<>(Math.min(max, 32));
    int i = from;
    int n = text.length();
    while (out.size() < max) {
      while (i < n && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      if (i >= n) {
        break;
      }
      int start = i;
      while (i < n && !Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      out.add(text.substring(start, i));
    }
    return out;
  }

  /**
   * A {@code Name: N kB} line of {@code /proc/PID/status} ({@code VmRSS}) or {@code
   * /proc/PID/smaps_rollup} ({@code Rss}, {@code Pss}), in KiB.
   *
   * @param field the name before the colon, for example {@code "Pss"}
   * @return the value, or empty when the line is missing or malformed
   */
  public static OptionalLong kibField(String text, String field) {
    String prefix = field + ":";
    int from = 0;
    while (from < text.length()) {
      int end = text.indexOf('\n', from);
      if (end < 0) {
        end = text.length();
      }
      if (text.startsWith(prefix, from)) {
        List<String> parts = fields(text.substring(from + prefix.length(), end), 0, 3);
        if (parts.size() == 2 && parts.get(1).equals("kB")) {
          long v = number(parts.get(0));
          return v < 0 ? OptionalLong.empty() : OptionalLong.of(v);
        }
        return OptionalLong.empty();
      }
      from = end + 1;
    }
    return OptionalLong.empty();
  }

  /**
   * One user id of the {@code Uid:} line of {@code /proc/PID/status}: {@code 0} the real one,
   * {@code 1} the effective one, {@code 2} the saved one, {@code 3} the file-system one.
   *
   * @param which the position on the line, 0 to 3
   * @return the id, or empty when the line is missing or malformed
   */
  public static OptionalLong uid(String text, int which) {
    String line = restOfLine(text, "Uid:");
    List<String> ids = line == null ? List.of() : fields(line, 0, 5);
    if (ids.size() != 4 || which < 0 || which > 3) {
      return OptionalLong.empty();
    }
    long v = number(ids.get(which));
    return v < 0 ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /**
   * The tasks (processes and threads) created since boot, from the {@code processes} line of {@code
   * /proc/stat}.
   *
   * @return the count, or empty when the line is missing or malformed
   */
  public static OptionalLong forks(String procStat) {
    String line = restOfLine(procStat, "processes ");
    List<String> parts = line == null ? List.of() : fields(line, 0, 2);
    long v = parts.size() == 1 ? number(parts.get(0)) : -1;
    return v < 0 ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /** What follows {@code prefix} on the first line that starts with it, or null. */
  private static @Nullable String restOfLine(String text, String prefix) {
    int at = text.indexOf(prefix);
    while (at > 0 && text.charAt(at - 1) != '\n') {
      at = text.indexOf(prefix, at + 1);
    }
    if (at < 0) {
      return null;
    }
    int from = at + prefix.length();
    int end = text.indexOf('\n', from);
    return text.substring(from, end < 0 ? text.length() : end);
  }

  /**
   * The tasks (processes and threads) that exist, from the fourth field of {@code /proc/loadavg}
   * ({@code running/total}).
   *
   * @return the total, or empty when the text is malformed
   */
  public static OptionalLong tasks(String loadavg) {
    List<String> parts = fields(loadavg, 0, 6);
    if (parts.size() != 5) {
      return OptionalLong.empty();
    }
    String field = parts.get(3);
    int slash = field.indexOf('/');
    long v = slash < 0 ? -1 : number(field.substring(slash + 1));
    return v < 0 ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /**
   * Parses {@code /proc/PID/task/TID/children}: the pids of that thread's children, separated by
   * spaces. Anything that is not a pid is skipped.
   */
  public static List<Long> parseChildren(String text) {
    List<Long> pids = new ArrayList<>();
    for (String part : fields(text, 0, Integer.MAX_VALUE)) {
      long pid = number(part);
      if (pid > 0) {
        pids.add(pid);
      }
    }
    return pids;
  }

  /** Whether a {@code /proc} entry name is a pid (only digits, no leading zero). */
  public static boolean isPid(String name) {
    return !name.isEmpty() && name.charAt(0) != '0' && number(name) > 0;
  }

  /**
   * The clock-tick frequency ({@code sysconf(_SC_CLK_TCK)}) from the bytes of {@code
   * /proc/self/auxv}: pairs of native words (type, value), ended by type 0.
   *
   * @param littleEndian the native byte order
   * @param wordBytes the native word size (8 on a 64-bit JVM, 4 on a 32-bit one)
   * @return {@code AT_CLKTCK}, or {@link #DEFAULT_CLOCK_TICKS} when absent or not positive
   */
  public static long clockTicks(byte[] auxv, boolean littleEndian, int wordBytes) {
    if (wordBytes != 4 && wordBytes != 8) {
      return DEFAULT_CLOCK_TICKS;
    }
    for (int at = 0; at + 2 * wordBytes <= auxv.length; at += 2 * wordBytes) {
      long type = word(auxv, at, littleEndian, wordBytes);
      if (type == 0) {
        break;
      }
      if (type == AT_CLKTCK) {
        long value = word(auxv, at + wordBytes, littleEndian, wordBytes);
        return value > 0 && value <= 1_000_000 ? value : DEFAULT_CLOCK_TICKS;
      }
    }
    return DEFAULT_CLOCK_TICKS;
  }

  /** Clock ticks as whole milliseconds at {@code ticksPerSecond} (rounded down). */
  public static long ticksToMillis(long ticks, long ticksPerSecond) {
    if (ticks <= 0 || ticksPerSecond <= 0) {
      return 0;
    }
    return ticks / ticksPerSecond * 1000 + ticks % ticksPerSecond * 1000 / ticksPerSecond;
  }

  private static long word(byte[] b, int at, boolean littleEndian, int size) {
    long v = 0;
    for (int i = 0; i < size; i++) {
      int index = littleEndian ? at + size - 1 - i : at + i;
      v = (v << 8) | (b[index] & 0xff);
    }
    return v;
  }

  /** A non-negative decimal that fits a long, or -1. */
  private static long number(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}
