package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.CacheRow;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kcshare seed --gateway mcphub|1mcp} over fixtures shaped like those gateways' own example
 * files: golden edits, idempotence, the marker rule and bad input.
 */
final class SeedOtherGatewaysTest {
  @TempDir Path root;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  private static String fixture(String name) {
    try (InputStream in = SeedOtherGatewaysTest.class.getResourceAsStream("/gateways/" + name)) {
      return new String(Objects.requireNonNull(in, name).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The Kiro fixture host: p measured (stub and share), q measured (stub, no share). */
  private OperatorFixture host() {
    OperatorFixture f = OperatorFixture.create(root);
    Map<String, CacheRow> rows = new LinkedHashMap<>();
    rows.put("p", f.declared("p"));
    rows.put("q", f.measured("q"));
    f.cache(rows, List.of());
    return f;
  }

  private Path write(String name, String text) throws IOException {
    Path p = root.resolve("gw").resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p;
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }

  @Test
  void mcphubPlanListsEverythingAndWritesNothing() throws Exception {
    OperatorFixture f = host();
    Path file = write("mcp_settings.json", fixture("mcp_settings.json"));

    CliRun r =
        f.run(
            "seed", "--gateway", "mcphub", "--gateway-config", file.toString(), "--plan", "--json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Object> out = object(OperatorFixture.parse(r.stdout()));
    assertThat(out).containsEntry("gateway", "mcphub").containsEntry("applied", false);
    assertThat(object(out.get("plan")))
        .containsEntry("write", List.of("browser", "q"))
        .containsEntry("markSeeded", List.of("browser", "p", "pinned", "q"))
        .containsEntry("keptExplicit", List.of("pinned"))
        .containsEntry("shareRecommended", List.of("p"));
    assertThat(out)
        .containsEntry("notStdio", List.of("remote"))
        .containsEntry("noVerdict", List.of("browser", "pinned"));
    assertThat(read(file)).isEqualTo(fixture("mcp_settings.json"));
    assertThat(file.resolveSibling("mcp_settings.json.bak")).doesNotExist();
    assertThat(f.records.resolve("kcshare-seeded-mcphub.json")).doesNotExist();

    CliRun human =
        f.run("seed", "--gateway", "mcphub", "--gateway-config", file.toString(), "--plan");
    assertThat(human.stdout())
        .contains("Seeding plan for " + file + " (mcphub; nothing written):")
        .contains("perSessionClient = true:                   browser, q\n")
        .contains("Run kcshare seed --gateway mcphub --apply to write this.");
  }

  @Test
  void mcphubApplyMakesTheGoldenEditKeepsABackupAndTheModeAndIsIdempotent() throws Exception {
    OperatorFixture f = host();
    Path file = write("mcp_settings.json", fixture("mcp_settings.json"));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

    CliRun r =
        f.run(
            "seed",
            "--gateway",
            "mcphub",
            "--gateway-config",
            file.toString(),
            "--apply",
            "--json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(read(file)).isEqualTo(fixture("mcp_settings.seeded.json"));
    assertThat(read(file.resolveSibling("mcp_settings.json.bak")))
        .isEqualTo(fixture("mcp_settings.json"));
    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
    Map<String, Object> out = object(OperatorFixture.parse(r.stdout()));
    assertThat(out).containsEntry("fileWritten", true).containsEntry("markersWritten", true);
    assertThat(read(f.records.resolve("kcshare-seeded-mcphub.json")))
        .contains("\"browser\"", "\"p\"", "\"pinned\"", "\"q\"");

    FileTime mtime = FileTime.fromMillis(1_600_000_000_000L);
    Files.setLastModifiedTime(file, mtime);
    CliRun again =
        f.run(
            "seed",
            "--gateway",
            "mcphub",
            "--gateway-config",
            file.toString(),
            "--apply",
            "--json");
    assertThat(again.exitCode()).as(again.stderr()).isZero();
    assertThat(object(OperatorFixture.parse(again.stdout())))
        .containsEntry("fileWritten", false)
        .containsEntry("markersWritten", false);
    assertThat(read(file)).isEqualTo(fixture("mcp_settings.seeded.json"));
    assertThat(Files.getLastModifiedTime(file)).isEqualTo(mtime);
  }

  @Test
  void aSeededServerIsTheOperatorsAfterwards() throws Exception {
    OperatorFixture f = host();
    Path file = write("mcp_settings.json", fixture("mcp_settings.json"));
    CliRun first =
        f.run("seed", "--gateway", "mcphub", "--gateway-config", file.toString(), "--apply");
    assertThat(first.exitCode()).as(first.stderr()).isZero();

    // The operator turns browser back to shared and drops q's switch altogether.
    String operators =
        read(file)
            .replace(
                "\"--headless\"],\n      \"perSessionClient\": true",
                "\"--headless\"],\n      \"perSessionClient\": false")
            .replace(", \"perSessionClient\": true}", "}");
    Files.writeString(file, operators, StandardCharsets.UTF_8);

    CliRun again =
        f.run(
            "seed",
            "--gateway",
            "mcphub",
            "--gateway-config",
            file.toString(),
            "--apply",
            "--json");

    assertThat(again.exitCode()).as(again.stderr()).isZero();
    assertThat(read(file)).isEqualTo(operators);
    assertThat(object(object(OperatorFixture.parse(again.stdout())).get("plan")))
        .containsEntry("write", List.of())
        .containsEntry("markSeeded", List.of());
  }

  @Test
  void mcphubIsFoundThroughItsSettingPathVariable() throws Exception {
    OperatorFixture f = host();
    Path file = write("mcp_settings.json", fixture("mcp_settings.json"));
    Map<String, String> env = new HashMap<>(f.env);
    env.put("MCPHUB_SETTING_PATH", file.getParent().toString());

    CliRun r =
        CliRun.run(
            f.layout.workspace(),
            "",
            env,
            "seed",
            "--gateway",
            "mcphub",
            "--plan",
            "--json",
            "--records-dir",
            f.records.toString());

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(object(OperatorFixture.parse(r.stdout()))).containsEntry("file", file.toString());
  }

  @Test
  void oneMcpSeedsTemplatesOnlyAndShowsHowToIsolateAStaticServer() throws Exception {
    OperatorFixture f = host();
    Path file = write("mcp.json", fixture("1mcp.json"));
    Map<String, String> env = new HashMap<>(f.env);
    env.put("ONE_MCP_CONFIG", file.toString());

    CliRun plan =
        CliRun.run(
            f.layout.workspace(),
            "",
            env,
            "seed",
            "--gateway",
            "1mcp",
            "--plan",
            "--records-dir",
            f.records.toString());
    assertThat(plan.exitCode()).as(plan.stderr()).isZero();
    assertThat(plan.stdout())
        .contains("template.perClient = true:                 browser, notes\n")
        .contains("kept (the entry sets it already):          pinned\n")
        .contains(
            "cannot be measured as written (template variables in its launch; never seeded):"
                + " project-files\n")
        .contains("not stdio servers (never touched):         web\n")
        .contains(
            "shared by every 1MCP client (a static server; only templates can be isolated): q\n")
        .contains(
            "to isolate it, move it from mcpServers into mcpTemplates (clients without a verified"
                + " context, such as direct HTTP ones, then no longer get it) as (env values")
        .contains(
            "\"q\":{\"command\":\"npx\",\"args\":[\"-y\",\"q-mcp\"],\"env\":{\"Q_TOKEN\":\"***\"},"
                + "\"tags\":[\"static\"],\"template\":{\"perClient\":true}}")
        .doesNotContain("q-secret-value");
    assertThat(read(file)).isEqualTo(fixture("1mcp.json"));

    CliRun apply =
        CliRun.run(
            f.layout.workspace(),
            "",
            env,
            "seed",
            "--gateway",
            "1mcp",
            "--apply",
            "--json",
            "--records-dir",
            f.records.toString());
    assertThat(apply.exitCode()).as(apply.stderr()).isZero();
    assertThat(read(file)).isEqualTo(fixture("1mcp.seeded.json"));
    assertThat(object(object(OperatorFixture.parse(apply.stdout())).get("plan")))
        .containsEntry("markSeeded", List.of("browser", "notes", "pinned"));
    assertThat(f.records.resolve("kcshare-seeded-1mcp.json")).exists();
  }

  @Test
  void aMissingGatewayFileIsBadInputNamingIt() {
    OperatorFixture f = host();
    Path missing = root.resolve("gw/nowhere.json");

    CliRun r =
        f.run("seed", "--gateway", "mcphub", "--gateway-config", missing.toString(), "--apply");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains(missing + ": does not exist").doesNotContain("Exception");
    assertThat(f.records.resolve("kcshare-seeded-mcphub.json")).doesNotExist();
  }

  @Test
  void anInvalidGatewayFileIsBadInputWithLineAndColumn() throws Exception {
    OperatorFixture f = host();
    String text = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"npx\",}\n  }\n";
    Path file = write("mcp_settings.json", text);

    CliRun r = f.run("seed", "--gateway", "mcphub", "--gateway-config", file.toString(), "--apply");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .containsPattern(java.util.regex.Pattern.quote(file.toString()) + ":\\d+:\\d+");
    assertThat(read(file)).isEqualTo(text);
  }

  @Test
  void aNameDefinedTwiceIsRefused() throws Exception {
    OperatorFixture f = host();
    String text =
        "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}, \"a\": {\"command\": \"uvx\"}}}\n";
    Path file = write("mcp_settings.json", text);

    CliRun r = f.run("seed", "--gateway", "mcphub", "--gateway-config", file.toString(), "--apply");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains(file + ": mcpServers defines \"a\" more than once");
    assertThat(read(file)).isEqualTo(text);
  }

  @Test
  void aNameInBothOneMcpSectionsIsRefused() throws Exception {
    OperatorFixture f = host();
    String text =
        "{\"mcpServers\": {\"a\": {\"command\": \"npx\"}},"
            + " \"mcpTemplates\": {\"a\": {\"command\": \"npx\"}}}\n";
    Path file = write("mcp.json", text);

    CliRun r = f.run("seed", "--gateway", "1mcp", "--gateway-config", file.toString(), "--apply");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).contains("\"a\" is defined in both mcpServers and mcpTemplates");
  }

  @Test
  void anUnknownGatewayIsBadInput() {
    OperatorFixture f = host();

    CliRun r = f.run("seed", "--gateway", "metamcp", "--plan");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("--gateway must be kirocrew, mcphub or 1mcp, not \"metamcp\"");
  }

  @Test
  void aSymbolicLinkStaysAndTheFileItPointsToIsReplaced() throws Exception {
    OperatorFixture f = host();
    Path target = write("real-settings.json", fixture("mcp_settings.json"));
    Path link = root.resolve("gw/mcp_settings.json");
    Files.createSymbolicLink(link, target.getFileName());

    CliRun r = f.run("seed", "--gateway", "mcphub", "--gateway-config", link.toString(), "--apply");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(read(target)).isEqualTo(fixture("mcp_settings.seeded.json"));
    assertThat(read(target.resolveSibling("real-settings.json.bak")))
        .isEqualTo(fixture("mcp_settings.json"));
  }
}
