package dev.kcshare.host.config;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The clients kcshare knows, in discovery order (the table in {@code docs/config.md}). */
final class ClientFamilies {
  /**
   * Discovery: every client's files, client after client, in this order. The order is a listing
   * order, not a precedence: every definition of a name is kept.
   */
  static final List<ClientFamily> DISCOVERY =
      List.of(
          new KiroCrewClient(),
          new KiroClient(),
          new ClaudeDesktopClient(),
          new ClaudeCodeClient(),
          new CursorClient(),
          new VsCodeClient(),
          new WindsurfClient(),
          new ClineClient(),
          new RooClient(),
          new GeminiClient(),
          new CodexClient(),
          new ZedClient(),
          new ContinueClient(),
          new GooseClient(),
          new LmStudioClient(),
          new AmazonQClient(),
          new OpencodeClient(),
          new McphubClient(),
          new OneMcpClient());

  /** Files named with {@code --config} that no client claims, and in-memory definitions. */
  static final ClientFamily NAMED = new NamedFileClient();

  private static final Map<ConfigFormat, ClientFamily> BY_FORMAT = byFormat();

  private ClientFamilies() {}

  /** The client that reads files of {@code format}. */
  static ClientFamily of(ConfigFormat format) {
    return BY_FORMAT.get(format);
  }

  /** The syntax of a file named with {@code --config}, from its extension. */
  static FileSyntax syntaxOfNamed(Path path) {
    return NamedFileClient.syntaxOf(path);
  }

  /** The formats of a file named with {@code --config}, from its members and its name. */
  static List<ConfigFormat> formatsOfNamed(Path path, Map<?, ?> top) {
    return NamedFileClient.formatsOf(path, top);
  }

  private static Map<ConfigFormat, ClientFamily> byFormat() {
    Map<ConfigFormat, ClientFamily> out = new EnumMap<>(ConfigFormat.class);
    for (ClientFamily family : DISCOVERY) {
      for (ConfigFormat f : family.formats()) {
        if (out.put(f, family) != null) {
          throw new IllegalStateException(f.id() + " belongs to two clients");
        }
      }
    }
    for (ConfigFormat f : NAMED.formats()) {
      if (out.put(f, NAMED) != null) {
        throw new IllegalStateException(f.id() + " belongs to two clients");
      }
    }
    if (out.size() != ConfigFormat.values().length) {
      throw new IllegalStateException("a format belongs to no client");
    }
    return out;
  }
}
