package dev.kcshare.cli;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.policy.internal.SkippedFileWarnings;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.records.AtomicFiles;
import dev.kcshare.host.records.RecordsTrust;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * kcshare's memory of the skipped configuration files it already warned about ({@link
 * SkippedFileWarnings}): {@code $XDG_STATE_HOME/kcshare/skipped-files.json}, else {@code
 * ~/.local/state/kcshare/skipped-files.json}, {@code {"schema": 1, "files": {PATH: STAMP}}}. It is
 * the user's own state, not the records': a quiet run of any command shares it. Best effort both
 * ways: memory that cannot be read is empty (so the warning shows), and memory that cannot be
 * written is left as it was; neither ever fails a command. Written by atomic rename into a
 * directory of the user's own (0700), never through a link.
 */
final class SkippedFilesMemory {
  static final String FILE = "skipped-files.json";

  /** Small enough for any real set of configuration files; a larger file is not read. */
  private static final int MAX_BYTES = 1 << 20;

  private SkippedFilesMemory() {}

  /** Where the memory lives for this environment, or null without a home or state directory. */
  static @Nullable Path location(Map<String, String> env) {
    String state = env.get("XDG_STATE_HOME");
    if (state != null && !state.isEmpty() && Path.of(state).isAbsolute()) {
      return Path.of(state, "kcshare", FILE);
    }
    String home = env.get("HOME");
    if (home != null && !home.isEmpty() && Path.of(home).isAbsolute()) {
      return Path.of(home, ".local", "state", "kcshare", FILE);
    }
    return null;
  }

  /** What a file's state is, for "has it changed": size, modification time and its problems. */
  static String stamp(Path file, Iterable<String> problems) {
    String text = String.join("\n", problems);
    String attributes;
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      attributes = a.size() + "-" + a.lastModifiedTime().toMillis();
    } catch (IOException e) {
      attributes = "unreadable";
    }
    return attributes + "-" + Integer.toHexString(text.hashCode());
  }

  /** The remembered files and stamps; empty when there is no memory or it cannot be read. */
  static Map<String, String> read(@Nullable Path file) {
    Map<String, String> out = new LinkedHashMap<>();
    if (file == null || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return out;
    }
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES
          || !(JsonReader.forRecords().parse(bytes) instanceof Map<?, ?> doc)
          || !Long.valueOf(1).equals(asLong(doc.get("schema")))
          || !(doc.get("files") instanceof Map<?, ?> files)) {
        return out;
      }
      for (Map.Entry<?, ?> e : files.entrySet()) {
        if (e.getKey() instanceof String k && e.getValue() instanceof String v) {
          out.put(k, v);
        }
      }
    } catch (IOException | RuntimeException | dev.kcshare.host.json.JsonSyntaxException e) {
      out.clear();
    }
    return out;
  }

  private static @Nullable Long asLong(@Nullable Object o) {
    return o instanceof Number n ? n.longValue() : null;
  }

  /** Replaces the memory; does nothing when it cannot be written. */
  static void write(@Nullable Path file, Map<String, String> files) {
    if (file == null) {
      return;
    }
    try {
      // The same rule as the records directory: created 0700, written only when nobody else can
      // write it (docs/security.md).
      Path target = RecordsTrust.requireWritableFile(file);
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("schema", 1);
      doc.put("files", files);
      AtomicFiles.writeUnsynced(target, JsonWriter.pretty(doc).getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      // best effort: the next quiet run warns again, which is the safe side
    }
  }
}
