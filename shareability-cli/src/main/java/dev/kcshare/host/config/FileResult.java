package dev.kcshare.host.config;

import dev.kcshare.embed.ConfiguredDefinition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What one file produced. */
final class FileResult {
  final String display;
  final Path path;
  final List<String> problems = new ArrayList<>();
  final List<String> warnings = new ArrayList<>();
  final List<ConfiguredDefinition> definitions = new ArrayList<>();

  FileResult(String display, Path path) {
    this.display = display;
    this.path = path;
  }
}
