package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.at;
import static dev.kcshare.host.config.Shapes.ignored;
import static dev.kcshare.host.config.Shapes.plain;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Continue: {@code config.yaml} under {@code $CONTINUE_GLOBAL_DIR} (else {@code ~/.continue}), its
 * block files ({@code mcpServers/*.yaml}) and JSON files ({@code mcpServers/*.json}), global and in
 * the workspace; {@code ${{ secrets.NAME }}} from its {@code .env} files; no disabled field; string
 * env values only.
 */
final class ContinueClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.CONTINUE, ConfigFormat.CONTINUE_BLOCK, ConfigFormat.CONTINUE_JSON);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    Path home = home(host);
    at.userFile("continue-user", home.resolve("config.yaml"), ConfigFormat.CONTINUE);
    at.directory(
        "continue-global-block",
        home.resolve("mcpServers"),
        List.of(".yaml", ".yml"),
        ConfigFormat.CONTINUE_BLOCK);
    at.workspaceDirectory(
        "continue-block",
        ".continue/mcpServers",
        List.of(".yaml", ".yml"),
        ConfigFormat.CONTINUE_BLOCK);
    at.directory(
        "continue-json", home.resolve("mcpServers"), List.of(".json"), ConfigFormat.CONTINUE_JSON);
    at.workspaceDirectory(
        "continue-json", ".continue/mcpServers", List.of(".json"), ConfigFormat.CONTINUE_JSON);
  }

  private static Path home(ClientHost host) {
    return host.directory(host.env().get("CONTINUE_GLOBAL_DIR"), host.home().resolve(".continue"));
  }

  @Override
  public FileSyntax syntax(ConfigFormat format) {
    return format == ConfigFormat.CONTINUE_JSON ? FileSyntax.JSON : FileSyntax.YAML;
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return format == ConfigFormat.CONTINUE_JSON
        ? Substitution.Style.CONTINUE_JSON
        : Substitution.Style.CONTINUE;
  }

  /**
   * Continue's local secrets: {@code ~/.continue/.env}, then the workspace's {@code
   * .continue/.env}, then its {@code .env}; the first file that names a secret wins.
   */
  @Override
  public Map<String, String> secrets(ClientHost host, ConfigFormat format) {
    return host.once(
        "continue-secrets",
        () -> {
          Map<String, String> out = new HashMap<>();
          for (Path p :
              List.of(
                  home(host).resolve(".env"),
                  host.cwd().resolve(".continue/.env"),
                  host.cwd().resolve(".env"))) {
            try {
              for (Map.Entry<String, String> e : EnvFiles.read(p).entrySet()) {
                out.putIfAbsent(e.getKey(), e.getValue());
              }
            } catch (IOException e) {
              // an absent or unreadable .env holds no secrets; the references stay unresolved
            }
          }
          return out;
        });
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.STRINGS;
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    if (format == ConfigFormat.CONTINUE_JSON) {
      in.servers(format, top, "", "mcpServers");
    } else {
      in.list(format, top, "mcpServers");
    }
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return format == ConfigFormat.CONTINUE_JSON
        ? plain(continueJson(name, pointer, raw, warnings))
        : continueItem(pointer, raw, warnings);
  }

  /** A list item's {@code name}; a JSON file's key. */
  @Override
  public String nameOf(String key, Map<?, ?> raw) {
    return key.isEmpty() && raw.get("name") instanceof String n ? n : key;
  }

  private static Shapes.@Nullable Mapped continueItem(
      String pointer, Map<?, ?> raw, List<String> warnings) {
    if (raw.get("uses") != null) {
      warnings.add(
          pointer
              + ": a hub block ("
              + (raw.get("uses") instanceof String s ? "uses " + s : "uses")
              + "): its definition is not in this file, so kcshare cannot read it");
      return null;
    }
    Object name = raw.get("name");
    if (!(name instanceof String n)) {
      throw EntryParser.expected(at(pointer, "name"), "a string", name);
    }
    Entry e = Entry.standard(n, pointer, raw);
    ignored(e, raw, pointer, "disabled", "ignored: Continue has no such member", warnings);
    e.remove("envFile");
    return new Shapes.Mapped(e, List.of());
  }

  private static Entry continueJson(
      String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    ignored(e, raw, pointer, "envFile", "ignored, as Continue ignores it", warnings);
    return e;
  }
}
