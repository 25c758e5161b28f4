package dev.kcshare.core.policy.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Which skipped-file warnings a command shows. A discovered configuration file that cannot be read
 * is the operator's only sign that its servers are left out, so the warning is never dropped; but a
 * quiet run ({@code -q}, as from cron) shows it once per state of the file, not on every run: again
 * when the file changes (its {@code stamp}: size, time and the problem found), or when it was fixed
 * and breaks again. A run that is not quiet shows every warning. Either way the memory is brought
 * up to date: files that are no longer skipped are forgotten.
 *
 * @param shown the warnings to print, in the order given
 * @param remembered what to remember now, file to stamp (sorted by file)
 */
public record SkippedFileWarnings(List<String> shown, Map<String, String> remembered) {
  /** One skipped file: its path (the key), its stamp and the warnings it gives. */
  public record Skipped(String file, String stamp, List<String> warnings) {
    public Skipped {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(stamp, "stamp");
      warnings = List.copyOf(warnings);
    }
  }

  public SkippedFileWarnings {
    shown = List.copyOf(shown);
    remembered = java.util.Collections.unmodifiableMap(new TreeMap<>(remembered));
  }

  /**
   * Decides what to show.
   *
   * @param previous what was remembered (file to stamp); empty when nothing was
   * @param skipped the files skipped now
   * @param quiet whether the run is quiet
   */
  public static SkippedFileWarnings decide(
      Map<String, String> previous, List<Skipped> skipped, boolean quiet) {
    List<String> shown = new ArrayList<>();
    Map<String, String> now = new LinkedHashMap<>();
    for (Skipped s : skipped) {
      if (!quiet || !s.stamp().equals(previous.get(s.file()))) {
        shown.addAll(s.warnings());
      }
      now.put(s.file(), s.stamp());
    }
    return new SkippedFileWarnings(shown, now);
  }

  /** Whether {@link #remembered()} differs from {@code previous} (so it must be written). */
  public boolean changes(Map<String, String> previous) {
    return !remembered.equals(new TreeMap<>(previous));
  }
}
