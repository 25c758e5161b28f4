package dev.kcshare.host.prober;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.host.FileProblem;
import dev.kcshare.host.records.AtomicFiles;
import dev.kcshare.host.records.RecordsTrust;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Writes {@code --capture} files: {@code DIR/<server>/a.json} and {@code b.json}, each one
 * identity's raw answers in the capture format, so {@code kcshare preflight compare} re-decides the
 * measurement offline (docs/design.md#capture-format). Captures hold a server's raw answers, so
 * they are private like the record files whatever the umask: directories kcshare creates are 0700,
 * files 0600, each written atomically (a link in a file's place is replaced, never followed). A
 * capture directory, or a server's directory in it, that is a symbolic link is refused.
 */
public final class CaptureFiles {
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private CaptureFiles() {}

  /**
   * The directory for one server: its name when that is a safe file name, else the name with every
   * other character replaced by {@code _} plus a short hash of the name, so two names never share a
   * directory.
   */
  public static Path directoryFor(Path captureRoot, String serverName) {
    if (SAFE.matcher(serverName).matches() && !serverName.equals(".") && !serverName.equals("..")) {
      return captureRoot.resolve(serverName);
    }
    StringBuilder safe = new StringBuilder();
    serverName
        .codePoints()
        .limit(60)
        .forEach(
            cp ->
                safe.append(
                    cp < 128 && SAFE.matcher(Character.toString(cp)).matches() ? (char) cp : '_'));
    return captureRoot.resolve(safe + "-" + shortHash(serverName));
  }

  /**
   * Creates the server's capture directory (and every missing parent, 0700), so that a path that
   * cannot hold captures fails before anything is spawned.
   *
   * @return the directory
   * @throws FileProblem when it cannot be created
   */
  public static Path prepare(Path captureRoot, String serverName) throws FileProblem {
    Path dir = directoryFor(captureRoot, serverName);
    refuseLink(captureRoot, "--capture directory ");
    refuseLink(dir, "capture directory ");
    try {
      AtomicFiles.createDirectories(dir);
    } catch (FileProblem e) {
      throw e;
    } catch (IOException e) {
      throw FileProblem.of("write", captureRoot, e);
    }
    // Checked again once created: a link put there meanwhile is refused all the same.
    refuseLink(captureRoot, "--capture directory ");
    refuseLink(dir, "capture directory ");
    // One that someone else made first, or that others may write, is refused like an untrusted
    // records directory (docs/security.md): raw captures are not left where others can replace
    // them.
    try {
      return RecordsTrust.requireWritable(dir, "capture directory");
    } catch (FileProblem e) {
      throw e;
    } catch (IOException e) {
      throw FileProblem.of("write", dir, e);
    }
  }

  /**
   * Refuses a capture directory that is a symbolic link (docs/formats.md#links): captures are
   * written into the directory named, never into wherever a link points.
   */
  private static void refuseLink(Path dir, String what) throws FileProblem {
    if (Files.isSymbolicLink(dir)) {
      throw FileProblem.refused(
          dir,
          what
              + dir
              + " is a symbolic link; kcshare does not write captures through one: give the"
              + " real directory");
    }
  }

  /**
   * Writes the outcome's captures (pretty JSON, 0600) and returns the files written, in identity
   * order.
   *
   * @throws FileProblem when the directory or a file cannot be written
   */
  public static List<Path> write(Path captureRoot, String serverName, ProbeOutcome outcome)
      throws FileProblem {
    Path dir = prepare(captureRoot, serverName);
    List<Path> written = new ArrayList<>();
    for (Map.Entry<String, Map<String, @Nullable Object>> e : outcome.captures().entrySet()) {
      Path file = dir.resolve(e.getKey() + ".json");
      try {
        AtomicFiles.write(file, JsonWriter.pretty(e.getValue()).getBytes(StandardCharsets.UTF_8));
      } catch (IOException ex) {
        throw FileProblem.of("write", file, ex);
      }
      written.add(file);
    }
    return written;
  }

  private static String shortHash(String name) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
