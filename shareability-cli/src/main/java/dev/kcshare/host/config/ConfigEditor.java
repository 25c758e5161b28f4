package dev.kcshare.host.config;

import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.text.ProblemLines;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.RegularFiles;
import dev.kcshare.host.records.AtomicFiles;
import dev.kcshare.host.records.FileLock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A locked edit of the Kiro Crew configuration file that changes ONLY {@code
 * mcp_gateway.stub_overrides} (docs/design.md#seeding, docs/design.md#bulk-stub-eligibility).
 *
 * <p>{@link #open} takes the config lock ({@code config.json.lock}, next to the file) and reads the
 * file under it, so the decision made from {@link #settings()} and the write see one state of the
 * file. {@link #writeStubOverrides} replaces just that member's value text (or inserts the member,
 * or the {@code mcp_gateway} section), so unknown keys, key order, whitespace and comments
 * elsewhere stay byte for byte as they were; it re-parses its own result and refuses to write if
 * anything but that member would change.
 *
 * <p>The write is atomic, keeps the file's previous mode (a configuration file is not a record
 * file; a file created here is 0600) and first saves the previous bytes to {@code config.json.bak}
 * (same mode, overwritten by each edit: one step of undo, bounded disk use). A symbolic link (a
 * dotfiles manager's) is followed: the file it points to is replaced and the link stays.
 */
public final class ConfigEditor implements AutoCloseable {
  private final Path file;
  private @Nullable FileLock lock;
  private byte @Nullable [] bytes;
  private @Nullable String text;
  private @Nullable Object root;
  private GatewaySettings settings;

  private ConfigEditor(
      Path file,
      @Nullable FileLock lock,
      byte @Nullable [] bytes,
      @Nullable String text,
      @Nullable Object root,
      GatewaySettings settings) {
    this.file = file;
    this.lock = lock;
    this.bytes = bytes;
    this.text = text;
    this.root = root;
    this.settings = settings;
  }

  /**
   * Takes the config lock (waiting as long as it takes) and reads the file under it. A missing file
   * reads as having no {@code mcp_gateway} section; when even its directory is missing, nothing is
   * created unless something is written (the first write takes the lock and creates both).
   *
   * @throws BadInputException when the file cannot be read or parsed, or the section has the wrong
   *     type (the lock is released and nothing is written)
   */
  public static ConfigEditor open(Path file) throws IOException, InterruptedException {
    Path target = realTarget(file.toAbsolutePath().normalize());
    Path parent = target.getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      // No directory, so no file to protect yet. Creating the directory just to hold a lock file
      // would leave ~/.kiro/crew behind even when nothing is written (and its existence selects
      // the kirocrew host profile); the lock is taken by the first write instead.
      return new ConfigEditor(target, null, null, null, null, GatewaySettings.absent());
    }
    FileLock lock = FileLock.acquire(target);
    boolean ok = false;
    try {
      byte[] bytes;
      try {
        bytes = RegularFiles.readAll(target, ConfigFiles.MAX_BYTES);
      } catch (NoSuchFileException e) {
        bytes = null;
      } catch (RegularFiles.Refused e) {
        throw new BadInputException(
            target + ": " + ConfigFiles.refusal(e.found(), "a JSON file", ConfigFiles.MAX_BYTES));
      }
      ConfigEditor editor;
      if (bytes == null) {
        editor = new ConfigEditor(target, lock, null, null, null, GatewaySettings.absent());
      } else {
        String text = decode(target, bytes);
        ConfigFiles.Read read = ConfigFiles.parse(bytes);
        if (read.problem() != null) {
          throw new BadInputException(ProblemLines.located(target.toString(), read.problem()));
        }
        GatewaySettings settings;
        try {
          settings = GatewaySettings.fromDocument(read.root(), target.toString());
        } catch (JsonInputException e) {
          throw new BadInputException(target + ": " + e.getMessage(), e);
        }
        editor = new ConfigEditor(target, lock, bytes, text, read.root(), settings);
      }
      ok = true;
      return editor;
    } finally {
      if (!ok) {
        lock.close();
      }
    }
  }

  /** The file edited (symbolic links resolved). */
  public Path file() {
    return file;
  }

  /** Where the previous version is saved: the file name plus {@code .bak}. */
  public static Path backupFile(Path file) {
    return file.resolveSibling(file.getFileName() + ".bak");
  }

  /**
   * The state of the file when it was opened, under its lock.
   *
   * @return whether the file and its directory existed
   */
  public Before before() {
    Path dir = file.toAbsolutePath().getParent();
    return new Before(exists(), dir == null || Files.isDirectory(dir));
  }

  /**
   * The state of a configuration file before a write, for saying what the write did.
   *
   * @param fileExisted the file existed (so a write also saves the previous version as .bak)
   * @param directoryExisted its directory existed
   */
  public record Before(boolean fileExisted, boolean directoryExisted) {
    /**
     * The state of {@code file} now.
     *
     * @param file the configuration file
     * @return whether it and its directory exist
     */
    public static Before of(Path file) {
      Path dir = file.toAbsolutePath().getParent();
      return new Before(Files.exists(file), dir == null || Files.isDirectory(dir));
    }
  }

  /** Whether the file existed when read. */
  public boolean exists() {
    return bytes != null;
  }

  /** The {@code mcp_gateway} section as read under the lock. */
  public GatewaySettings settings() {
    return settings;
  }

  /** A mutable copy of the section as read under the lock, for the seeding policies. */
  public Map<String, @Nullable Object> section() {
    return settings.section();
  }

  /**
   * Sets {@code mcp_gateway.stub_overrides} to exactly {@code overrides} (in the map's order) with
   * a minimal text edit, backing up and atomically replacing the file. Nothing is written when the
   * text would not change.
   *
   * @return true if the file was written
   * @throws IOException when the backup or the write fails (the file is then unchanged)
   * @throws IllegalStateException when the edit would change anything else (never written)
   */
  public boolean writeStubOverrides(Map<String, Boolean> overrides) throws IOException {
    Map<String, Boolean> wanted = new LinkedHashMap<>(overrides);
    String next;
    try {
      next = ConfigText.withStubOverrides(text, wanted);
    } catch (ConfigText.EditException e) {
      throw new BadInputException(file + ": cannot edit: " + e.getMessage(), e);
    }
    if (next.equals(text)) {
      return false;
    }
    byte[] nextBytes = next.getBytes(StandardCharsets.UTF_8);
    Object reparsed = verify(nextBytes, wanted);
    if (lock == null) {
      lock = lockForCreation();
    }
    Set<PosixFilePermission> mode = bytes == null ? null : AtomicFiles.modeOf(file);
    if (bytes != null) {
      AtomicFiles.write(backupFile(file), bytes, mode);
    }
    AtomicFiles.write(file, nextBytes, mode);
    bytes = nextBytes;
    text = next;
    root = reparsed;
    try {
      settings = GatewaySettings.fromDocument(reparsed, file.toString());
    } catch (JsonInputException e) {
      throw new IllegalStateException("the written file no longer reads", e);
    }
    return true;
  }

  /**
   * Checks that the new text parses to the old document with only {@code stub_overrides} (and, if
   * it was missing, the section holding it) changed, its keys in the wanted order.
   */
  private @Nullable Object verify(byte[] nextBytes, Map<String, Boolean> wanted) {
    ConfigFiles.Read read = ConfigFiles.parse(nextBytes);
    if (read.problem() != null) {
      throw new IllegalStateException(
          "the edited configuration does not parse; not written: " + read.problem());
    }
    Map<String, @Nullable Object> expected = new LinkedHashMap<>();
    if (root instanceof Map<?, ?> old) {
      for (Map.Entry<?, ?> e : old.entrySet()) {
        expected.put(String.valueOf(e.getKey()), e.getValue());
      }
    }
    Map<String, @Nullable Object> section = new LinkedHashMap<>();
    if (expected.get(ConfigText.SECTION) instanceof Map<?, ?> old) {
      for (Map.Entry<?, ?> e : old.entrySet()) {
        section.put(String.valueOf(e.getKey()), e.getValue());
      }
    }
    section.put(ConfigText.MEMBER, new LinkedHashMap<>(wanted));
    expected.put(ConfigText.SECTION, section);
    Object actual = read.root();
    boolean same = Objects.equals(expected, actual);
    if (same
        && actual instanceof Map<?, ?> top
        && top.get(ConfigText.SECTION) instanceof Map<?, ?> s
        && s.get(ConfigText.MEMBER) instanceof Map<?, ?> m) {
      same = new ArrayList<>(m.keySet()).equals(List.copyOf(wanted.keySet()));
    } else {
      same = false;
    }
    if (!same) {
      throw new IllegalStateException(
          "the edit of "
              + file
              + " would change more than mcp_gateway.stub_overrides; not written");
    }
    return actual;
  }

  private static String decode(Path file, byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new BadInputException(file + ": not valid JSON: not valid UTF-8");
    }
  }

  /** The file a symbolic link points to (so the link survives the rename); else the path. */
  private static Path realTarget(Path file) throws IOException {
    if (Files.isSymbolicLink(file)) {
      try {
        return file.toRealPath();
      } catch (NoSuchFileException e) {
        // a dangling link: write through it to where it points
        Path link = Files.readSymbolicLink(file);
        return file.resolveSibling(link).normalize();
      }
    }
    return file;
  }

  /**
   * Takes the lock before the first write into a directory that did not exist at {@link #open}, and
   * checks that no file appeared meanwhile (the decision was made on "no file").
   */
  private FileLock lockForCreation() throws IOException {
    FileLock taken;
    try {
      taken = FileLock.acquire(file);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for the config lock");
    }
    if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      taken.close();
      throw new IllegalStateException(
          file + " was created by another writer meanwhile; not written (run the command again)");
    }
    return taken;
  }

  // ------------------------------------------------- edits of other gateways' JSON files

  /**
   * A JSON file of another gateway, read whole for a minimal edit.
   *
   * @param file the file (symbolic links resolved, so a replacement keeps the link)
   * @param bytes its bytes
   * @param text its text
   * @param root the parsed document
   */
  public record Document(Path file, byte[] bytes, String text, @Nullable Object root) {}

  /**
   * Reads a gateway's JSON file.
   *
   * @throws BadInputException naming the file when it is missing, not a regular file, unreadable,
   *     not UTF-8 or not valid JSON (with line and column)
   */
  public static Document readDocument(Path path) throws IOException {
    Path file = realTarget(path.toAbsolutePath().normalize());
    if (Files.isDirectory(file)) {
      throw new BadInputException(file + ": is a directory, expected a JSON file");
    }
    byte[] bytes;
    try (java.io.InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(ConfigFiles.MAX_BYTES + 1);
    } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
      throw new BadInputException(file + ": does not exist");
    } catch (java.nio.file.AccessDeniedException e) {
      throw new BadInputException(file + ": cannot read: permission denied");
    } catch (IOException e) {
      throw new BadInputException(file + ": cannot read: " + ConfigFiles.reason(e));
    }
    if (bytes.length > ConfigFiles.MAX_BYTES) {
      throw new BadInputException(file + ": larger than " + (ConfigFiles.MAX_BYTES >> 20) + " MiB");
    }
    String text = decode(file, bytes);
    ConfigFiles.Read read = ConfigFiles.parse(bytes);
    if (read.problem() != null) {
      throw new BadInputException(ProblemLines.located(file.toString(), read.problem()));
    }
    return new Document(file, bytes, text, read.root());
  }

  /** The member names repeated in the object at {@code path} of the document. */
  public static List<String> repeatedMembers(Document doc, List<String> path) {
    try {
      return ConfigText.repeatedMembers(doc.text(), path);
    } catch (ConfigText.EditException e) {
      throw new BadInputException(doc.file() + ": cannot edit: " + e.getMessage(), e);
    }
  }

  /**
   * The document's bytes with the boolean member {@code key} added to the object at {@code path}
   * (missing objects on the path added too), every other byte unchanged. The result is re-parsed
   * and must equal the old document plus that member.
   *
   * @throws BadInputException when the text cannot be edited that way
   * @throws IllegalStateException when the edit would change anything else (never written)
   */
  public static Document withMemberAdded(
      Document doc, List<String> path, String key, boolean value) {
    String next;
    try {
      next = ConfigText.withMemberAdded(doc.text(), path, key, value);
    } catch (ConfigText.EditException e) {
      throw new BadInputException(doc.file() + ": cannot edit: " + e.getMessage(), e);
    }
    byte[] nextBytes = next.getBytes(StandardCharsets.UTF_8);
    ConfigFiles.Read read = ConfigFiles.parse(nextBytes);
    Object expected = withMember(doc.root(), path, 0, key, value);
    if (read.problem() != null || !Objects.equals(expected, read.root())) {
      throw new IllegalStateException(
          "the edit of "
              + doc.file()
              + " would change more than /"
              + String.join("/", path)
              + "/"
              + key
              + "; not written");
    }
    return new Document(doc.file(), nextBytes, next, read.root());
  }

  private static Object withMember(
      @Nullable Object node, List<String> path, int at, String key, boolean value) {
    Map<String, @Nullable Object> copy = new LinkedHashMap<>();
    if (node instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        copy.put(String.valueOf(e.getKey()), e.getValue());
      }
    }
    if (at == path.size()) {
      copy.put(key, value);
    } else {
      copy.put(path.get(at), withMember(copy.get(path.get(at)), path, at + 1, key, value));
    }
    return copy;
  }

  /**
   * Replaces {@code next.file()} with {@code next}'s bytes after saving {@code previous}'s bytes as
   * the {@code .bak} beside it: both by atomic rename of a temporary file created exclusively in
   * the same directory (a symbolic link in the way is replaced, never written through), the file's
   * mode kept.
   */
  public static void replace(Document previous, Document next) throws IOException {
    Set<PosixFilePermission> mode = AtomicFiles.modeOf(previous.file());
    AtomicFiles.write(backupFile(previous.file()), previous.bytes(), mode);
    AtomicFiles.write(next.file(), next.bytes(), mode);
  }

  /** Releases the config lock (if one was taken). */
  @Override
  public void close() throws IOException {
    if (lock != null) {
      lock.close();
    }
  }
}
