package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.at;
import static dev.kcshare.host.config.Shapes.enabled;
import static dev.kcshare.host.config.Shapes.plain;

import dev.kcshare.core.json.internal.JsonInputException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Codex CLI: {@code config.toml} under {@code $CODEX_HOME} (else {@code ~/.codex}) and the
 * project's {@code .codex/config.toml}, which Codex reads only in a trusted project; {@code
 * [mcp_servers.NAME]} tables; {@code enabled = false} disables; string env values only.
 */
final class CodexClient implements ClientFamily {

  /** Under this key the load remembers the user file, whose {@code projects} mark trust. */
  private static final String USER_FILE = "codex-user";

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.CODEX);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile(
        "codex-user",
        host.directory(host.env().get("CODEX_HOME"), host.home().resolve(".codex"))
            .resolve("config.toml"),
        ConfigFormat.CODEX);
    at.workspaceFile("codex-project", ".codex/config.toml", ConfigFormat.CODEX);
  }

  @Override
  public FileSyntax syntax(ConfigFormat format) {
    return FileSyntax.TOML;
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.STRINGS;
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    in.servers(format, top, "", "mcp_servers");
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return plain(codex(name, pointer, raw, warnings));
  }

  @Override
  public void afterRead(
      ClientHost host, String origin, Map<?, ?> top, int definitions, List<String> warnings) {
    if (origin.equals("codex-user")) {
      host.remember(USER_FILE, top);
    }
    if (origin.equals("codex-project") && definitions > 0 && !trusts(host)) {
      warnings.add(
          "(root): Codex reads this file only in a trusted project, and the working directory"
              + " is not marked trusted in ~/.codex/config.toml; listed all the same");
    }
  }

  /** Whether Codex's user file marks the working directory (or a parent) trusted. */
  private static boolean trusts(ClientHost host) {
    if (!(host.recalled(USER_FILE) instanceof Map<?, ?> user)
        || !(user.get("projects") instanceof Map<?, ?> projects)) {
      return false;
    }
    for (Path p = host.cwd(); p != null; p = p.getParent()) {
      if (projects.get(p.toString()) instanceof Map<?, ?> project
          && "trusted".equals(project.get("trust_level"))) {
        return true;
      }
    }
    return false;
  }

  private static Entry codex(String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    e.remove("disabled").remove("type").remove("envFile");
    enabled(e, raw, pointer, false);
    if (raw.get("command") == null && raw.get("url") != null) {
      e.put("type", "streamable_http", at(pointer, "url"));
    }
    if (raw.get("command") == null && raw.get("url") == null) {
      throw new JsonInputException(
          pointer, "expected a command or a url (Codex: invalid transport)");
    }
    Object forwarded = raw.get("env_vars");
    if (forwarded != null) {
      if (!(forwarded instanceof List<?> names)) {
        throw EntryParser.expected(at(pointer, "env_vars"), "an array of strings", forwarded);
      }
      for (int i = 0; i < names.size(); i++) {
        if (!(names.get(i) instanceof String)) {
          throw EntryParser.expected(
              JsonInputException.child(at(pointer, "env_vars"), i), "a string", names.get(i));
        }
      }
      warnings.add(
          at(pointer, "env_vars")
              + ": forwarded from the environment Codex runs in; kcshare's pre-flight gives the"
              + " server its whole environment");
    }
    return e;
  }
}
