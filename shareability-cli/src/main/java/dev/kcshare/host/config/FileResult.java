package dev.kcshare.host.config;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.UnusableEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What one file produced. {@code problems} holds every problem in the order found, the file's own
 * and its entries'; {@code unusable} the entries' again, each with its server name: a file whose
 * problems are all its entries' is read without them.
 */
final class FileResult {
  final String display;
  final Path path;
  final List<String> problems = new ArrayList<>();
  final List<String> warnings = new ArrayList<>();
  final List<ConfiguredDefinition> definitions = new ArrayList<>();
  final List<UnusableEntry> unusable = new ArrayList<>();

  FileResult(String display, Path path) {
    this.display = display;
    this.path = path;
  }

  /** Records an entry that cannot be used: a problem of the file, and of that entry alone. */
  void unusable(String server, String pointer, String problem) {
    problems.add((pointer.isEmpty() ? "(root)" : pointer) + ": " + problem);
    unusable.add(UnusableEntry.of(server, display, pointer, problem));
  }

  /** Whether a problem is the file's own rather than one of its entries'. */
  boolean fileProblems() {
    return problems.size() > unusable.size();
  }
}
