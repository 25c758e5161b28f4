package dev.kcshare.host.config;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.json.internal.CodePoints;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The file slots discovery offers the clients ({@link ClientFamily.Locations}): a file, a workspace
 * file, every matching file of a directory, and each subdirectory's file. Each slot found is handed
 * to the reader; a slot with nothing in it is listed as {@code missing}.
 */
final class DiscoverySlots implements ClientFamily.Locations {
  /** Reads one discovered file. */
  interface Reader {
    void read(String display, Path path, String origin, ClientFamily client, ConfigFormat format);
  }

  private final ClientHost host;
  private final List<ConfigFile> files;
  private final ClientFamily client;
  private final Reader reader;

  /** The slots of one client: each file found is handed to {@code reader} with the client. */
  DiscoverySlots(ClientHost host, List<ConfigFile> files, ClientFamily client, Reader reader) {
    this.host = host;
    this.files = files;
    this.client = client;
    this.reader = reader;
  }

  @Override
  public void userFile(String origin, Path path, ConfigFormat format) {
    Path p = path.toAbsolutePath().normalize();
    reader.read(user(p), p, origin, client, format);
  }

  @Override
  public void workspaceFile(String origin, String relative, ConfigFormat format) {
    reader.read(relative, host.cwd().resolve(relative), origin, client, format);
  }

  @Override
  public void subdirectoryFiles(String origin, Path dir, String fileName, ConfigFormat format) {
    String display = user(dir.toAbsolutePath().normalize()) + "/*/" + fileName;
    List<Path> found =
        listed(
            display,
            dir,
            origin,
            p -> Files.isRegularFile(p.resolve(fileName)) ? p.resolve(fileName) : null);
    if (found == null) {
      return;
    }
    found.sort(
        (a, b) ->
            CodePoints.compare(
                a.getParent().getFileName().toString(), b.getParent().getFileName().toString()));
    for (Path p : found) {
      userFile(origin, p, format);
    }
  }

  /** Every {@code *.ext} file of a user directory, by file name (code point order). */
  @Override
  public void directory(String origin, Path dir, List<String> extensions, ConfigFormat format) {
    Path abs = dir.toAbsolutePath().normalize();
    directory(origin, abs, user(abs), extensions, format);
  }

  /** Every {@code *.ext} file of a workspace directory, shown relative to the workspace. */
  @Override
  public void workspaceDirectory(
      String origin, String relative, List<String> extensions, ConfigFormat format) {
    directory(origin, host.cwd().resolve(relative), relative, extensions, format);
  }

  private void directory(
      String origin, Path dir, String base, List<String> extensions, ConfigFormat format) {
    String display =
        base
            + "/*"
            + (extensions.size() == 1
                ? extensions.get(0)
                : "{" + String.join(",", extensions) + "}");
    List<Path> found =
        listed(
            display,
            dir,
            origin,
            p -> {
              String name = p.getFileName().toString();
              return extensions.stream().anyMatch(name::endsWith) && Files.isRegularFile(p)
                  ? p
                  : null;
            });
    if (found == null) {
      return;
    }
    found.sort(
        (a, b) -> CodePoints.compare(a.getFileName().toString(), b.getFileName().toString()));
    for (Path p : found) {
      Path file = p.toAbsolutePath().normalize();
      reader.read(base + "/" + file.getFileName(), file, origin, client, format);
    }
  }

  /**
   * The files {@code wanted} finds among the entries of {@code dir}, or null when there are none:
   * the slot is then recorded as missing (no directory, nothing in it) or skipped (it cannot be
   * listed).
   */
  private @Nullable List<Path> listed(
      String display, Path dir, String origin, Function<Path, @Nullable Path> wanted) {
    List<Path> found = new ArrayList<>();
    if (exists(dir)) {
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path p : stream) {
          Path file = wanted.apply(p);
          if (file != null) {
            found.add(file);
          }
        }
      } catch (NoSuchFileException | NotDirectoryException e) {
        found.clear();
      } catch (IOException | SecurityException e) {
        if (exists(dir)) {
          files.add(
              status(
                  display,
                  dir,
                  origin,
                  ConfigFile.Status.SKIPPED,
                  List.of("cannot list the directory: " + ConfigFiles.reason(e))));
          return null;
        }
        found.clear();
      }
    }
    if (found.isEmpty()) {
      files.add(status(display, dir, origin, ConfigFile.Status.MISSING, List.of()));
      return null;
    }
    return found;
  }

  private String user(Path path) {
    return host.user(path);
  }

  /** Whether anything is at {@code path}, by one {@code stat} that throws nothing. */
  static boolean exists(Path path) {
    try {
      return path.toFile().exists();
    } catch (UnsupportedOperationException e) {
      return true; // not the default file system: let the read decide
    }
  }

  static ConfigFile status(
      String display, Path path, String origin, ConfigFile.Status status, List<String> problems) {
    return new Results.ConfigFile(display, path, origin, List.of(), status, problems, List.of(), 0);
  }
}
