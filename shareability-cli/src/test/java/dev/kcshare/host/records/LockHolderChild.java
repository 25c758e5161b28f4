package dev.kcshare.host.records;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Holds the lock of a record file in its own JVM, for {@link FileLockTest}: takes it, prints {@code
 * held}, waits for a line (or EOF) on stdin, releases it and prints {@code released}.
 */
public final class LockHolderChild {
  private LockHolderChild() {}

  public static void main(String[] args) throws Exception {
    try (FileLock lock = FileLock.acquire(Path.of(args[0]))) {
      System.out.println("held");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    System.out.println("released");
    System.out.flush();
  }
}
