package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Goose extensions that are part of Goose itself ({@code builtin}, {@code platform}, {@code
 * frontend}) through the packaged launcher: listed apart by {@code config}, named for what they are
 * by {@code assess NAME}, and left out of verdicts, {@code --fail-on}, metrics, {@code cost} and
 * {@code measure --all}. Nothing is spawned: the host has no server process at all.
 */
final class ClientPartsIT {
  @TempDir Path dir;

  private Path home() {
    return dir.resolve("home");
  }

  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    for (String v :
        List.of(
            "KIROCREW_HOME",
            "KCSHARE_RECORDS_DIR",
            "CODEX_HOME",
            "GEMINI_CLI_HOME",
            "CONTINUE_GLOBAL_DIR",
            "CLINE_DIR",
            "CLINE_DATA_DIR",
            "CLINE_MCP_SETTINGS_PATH",
            "OPENCODE_CONFIG",
            "APPDATA")) {
      env.put(v, "");
    }
    env.put("HOME", home().toString());
    env.put("XDG_CONFIG_HOME", home().resolve(".config").toString());
    env.put("XDG_CACHE_HOME", home().resolve(".cache").toString());
    env.put("NO_COLOR", "1");
    return env;
  }

  private void gooseHost() throws IOException {
    Path file = home().resolve(".config/goose/config.yaml");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        "extensions:\n"
            + "  developer:\n    enabled: true\n    type: builtin\n    name: developer\n"
            + "  chatrecall:\n    enabled: true\n    type: platform\n    name: chatrecall\n"
            + "  screen:\n    enabled: true\n    type: frontend\n    name: screen\n",
        StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("workspace"));
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    return Kcshare.run(dir.resolve("workspace"), env(), "", args);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  @Test
  void gooseBuiltinsAreListedAsPartOfGooseAndLeftOutOfEveryVerdict() throws Exception {
    gooseHost();
    String records = dir.resolve("records").toString();

    Kcshare.Result config = kcshare("config", "--json");
    assertThat(config.exitCode()).as(config.stderr()).isZero();
    Map<String, Object> doc = object(Json.parse(config.stdout()));
    assertThat(list(doc.get("servers"))).isEmpty();
    List<Object> parts = list(doc.get("clientParts"));
    assertThat(parts)
        .extracting(p -> object(p).get("name"))
        .containsExactly("developer", "chatrecall", "screen");
    assertThat(object(parts.get(0))).containsEntry("clients", List.of("Goose"));
    assertThat(object(list(object(parts.get(0)).get("definitions")).get(0)))
        .containsEntry("type", "builtin");

    Kcshare.Result human = kcshare("config");
    assertThat(human.exitCode()).as(human.stderr()).isZero();
    assertThat(human.stdout())
        .contains("Part of the client, not server processes (never assessed or measured):\n")
        .contains("  developer  Goose\n")
        .contains("[type builtin]");

    Kcshare.Result one = kcshare("assess", "--records-dir", records, "developer");
    assertThat(one.exitCode()).as(one.stderr()).isZero();
    assertThat(one.stdout())
        .isEqualTo(
            "\"developer\" is part of Goose (a builtin extension), not a server process kcshare"
                + " can start: nothing to measure, share or stub\n");
    assertThat(one.stdout()).doesNotContain("URL");

    // The README's gate: nothing here is refuted or disqualified.
    Kcshare.Result gate =
        kcshare("assess", "--records-dir", records, "--all", "--fail-on", "refuted,disqualified");
    assertThat(gate.exitCode()).as(gate.stdout() + gate.stderr()).isZero();
    assertThat(gate.stdout()).doesNotContain("disqualified").contains("is part of Goose");

    Kcshare.Result json = kcshare("assess", "--records-dir", records, "--all", "--json");
    assertThat(json.exitCode()).as(json.stderr()).isZero();
    assertThat(list(Json.parse(json.stdout()))).isEmpty();

    Path metrics = dir.resolve("kcshare.prom");
    Kcshare.Result withMetrics =
        kcshare("assess", "--records-dir", records, "--all", "--metrics", metrics.toString());
    assertThat(withMetrics.exitCode()).as(withMetrics.stderr()).isZero();
    assertThat(Files.readString(metrics)).doesNotContainPattern("disqualified\"[^\\n]*\\} [1-9]");

    Kcshare.Result cost = kcshare("cost", "--records-dir", records);
    assertThat(cost.exitCode()).as(cost.stderr()).isZero();
    assertThat(cost.stdout()).doesNotContain("developer").doesNotContain("chatrecall");

    Kcshare.Result named = kcshare("measure", "--records-dir", records, "developer");
    assertThat(named.exitCode()).isEqualTo(2);
    assertThat(named.stdout()).isEmpty();
    assertThat(named.stderr()).contains("\"developer\" is part of Goose (a builtin extension)");

    Kcshare.Result measure = kcshare("measure", "--records-dir", records, "--all", "--json");
    assertThat(measure.exitCode()).as(measure.stderr()).isZero();
    assertThat(measure.stdout()).doesNotContain("developer");
  }
}
