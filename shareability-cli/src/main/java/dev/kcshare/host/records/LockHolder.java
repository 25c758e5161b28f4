package dev.kcshare.host.records;

import dev.kcshare.core.text.Escaper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The process holding a lock, as far as its lock file tells: a kcshare holder writes its pid into
 * the lock file once it holds the lock, and empties the file before it releases it. The Python
 * gateway and older kcshare builds write nothing, so the holder may be unknown.
 *
 * @param pid the holder's process id, or -1 when unknown
 * @param command the holder's command line as the system reports it, or {@code ""}
 */
public record LockHolder(long pid, String command) {
  private static final int MAX_BYTES = 64;

  /** No holder could be named. */
  public static LockHolder unknown() {
    return new LockHolder(-1, "");
  }

  /** Whether the holder is known. */
  public boolean known() {
    return pid > 0;
  }

  /**
   * How the holder is shown: {@code process 4242 (kcshare measure --all)}, {@code process 4242
   * (java)}, or {@code another process} when unknown. Escaped and bounded.
   */
  public String describe() {
    if (!known()) {
      return "another process";
    }
    String what = shortCommand(command);
    return "process " + pid + (what.isEmpty() ? "" : " (" + Escaper.esc(what, 80) + ")");
  }

  /** {@code kcshare ARGS} for a kcshare JVM, else the executable's file name. */
  static String shortCommand(String commandLine) {
    if (commandLine.isBlank()) {
      return "";
    }
    List<String> words = List.of(commandLine.strip().split("\\s+"));
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.endsWith("kcshare.jar") || w.equals("dev.kcshare.cli.Main")) {
        return String.join(" ", words.subList(i, words.size())).replaceFirst("^\\S+", "kcshare");
      }
    }
    String first = words.get(0);
    int slash = first.lastIndexOf('/');
    return slash >= 0 ? first.substring(slash + 1) : first;
  }

  /** The pid this process writes into a lock file it holds. */
  static byte[] ownRecord() {
    return (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Reads the holder recorded in {@code lockFile}: unknown when the file is empty, not a pid, or
   * names a process that no longer runs.
   */
  static LockHolder readFrom(Path lockFile) {
    String text;
    try (InputStream in = Files.newInputStream(lockFile)) {
      text = new String(in.readNBytes(MAX_BYTES), StandardCharsets.US_ASCII).strip();
    } catch (NoSuchFileException e) {
      return unknown();
    } catch (IOException | RuntimeException e) {
      return unknown();
    }
    long pid;
    try {
      pid = Long.parseLong(text);
    } catch (NumberFormatException e) {
      return unknown();
    }
    if (pid <= 0) {
      return unknown();
    }
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return unknown();
    }
    return new LockHolder(pid, handle.get().info().commandLine().orElse(""));
  }
}
