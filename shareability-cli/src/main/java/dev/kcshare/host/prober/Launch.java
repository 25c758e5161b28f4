package dev.kcshare.host.prober;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How to spawn one server: the resolved command line, the complete child environment and the
 * working directory (docs/design.md#spawning).
 */
record Launch(List<String> commandLine, Map<String, String> environment, Path directory) {
  Launch {
    commandLine = List.copyOf(commandLine);
    environment = Map.copyOf(environment);
  }
}
