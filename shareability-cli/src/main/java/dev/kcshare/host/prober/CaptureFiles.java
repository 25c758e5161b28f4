package dev.kcshare.host.prober;

import dev.kcshare.core.json.JsonWriter;
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
 * measurement offline (docs/design.md#capture-format).
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
   * Writes the outcome's captures (pretty JSON) and returns the files written, in identity order.
   *
   * @throws IOException when the directory or a file cannot be written
   */
  public static List<Path> write(Path captureRoot, String serverName, ProbeOutcome outcome)
      throws IOException {
    Path dir = directoryFor(captureRoot, serverName);
    List<Path> written = new ArrayList<>();
    for (Map.Entry<String, Map<String, @Nullable Object>> e : outcome.captures().entrySet()) {
      Files.createDirectories(dir);
      Path file = dir.resolve(e.getKey() + ".json");
      Files.writeString(file, JsonWriter.pretty(e.getValue()), StandardCharsets.UTF_8);
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
