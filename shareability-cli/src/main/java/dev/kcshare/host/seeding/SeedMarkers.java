package dev.kcshare.host.seeding;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.policy.internal.GatewaySeeding.Gateway;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import dev.kcshare.host.records.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * kcshare's own record of which names it has seeded into one gateway's file: {@code
 * kcshare-seeded-mcphub.json} or {@code kcshare-seeded-1mcp.json} in the records directory, {@code
 * {"schema": 1, "seeded": [names...]}}. Keyed by name and never pruned, like the Kiro Crew applied
 * markers: after the first seed an entry is the operator's. Unknown members are kept when the file
 * is rewritten.
 */
public final class SeedMarkers {
  private final Path file;
  private final Map<String, @Nullable Object> root;
  private final Set<String> seeded;

  private SeedMarkers(Path file, Map<String, @Nullable Object> root, Set<String> seeded) {
    this.file = file;
    this.root = root;
    this.seeded = seeded;
  }

  /** The markers file of a gateway in the records directory. */
  public static Path fileFor(Path recordsDir, Gateway gateway) {
    return recordsDir.resolve(
        "kcshare-seeded-" + (gateway == Gateway.MCPHUB ? "mcphub" : "1mcp") + ".json");
  }

  /**
   * Reads the markers; a missing file has none.
   *
   * @throws BadInputException naming the file when it is not a markers file kcshare can read
   */
  public static SeedMarkers read(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new SeedMarkers(file, new LinkedHashMap<>(), new TreeSet<>(CodePoints.ORDER));
    }
    Object parsed;
    try {
      parsed = JsonReader.forRecords().parse(bytes);
    } catch (JsonSyntaxException e) {
      throw new BadInputException(file + ": not valid JSON; move it aside to start over");
    }
    if (!(parsed instanceof Map<?, ?> m)
        || !(m.get("schema") instanceof Number n)
        || n.doubleValue() != 1
        || !(m.get("seeded") instanceof Collection<?> names)) {
      throw new BadInputException(
          file + ": not a kcshare seed-markers file (schema 1); move it aside to start over");
    }
    Map<String, @Nullable Object> root = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      root.put(String.valueOf(e.getKey()), e.getValue());
    }
    Set<String> seeded = new TreeSet<>(CodePoints.ORDER);
    for (Object o : names) {
      if (o instanceof String s && !s.isEmpty()) {
        seeded.add(s);
      }
    }
    return new SeedMarkers(file, root, seeded);
  }

  /** The names already seeded. */
  public Set<String> seeded() {
    return Set.copyOf(seeded);
  }

  /**
   * Marks the names seeded and writes the file (atomically, 0600) when that adds any.
   *
   * @return whether the file was written
   */
  public boolean mark(Collection<String> names) throws IOException {
    if (seeded.containsAll(names)) {
      return false;
    }
    seeded.addAll(names);
    Map<String, @Nullable Object> out = new LinkedHashMap<>(root);
    out.put("schema", 1);
    out.put("seeded", java.util.List.copyOf(seeded));
    AtomicFiles.write(file, (JsonWriter.pretty(out) + "\n").getBytes(StandardCharsets.UTF_8));
    return true;
  }
}
