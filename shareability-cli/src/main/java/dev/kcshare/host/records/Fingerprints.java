package dev.kcshare.host.records;

import dev.kcshare.core.records.ExecutionIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Launch fingerprints (docs/design.md#binary-fingerprint, docs/design.md#cache-identity): what the
 * verdict cache's {@code binary_version} and the ledger's launch identity are made of. Interop: the
 * strings must be byte-identical to the Kiro Crew gateway's for the same file.
 *
 * <p>Never executes anything and never throws: every failure reads as {@code unknown}, which is why
 * an identity mismatch never drops a cache row.
 */
public final class Fingerprints {
  private final @Nullable String pathEnv;
  private final Path cwd;

  /**
   * Content fingerprints already computed by this instance, per file state: a config whose servers
   * share a launcher script or an interpreter's entry file hashes it once per load, not once per
   * server. A changed size, modification time or file (inode) is a different key. (A string key: a
   * record's first hashCode costs a bootstrap that this start-up path does not need.)
   */
  private final Map<String, String> contentFingerprints = new ConcurrentHashMap<>();

  /** For a snapshot: the answers already given, per string; null for live fingerprints. */
  private final @Nullable Map<String, String> fingerprintOf;

  private final @Nullable Map<String, Boolean> regularFile;

  /**
   * Live fingerprints: every call looks at the file system again, so a file replaced between two
   * calls is seen (the evaluation runner's version re-check depends on that).
   *
   * @param pathEnv the {@code PATH} used for command lookup (kcshare's own), or null when unset
   * @param cwd the directory relative names resolve against
   */
  public Fingerprints(@Nullable String pathEnv, Path cwd) {
    this(pathEnv, cwd, false);
  }

  private Fingerprints(@Nullable String pathEnv, Path cwd, boolean snapshot) {
    this.pathEnv = pathEnv;
    this.cwd = Objects.requireNonNull(cwd, "cwd");
    this.fingerprintOf = snapshot ? new ConcurrentHashMap<>() : null;
    this.regularFile = snapshot ? new ConcurrentHashMap<>() : null;
  }

  /**
   * Fingerprints that look each distinct command or argument up once and then repeat the answer:
   * the file system as of one moment, for one load of a configuration. Two hundred servers started
   * by the same {@code node} and the same script cost two lookups, not two hundred (it keeps {@code
   * kcshare assess --all} close to a bare start). Not for anything that must notice a file changing
   * while the instance lives.
   */
  public static Fingerprints snapshot(@Nullable String pathEnv, Path cwd) {
    return new Fingerprints(pathEnv, cwd, true);
  }

  /**
   * {@code fp(s)}: resolve {@code s} on PATH (a string containing {@code /} is checked directly),
   * follow links, then a 24-hex content hash, {@code sz<size>-mt<mtime>} above 4 MiB, or {@code
   * unknown}.
   */
  public String fingerprint(String s) {
    return remembered(fingerprintOf, s, this::fingerprintNow);
  }

  /** A snapshot's earlier answer for {@code key}, else {@code compute}'s (then remembered). */
  private static <V> V remembered(
      @Nullable Map<String, V> memo, String key, Function<String, V> compute) {
    if (memo == null) {
      return compute.apply(key);
    }
    V known = memo.get(key);
    if (known == null) {
      known = compute.apply(key);
      memo.put(key, known);
    }
    return known;
  }

  private String fingerprintNow(String s) {
    try {
      Path file = lookup(s);
      if (file == null) {
        file = cwd.resolve(s);
      }
      Path real = file.toRealPath();
      BasicFileAttributes attrs = Files.readAttributes(real, BasicFileAttributes.class);
      if (!attrs.isRegularFile()) {
        return ExecutionIdentity.UNKNOWN;
      }
      if (attrs.size() > ExecutionIdentity.LARGE_FILE_THRESHOLD) {
        return ExecutionIdentity.fingerprintOfLargeFile(
            attrs.size(), attrs.lastModifiedTime().toMillis() / 1000);
      }
      String state =
          real
              + "\u0000"
              + attrs.size()
              + "\u0000"
              + attrs.lastModifiedTime().to(TimeUnit.NANOSECONDS)
              + "\u0000"
              + attrs.fileKey();
      String known = contentFingerprints.get(state);
      if (known != null) {
        return known;
      }
      String fp = ExecutionIdentity.fingerprintOfContent(Files.readAllBytes(real));
      contentFingerprints.put(state, fp);
      return fp;
    } catch (IOException | InvalidPathException | SecurityException e) {
      return ExecutionIdentity.UNKNOWN;
    }
  }

  /**
   * The cache identity's {@code binary_version}: {@code fp(command)}, then {@code fp(arg)} for
   * every argument that is non-empty, does not start with {@code -}, and names an existing regular
   * file relative to the working directory (links followed), joined with NUL.
   */
  public String binaryVersion(String command, List<String> args) {
    List<String> parts = new ArrayList<>();
    parts.add(fingerprint(command));
    for (String arg : args) {
      if (!arg.isEmpty() && !arg.startsWith("-") && isRegularFile(arg)) {
        parts.add(fingerprint(arg));
      }
    }
    return ExecutionIdentity.binaryVersion(parts);
  }

  /**
   * POSIX command lookup: a name containing {@code /} must itself be an executable regular file;
   * otherwise the first executable regular file of that name on PATH (an empty PATH entry is the
   * working directory).
   *
   * @return the file, or null when the lookup fails
   */
  public @Nullable Path lookup(String command) {
    try {
      if (command.isEmpty()) {
        return null;
      }
      if (command.indexOf('/') >= 0) {
        Path p = cwd.resolve(command);
        return isExecutableFile(p) ? p : null;
      }
      if (pathEnv == null) {
        return null;
      }
      for (String dir : pathEnv.split(":", -1)) {
        Path p = (dir.isEmpty() ? cwd : cwd.resolve(dir)).resolve(command);
        if (isExecutableFile(p)) {
          return p;
        }
      }
      return null;
    } catch (InvalidPathException | SecurityException e) {
      return null;
    }
  }

  private boolean isRegularFile(String arg) {
    return remembered(regularFile, arg, this::isRegularFileNow);
  }

  private boolean isRegularFileNow(String arg) {
    try {
      return Files.isRegularFile(cwd.resolve(arg));
    } catch (InvalidPathException | SecurityException e) {
      return false;
    }
  }

  private static boolean isExecutableFile(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }
}
