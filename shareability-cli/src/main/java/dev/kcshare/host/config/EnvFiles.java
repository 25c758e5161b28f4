package dev.kcshare.host.config;

import dev.kcshare.host.RegularFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads {@code .env} files as VS Code reads an {@code envFile} ({@code parseEnvFile}): one {@code
 * NAME=value} (or {@code NAME: value}) per line, an optional {@code export } prefix, {@code #}
 * comments outside quotes, surrounding quotes removed, {@code \n} and {@code \r} expanded inside
 * double quotes; a later line wins. Only a regular file up to {@link #MAX_BYTES} is read, decided
 * before it is opened ({@link RegularFiles}). Values are never printed.
 */
final class EnvFiles {
  /** An env file larger than this is refused: no real one comes near it. */
  static final int MAX_BYTES = 4 * 1024 * 1024;

  private EnvFiles() {}

  /** The variables, or an exception whose message says in words why the file cannot be read. */
  static Map<String, String> read(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = RegularFiles.readAll(file, MAX_BYTES);
    } catch (NoSuchFileException e) {
      throw new IOException("no such file", e);
    } catch (RegularFiles.Refused e) {
      throw new IOException(
          e.found().kind() == RegularFiles.Kind.DIRECTORY
              ? "is a directory"
              : ConfigFiles.refusal(e.found(), "an env file", MAX_BYTES),
          e);
    } catch (AccessDeniedException e) {
      throw new IOException("permission denied", e);
    } catch (IOException e) {
      throw new IOException(ConfigFiles.reason(e), e);
    }
    return parse(new String(bytes, StandardCharsets.UTF_8));
  }

  /** VS Code's {@code parseEnvFile}. */
  static Map<String, String> parse(String src) {
    Map<String, String> out = new LinkedHashMap<>();
    String text = src.startsWith("\uFEFF") ? src.substring(1) : src;
    String normalized = text.replace("\r\n", "\n").replace('\r', '\n');
    for (String raw : normalized.split("\n", -1)) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("export ")) {
        line = line.substring(7).strip();
      }
      int separator = indexOutsideQuotes(line, "=:");
      if (separator < 0) {
        continue;
      }
      String key = line.substring(0, separator).strip();
      String value = line.substring(separator + 1).strip();
      int comment = indexOutsideQuotes(value, "#");
      if (comment >= 0) {
        value = value.substring(0, comment).strip();
      }
      if (value.length() >= 2) {
        char first = value.charAt(0);
        char last = value.charAt(value.length() - 1);
        if ((first == '"' || first == '\'' || first == '`') && first == last) {
          value = value.substring(1, value.length() - 1);
          if (first == '"') {
            value = value.replace("\\n", "\n").replace("\\r", "\r");
          }
        }
      }
      if (!key.isEmpty()) {
        out.put(key, value);
      }
    }
    return out;
  }

  private static int indexOutsideQuotes(String text, String wanted) {
    boolean inQuote = false;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inQuote) {
        if (c == quote && (i == 0 || text.charAt(i - 1) != '\\')) {
          inQuote = false;
        }
      } else if (c == '"' || c == '\'' || c == '`') {
        inQuote = true;
        quote = c;
      } else if (wanted.indexOf(c) >= 0) {
        return i;
      }
    }
    return -1;
  }
}
