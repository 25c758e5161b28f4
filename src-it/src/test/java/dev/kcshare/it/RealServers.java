package dev.kcshare.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The pinned npm MCP servers that {@code src-it/servers/install.sh} installs into {@code
 * .it-servers/}, and the rule for a missing install: skip on a developer machine, fail in CI.
 */
final class RealServers {
  /** Server name in the generated config → npm package (its bin is {@code mcp-server-<name>}). */
  static final Map<String, String> PACKAGES = packages();

  private static Map<String, String> packages() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String name : List.of("everything", "memory", "filesystem", "sequential-thinking")) {
      m.put(name, "@modelcontextprotocol/server-" + name);
    }
    return m;
  }

  static Path installDir() {
    return Path.of(System.getProperty("kcshare.itServers", Kcshare.repo() + "/.it-servers"))
        .toAbsolutePath()
        .normalize();
  }

  static Path bin(String name) {
    return installDir().resolve("node_modules/.bin/mcp-server-" + name);
  }

  /**
   * Returns normally if node and every pinned server (at its pinned version) are installed.
   * Otherwise skips the calling test with the reason and the fix, or fails it when {@code CI=true}:
   * CI must never go green without having run the real servers.
   */
  static void require() throws IOException {
    List<String> problems = new ArrayList<>();
    if (nodeOnPath().isEmpty()) {
      problems.add("node is not on PATH");
    }
    Map<String, Object> pins =
        Json.object(
            Json.object(Json.read(Kcshare.repo().resolve("src-it/servers/package.json")))
                .get("dependencies"));
    for (Map.Entry<String, String> e : PACKAGES.entrySet()) {
      Path manifest = installDir().resolve("node_modules").resolve(e.getValue() + "/package.json");
      String want = (String) pins.get(e.getValue());
      if (!Files.isRegularFile(manifest) || !Files.isExecutable(bin(e.getKey()))) {
        problems.add(e.getValue() + " is not installed");
      } else {
        Object have = Json.object(Json.read(manifest)).get("version");
        if (!want.equals(have)) {
          problems.add(e.getValue() + " is " + have + ", pinned " + want);
        }
      }
    }
    if (problems.isEmpty()) {
      return;
    }
    String message =
        "real MCP servers unavailable in "
            + installDir()
            + " ("
            + String.join("; ", problems)
            + "); run src-it/servers/install.sh (bash .ci/run does) to install them";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail("CI=true: " + message);
    }
    System.err.println("RealServersIT skipped: " + message);
    Assumptions.abort(message);
  }

  static Optional<Path> nodeOnPath() {
    return ItProcesses.node();
  }

  private RealServers() {}
}
