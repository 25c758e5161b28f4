package dev.kcshare.host.prober;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A {@code /proc} tree in a directory, written in the kernel's formats: {@code PID/stat}, {@code
 * PID/status} ({@code Uid:} line) and {@code PID/environ} (NUL-separated). A file that "cannot be
 * read" is a directory in its place, which fails for root too.
 */
final class FakeProc {
  private final Path root;

  FakeProc(Path root) {
    this.root = root;
  }

  ProcFs procFs() {
    return ProcFs.at(root);
  }

  /** An {@link OwnProcesses} over this tree for user {@code uid}, kcshare being {@code self}. */
  OwnProcesses own(long uid, long self, RecordingEnder ender) {
    return new OwnProcesses(procFs(), uid, self, ender);
  }

  /** A process builder: every member has a sane default. */
  FakeProcess process(long pid) {
    return new FakeProcess(pid);
  }

  final class FakeProcess {
    private final long pid;
    private long startTime;
    private long group;
    private char state = 'S';
    private String uidLine;
    private List<String> environ = new ArrayList<>(List.of("PATH=/usr/bin", "HOME=/home/u"));
    private boolean statusUnreadable;
    private boolean environUnreadable;

    FakeProcess(long pid) {
      this.pid = pid;
      this.group = pid;
      this.startTime = 1000 + pid;
      this.uidLine = "Uid:\t1000\t1000\t1000\t1000";
    }

    FakeProcess start(long ticks) {
      this.startTime = ticks;
      return this;
    }

    FakeProcess group(long group) {
      this.group = group;
      return this;
    }

    FakeProcess state(char state) {
      this.state = state;
      return this;
    }

    FakeProcess uids(long real, long effective) {
      this.uidLine = "Uid:\t" + real + "\t" + effective + "\t" + effective + "\t" + effective;
      return this;
    }

    FakeProcess env(String entry) {
      environ.add(entry);
      return this;
    }

    FakeProcess token(String token) {
      return env(PassToken.entry(token));
    }

    FakeProcess statusUnreadable() {
      statusUnreadable = true;
      return this;
    }

    FakeProcess environUnreadable() {
      environUnreadable = true;
      return this;
    }

    long startTime() {
      return startTime;
    }

    /** Writes the process's files; returns its pid. */
    long write() {
      try {
        Path dir = Files.createDirectories(root.resolve(Long.toString(pid)));
        StringBuilder stat = new StringBuilder();
        stat.append(pid).append(" (fake (server)) ").append(state).append(" 1 ").append(group);
        // session(6) .. itrealvalue(21), then starttime(22), then a few more.
        for (int field = 6; field <= 21; field++) {
          stat.append(" 0");
        }
        stat.append(' ').append(startTime).append(" 0 0 0\n");
        Files.writeString(dir.resolve("stat"), stat, StandardCharsets.ISO_8859_1);
        if (statusUnreadable) {
          Files.createDirectories(dir.resolve("status"));
        } else {
          Files.writeString(
              dir.resolve("status"),
              "Name:\tfake\nState:\t"
                  + state
                  + "\nPid:\t"
                  + pid
                  + "\n"
                  + uidLine
                  + "\nGid:\t0\t0\t0\t0\n",
              StandardCharsets.ISO_8859_1);
        }
        if (environUnreadable) {
          Files.createDirectories(dir.resolve("environ"));
        } else {
          Files.writeString(
              dir.resolve("environ"),
              String.join("\0", environ) + (environ.isEmpty() ? "" : "\0"),
              StandardCharsets.UTF_8);
        }
        return pid;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Records what it was asked to end, and signals nothing. */
  static final class RecordingEnder implements OwnProcesses.Ender {
    final List<List<Long>> calls = new ArrayList<>();

    @Override
    public int end(Collection<ProcFs.Stat> targets) {
      calls.add(targets.stream().map(ProcFs.Stat::pid).sorted().toList());
      return targets.size();
    }

    /** Every pid ended, in order of the calls. */
    List<Long> ended() {
      return calls.stream().flatMap(List::stream).toList();
    }
  }
}
