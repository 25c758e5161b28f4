package dev.kcshare.host.config;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A server name whose definitions disagree. Such a name gets no pre-flight and no handshake
 * evidence (docs/design.md#evidence-assembly): a stored measurement cannot be attributed to one of
 * its definitions.
 *
 * @param name the server name
 * @param reason what differs, in words ({@link ConfiguredServer#conflictReason()})
 * @param definitions all its definitions, in config order
 * @param differences which fields they differ in ({@link ConfiguredServer#differences()})
 */
public record Conflict(
    String name, String reason, List<ConfiguredDefinition> definitions, List<String> differences) {
  public Conflict {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(reason, "reason");
    definitions = List.copyOf(definitions);
    differences = List.copyOf(differences);
  }

  /** The conflict among the server's definitions, or null when they all agree. */
  public static @Nullable Conflict of(ConfiguredServer server) {
    String reason = server.conflictReason();
    return reason == null
        ? null
        : new Conflict(server.name(), reason, server.configured(), server.differences());
  }
}
