package dev.kcshare.cli;

import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.records.CacheCodec;
import dev.kcshare.core.records.CacheLoad;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.core.records.LedgerCodec;
import dev.kcshare.core.records.StoredHandshake;
import dev.kcshare.host.config.ConfigSamples;
import dev.kcshare.host.config.ConfigSamples.Layout;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.HostConfigLoader;
import dev.kcshare.host.config.Platform;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.records.RecordFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A host for the operator commands: a Kiro Crew {@code config.json} (4-space indent, unsorted and
 * unknown keys, unicode), a Kiro {@code mcp.json} with servers x, p, q, r (http), s, e (declares
 * OAUTH_TOKEN) and h, and a records directory the test fills with rows and hazards.
 */
final class OperatorFixture {
  final Layout layout;
  final Path config;
  final Path records;
  final Map<String, String> env;

  private OperatorFixture(Layout layout, Path config, Path records, Map<String, String> env) {
    this.layout = layout;
    this.config = config;
    this.records = records;
    this.env = env;
  }

  static OperatorFixture create(Path root) {
    Layout l = ConfigSamples.empty(root);
    Path config = l.write(l.home().resolve(".kiro/crew/config.json"), text("kirocrew-config.json"));
    l.write(l.home().resolve(".kiro/settings/mcp.json"), text("mcp.json"));
    Path records = root.resolve("records");
    return new OperatorFixture(l, config, records, l.env());
  }

  /**
   * The fixture plus a messy host: {@code good} in Kiro, {@code dup} defined differently in Kiro
   * and in Cursor (with an env value that must never be printed), {@code off} disabled in Kiro,
   * {@code cursor-only} only in Cursor, {@code claude-only} only in {@code ~/.claude.json} and
   * {@code agent-srv} in a Kiro agent file.
   */
  static OperatorFixture mixed(Path root) {
    OperatorFixture f = create(root);
    f.kiroServers(
        "\"good\": {\"command\": \"npx\", \"args\": [\"-y\", \"good-mcp\"]},\n"
            + "    \"dup\": {\"command\": \"npx\", \"args\": [\"-y\", \"dup-mcp@1\"]},\n"
            + "    \"off\": {\"command\": \"npx\", \"args\": [\"-y\", \"off-mcp\"], \"disabled\":"
            + " true}");
    f.homeFile(
        ".cursor/mcp.json",
        "{\"mcpServers\": {"
            + "\"dup\": {\"command\": \"npx\", \"args\": [\"-y\", \"dup-mcp@2\"], \"env\":"
            + " {\"DUP_TOKEN\": \"s3cret-value\"}},"
            + "\"cursor-only\": {\"command\": \"npx\", \"args\": [\"-y\", \"cursor-only-mcp\"]}}}");
    f.homeFile(
        ".claude.json",
        "{\"mcpServers\": {\"claude-only\": {\"command\": \"npx\", \"args\": [\"claude-only\"]}}}");
    f.homeFile(
        ".kiro/agents/helper.json",
        "{\"name\": \"helper\", \"mcpServers\": {\"agent-srv\": {\"command\": \"npx\","
            + " \"args\": [\"agent-srv\"]}}}");
    return f;
  }

  /** A cache with clean measurements (stub, no share) of the named servers and no markers. */
  void measuredRows(String... names) {
    Map<String, CacheRow> rows = new LinkedHashMap<>();
    for (String n : names) {
      rows.put(n, measured(n));
    }
    cache(rows, List.of());
  }

  static String text(String name) {
    try (InputStream in = OperatorFixture.class.getResourceAsStream("/operator/" + name)) {
      return new String(Objects.requireNonNull(in, name).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs kcshare in the workspace with this host's records directory. */
  CliRun run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--records-dir");
    all.add(records.toString());
    return CliRun.run(layout.workspace(), "", env, all.toArray(String[]::new));
  }

  /** Runs kcshare in the workspace without {@code --records-dir}. */
  CliRun runPlain(String... args) {
    return CliRun.run(layout.workspace(), "", env, args);
  }

  /** The execution identity kcshare computes for the server (every definition agrees). */
  String identity(String name) {
    HostConfig host =
        HostConfigLoader.load(
            layout.context(env).host(), ConfigRequest.discovery(), Platform.LINUX);
    ConfiguredServer s = Objects.requireNonNull(host.serverNamed(name), name);
    return Objects.requireNonNull(s.commonIdentity(), name);
  }

  /** A row whose handshake declares the caller-identity extension: stub and share. */
  CacheRow declared(String name) {
    Map<String, Object> caps = new LinkedHashMap<>();
    caps.put("tools", Map.of());
    caps.put("experimental", Map.of("kirocrew.caller-identity", Map.of()));
    return row(name, caps);
  }

  /** A row with a clean pre-flight and no declaration: stub, no share. */
  CacheRow measured(String name) {
    return measured(name, 1_700_000_000.0);
  }

  /** As {@link #measured(String)}, taken at {@code evaluatedAt} epoch seconds. */
  CacheRow measured(String name, double evaluatedAt) {
    return row(name, Map.of("tools", Map.of()), evaluatedAt);
  }

  private CacheRow row(String name, Map<String, ?> capabilities) {
    return row(name, capabilities, 1_700_000_000.0);
  }

  private CacheRow row(String name, Map<String, ?> capabilities, double evaluatedAt) {
    return new CacheRow(
        true,
        false,
        List.of(),
        evaluatedAt,
        identity(name),
        "",
        Era.LEGACY,
        new StoredHandshake(capabilities, "2025-06-18", Map.of(), List.of(), true));
  }

  /** Writes the verdict cache. */
  void cache(Map<String, CacheRow> rows, Collection<String> applied) {
    try {
      RecordFile.write(
          records.resolve("shareability-verdicts.json"), CacheCodec.encode(rows, applied));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the verdict cache back. */
  CacheLoad readCache() {
    return CacheCodec.decode(RecordFile.read(records.resolve("shareability-verdicts.json")).root());
  }

  /** Writes a ledger that observed {@code code} for the server. */
  void hazard(String name, String code) {
    hazards(code, Map.of(name, 1_700_000_000.0));
  }

  /** Replaces the ledger: one record of the code for each server, seen at its epoch seconds. */
  void hazards(String code, Map<String, Double> seenAt) {
    HazardLedger ledger = HazardLedger.create();
    seenAt.forEach((name, at) -> ledger.record(name, code, identity(name), at));
    try {
      RecordFile.write(
          records.resolve("observed-hazards.json"), LedgerCodec.encode(ledger.snapshot()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Adds server entries (JSON object members) to the Kiro {@code mcp.json}. */
  void kiroServers(String members) {
    String t = text("mcp.json");
    int at = t.lastIndexOf("\n  }");
    layout.write(
        layout.home().resolve(".kiro/settings/mcp.json"),
        t.substring(0, at) + ",\n    " + members + t.substring(at));
  }

  /** Writes a client file under the home (for example {@code .cursor/mcp.json}). */
  Path homeFile(String relative, String content) {
    return layout.write(layout.home().resolve(relative), content);
  }

  String configText() {
    try {
      return Files.readString(config, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void writeConfig(String text) {
    layout.write(config, text);
  }

  static Object parse(String json) {
    try {
      return JsonReader.withDepthLimit(100).parse(json);
    } catch (Exception e) {
      throw new IllegalStateException(json, e);
    }
  }
}
