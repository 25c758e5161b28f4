package dev.kcshare.cli;

import dev.kcshare.testing.NodeFixture;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Writes {@code kcshare.classlist}, the class list the launcher turns into an AppCDS archive on its
 * first run ({@code -Xshare:dump}), at build time ({@code package} phase, {@code exec:java} in the
 * CLI pom, after the runnable jar exists).
 *
 * <p>It runs the packaged jar on a few representative command lines, each in its own JVM with
 * {@code -XX:DumpLoadedClassList}, and merges the lists in first-seen order without repeats (the
 * JDK 17 dump aborts on a repeated line). The command lines read the shipped example config and
 * small record files and never touch the operator's home: each child gets a {@code HOME} of its
 * own, empty or holding the few client files or the Kiro Crew data home a line is about. The only
 * server spawned is the repository's Node.js fixture, for the {@code measure} lines, and only when
 * {@code node} is on the PATH. A static archive, unlike the dynamic one, can hold picocli's Java 5
 * class files.
 */
public final class ClassListTraining {
  private ClassListTraining() {}

  /**
   * @param args the runnable jar, the class list to write, the repository's {@code examples}
   *     directory
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: ClassListTraining JAR OUTPUT EXAMPLES_DIRECTORY");
    }
    Path jar = Path.of(args[0]).toAbsolutePath();
    Path output = Path.of(args[1]).toAbsolutePath();
    Path examples = Path.of(args[2]).toAbsolutePath();
    Path work = Files.createTempDirectory("kcshare-classlist");
    try {
      Files.writeString(output, train(jar, examples, work), StandardCharsets.UTF_8);
    } finally {
      deleteTree(work);
    }
  }

  /** The merged class list of every training command line. */
  static String train(Path jar, Path examples, Path work) throws IOException, InterruptedException {
    Path home = Files.createDirectories(work.resolve("home"));
    Path records = Files.createDirectories(work.resolve("records"));
    copyResource("observed-hazards.json", records);
    copyResource("shareability-verdicts.json", records);
    String fleet = examples.resolve("fleet.json").toString();
    String recordsDir = records.toString();
    String empty = Files.createDirectories(work.resolve("no-records")).toString();
    List<List<String>> commandLines =
        new ArrayList<>(
            List.of(
                List.of("--version"),
                List.of("--help"),
                List.of(
                    "assess", "--all", "--json", "--config", fleet, "--records-dir", recordsDir),
                List.of("assess", "--all", "--config", fleet, "--records-dir", recordsDir),
                List.of("assess", "--all", "--config", fleet, "--records-dir", empty),
                List.of("assess", "notes", "--config", fleet, "--records-dir", recordsDir),
                List.of("cost", "--config", fleet, "--records-dir", recordsDir),
                List.of("cost", "--json", "--config", fleet, "--records-dir", recordsDir),
                List.of("config", "--config", fleet),
                List.of("records", "--records-dir", recordsDir),
                List.of("hazards", "list", "--records-dir", recordsDir),
                List.of("assess", "--evidence", examples.resolve("evidence.json").toString()),
                List.of(
                    "preflight",
                    "compare",
                    examples.resolve("captures/a.json").toString(),
                    examples.resolve("captures/b.json").toString())));
    if (NodeFixture.available()) {
      // Pre-flights of the repository's fixture server (the example fleet's "notes"): the first
      // one, and one that finds its row stored (as cron's next run does).
      String measured = work.resolve("measured").toString();
      commandLines.add(List.of("measure", "notes", "--config", fleet, "--records-dir", measured));
      commandLines.add(List.of("measure", "notes", "--config", fleet, "--records-dir", measured));
    } else {
      System.err.println("ClassListTraining: no node on PATH; measure is left out of the list");
    }
    // Discovery of a home that holds a TOML (Codex) and a YAML (Continue, Goose) file, so the
    // archive also covers their parsers; every other line has an empty home and loads neither.
    Path clients = clientsHome(work.resolve("clients-home"));
    List<List<String>> withClients =
        List.of(List.of("assess", "--all", "--records-dir", empty), List.of("config", "--json"));
    // A host where the Kiro Crew gateway is installed (~/.kiro/crew holds its config.json, the
    // servers are in ~/.kiro/settings/mcp.json): the profile is chosen by looking into that data
    // home, and the gateway's settings are read, paths an empty home never takes.
    Path gatewayHost = kiroCrewHome(work.resolve("kirocrew-home"), examples.resolve("fleet.json"));
    List<List<String>> onGatewayHost =
        new ArrayList<>(
            List.of(
                List.of("assess", "--all", "--records-dir", recordsDir),
                List.of("assess", "notes", "--records-dir", recordsDir),
                List.of("config")));
    if (NodeFixture.available()) {
      String measured = work.resolve("measured-on-gateway-host").toString();
      onGatewayHost.add(List.of("measure", "notes", "--records-dir", measured));
    }
    Set<String> lines = new LinkedHashSet<>();
    int n = 0;
    List<Map.Entry<Path, List<String>>> runs = new ArrayList<>();
    for (List<String> commandLine : commandLines) {
      runs.add(Map.entry(home, commandLine));
    }
    for (List<String> commandLine : withClients) {
      runs.add(Map.entry(clients, commandLine));
    }
    for (List<String> commandLine : onGatewayHost) {
      runs.add(Map.entry(gatewayHost, commandLine));
    }
    for (Map.Entry<Path, List<String>> r : runs) {
      List<String> commandLine = r.getValue();
      Path part = work.resolve("part-" + n++ + ".classlist");
      run(jar, part, r.getKey(), examples, commandLine);
      for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
        if (!line.isBlank() && !line.startsWith("#")) {
          lines.add(line);
        }
      }
    }
    StringBuilder out = new StringBuilder();
    out.append("# kcshare.classlist: the classes kcshare loads on typical command lines, for\n");
    out.append("# the launcher's AppCDS archive (java -Xshare:dump -XX:SharedClassListFile).\n");
    for (String line : lines) {
      out.append(line).append('\n');
    }
    return out.toString();
  }

  /** A home with one Codex TOML and two YAML files (Continue, Goose), each with a server. */
  private static Path clientsHome(Path home) throws IOException {
    write(
        home.resolve(".codex/config.toml"),
        "[mcp_servers.notes]\ncommand = \"node\"\nargs = [\"notes.mjs\"]\nenabled = true\n\n"
            + "[mcp_servers.notes.env]\nMODE = \"train\"\n");
    write(
        home.resolve(".continue/config.yaml"),
        "name: train\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: notes\n"
            + "    command: node\n    args: [notes.mjs]\n");
    write(
        home.resolve(".config/goose/config.yaml"),
        "extensions:\n  notes:\n    enabled: true\n    type: stdio\n    name: notes\n"
            + "    cmd: node\n    args: [notes.mjs]\n    envs: {MODE: train}\n");
    return home;
  }

  /**
   * A home with a Kiro Crew data home (its config.json, with gateway settings) and the example
   * fleet as the Kiro user's servers.
   */
  private static Path kiroCrewHome(Path home, Path fleet) throws IOException {
    write(home.resolve(".kiro/settings/mcp.json"), Files.readString(fleet, StandardCharsets.UTF_8));
    write(
        home.resolve(".kiro/crew/config.json"),
        "{\"agent\": {\"model\": \"train\"},\n"
            + " \"mcp_gateway\": {\"enabled\": true, \"socket_path\": \"\","
            + " \"stub_servers\": [\"notes\"], \"stub_overrides\": {\"calendar\": true},"
            + " \"pool_identity_env\": [\"OAUTH_CLIENT_ID\"]}}\n");
    return home;
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private static void run(
      Path jar, Path classList, Path home, Path examples, List<String> commandLine)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The launcher's flags, so the same classes load.
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Xss4m");
    command.add("-XX:DumpLoadedClassList=" + classList);
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(commandLine);
    ProcessBuilder pb = new ProcessBuilder(command);
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("KCSHARE_") || k.startsWith("KIROCREW_"));
    env.put("HOME", home.toString());
    env.put("NO_COLOR", "1");
    // The repository root, where the example fleet's relative paths resolve (so the launch
    // fingerprints hash a real file, as they do on a host).
    pb.directory(examples.getParent().toFile());
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    p.getOutputStream().close();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("training run did not finish: " + commandLine);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(
          "training run exited with " + p.exitValue() + ": kcshare " + commandLine);
    }
  }

  private static void copyResource(String name, Path dir) throws IOException {
    try (InputStream in =
        Objects.requireNonNull(
            ClassListTraining.class.getResourceAsStream("training/" + name), name)) {
      Files.copy(in, dir.resolve(name));
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
