package dev.kcshare.host.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One MCP client (or family of clients sharing a file format): where it keeps its files, how they
 * are written, how an entry maps onto kcshare's members, which variables it substitutes, how it
 * reads env values, how it encodes enabled and disabled servers, and its fix-ups. Everything that
 * is particular to a client lives in its own implementation; {@link HostConfigLoader} only
 * orchestrates, and discovery is the ordered list {@link ClientFamilies#DISCOVERY}. Adding a client
 * is one new implementation, its fixture and its row in {@code docs/config.md}.
 *
 * <p>Implementations hold no state: what a client remembers during one load (Codex's user file,
 * Continue's secrets) is kept by the {@link ClientHost} of that load.
 */
interface ClientFamily {
  /** The formats its files are read as; each format belongs to exactly one family. */
  List<ConfigFormat> formats();

  /** Names the files it reads, in discovery order (each with its source slot, the origin). */
  void locate(ClientHost host, Locations at);

  /** How a file of {@code format} is written. */
  default FileSyntax syntax(ConfigFormat format) {
    return FileSyntax.JSON;
  }

  /** Which substitution applies to the server entries of {@code format}. */
  default Substitution.Style substitution(ConfigFormat format) {
    return Substitution.Style.NONE;
  }

  /** The values its substitution resolves secrets from (Continue's {@code .env} files). */
  default Map<String, String> secrets(ClientHost host, ConfigFormat format) {
    return Map.of();
  }

  /** How env values that are not strings are read. */
  default ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.PYTHON;
  }

  /** Hands the server sections of a file's top-level object to {@code in}. */
  default void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    in.servers(format, top, "", "mcpServers");
  }

  /**
   * Maps the entry {@code raw} named {@code name} at {@code pointer} onto kcshare's members.
   *
   * @return the entry, or null when the item is not a server definition kcshare can read
   * @throws dev.kcshare.core.json.internal.JsonInputException for a value of the wrong type
   */
  default Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return Shapes.plain(Entry.standard(name, pointer, raw));
  }

  /**
   * Maps an entry as {@link #map(ConfigFormat, String, String, Map, List)} does, for a client that
   * needs the host to do it (a gateway that substitutes its own environment into the launch).
   *
   * @throws dev.kcshare.core.json.internal.JsonInputException for a value of the wrong type
   */
  default Shapes.@Nullable Mapped map(
      ClientHost host,
      ConfigFormat format,
      String name,
      String pointer,
      Map<?, ?> raw,
      List<String> warnings) {
    return map(format, name, pointer, raw, warnings);
  }

  /**
   * The server name of the entry {@code raw} under {@code key} as far as it can be read without
   * mapping it: what an unusable entry is reported under. Its key (empty for a list item) unless
   * the client names servers another way.
   */
  default String nameOf(String key, Map<?, ?> raw) {
    return key;
  }

  /**
   * Names turned off outside their entries (Gemini CLI's lists), read from the object that holds
   * the servers; problems reading them are notes in {@code warnings}.
   */
  default Set<String> disabledOutside(ClientHost host, Map<?, ?> container, List<String> warnings) {
    return Set.of();
  }

  /** Why a server {@link #disabledOutside} named is disabled, for the note. */
  default String disabledOutsideWhy() {
    return "disabled outside its entry";
  }

  /**
   * Adjusts the env a server starts with (VS Code's PATH, Amazon Q's own environment).
   *
   * @param declared the env the entry declares
   * @param fromFile the variables of its {@code envFile}
   * @param env the env it starts with, to adjust in place
   */
  default void adjustEnv(
      ClientHost host,
      Entry entry,
      Map<String, String> declared,
      Map<String, String> fromFile,
      Map<String, String> env,
      List<String> warnings) {}

  /**
   * Called once a discovered file has been read (not for a skipped one), with the number of server
   * definitions it contributed (Codex's project trust).
   */
  default void afterRead(
      ClientHost host, String origin, Map<?, ?> top, int definitions, List<String> warnings) {}

  /** The file slots discovery offers a client. */
  interface Locations {
    /** A file under the home or elsewhere, shown as {@code ~/...} when under the home. */
    void userFile(String origin, Path path, ConfigFormat format);

    /** A file relative to the workspace (the working directory), shown as given. */
    void workspaceFile(String origin, String relative, ConfigFormat format);

    /** Every {@code *.ext} file of a user directory, by file name. */
    void directory(String origin, Path dir, List<String> extensions, ConfigFormat format);

    /** Every {@code *.ext} file of a workspace directory. */
    void workspaceDirectory(
        String origin, String relative, List<String> extensions, ConfigFormat format);

    /** {@code dir/<each subdirectory>/fileName}, by subdirectory name (VS Code's profiles). */
    void subdirectoryFiles(String origin, Path dir, String fileName, ConfigFormat format);
  }

  /** What a client's {@link #extract} hands its sections to. */
  interface Sections {
    /** The host of this load. */
    ClientHost host();

    /** An object of named entries, {@code container.member}, at {@code base}. */
    void servers(ConfigFormat format, Map<?, ?> container, String base, String member);

    /** A list of named entries, {@code top.member} (Continue). */
    void list(ConfigFormat format, Map<?, ?> top, String member);

    /** The Kiro Crew gateway settings ({@code mcp_gateway}) of the file. */
    void gateway(Map<?, ?> top);

    /** A problem that makes the file unusable. */
    void problem(String problem);

    /** A note about the file, pointer first. */
    void warning(String warning);
  }
}
