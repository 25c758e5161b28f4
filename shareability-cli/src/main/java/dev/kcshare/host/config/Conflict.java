package dev.kcshare.host.config;

import java.util.List;
import java.util.Objects;

/**
 * A server name whose definitions disagree. Such a name gets no pre-flight and no handshake
 * evidence (docs/design.md#evidence-assembly): a stored measurement cannot be attributed to one of
 * its definitions.
 *
 * @param name the server name
 * @param reason what differs, in words
 * @param definitions all its definitions, in config order
 */
public record Conflict(String name, String reason, List<ConfiguredDefinition> definitions) {
  public Conflict {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(reason, "reason");
    definitions = List.copyOf(definitions);
  }

  /** Which fields the definitions differ in ({@link ConfiguredServer#differences()}). */
  public List<String> differences() {
    return ConfiguredServer.differences(definitions);
  }
}
