package dev.kcshare.core.records;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One thing a tolerant load left out or replaced, and why, so that {@code kcshare records} can
 * explain a file instead of silently showing less than it holds. Loading never writes: the file
 * still holds the value until its next rewrite.
 *
 * @param where a path into the document, names escaped (for example {@code
 *     servers/files-mcp/identities/...}); {@code ""} for the whole document
 * @param why the rule that applied, for humans
 */
public record Dropped(String where, String why) {
  public Dropped {
    Objects.requireNonNull(where, "where");
    Objects.requireNonNull(why, "why");
  }

  /**
   * Runs a tolerant decoder that reports into a list of notes. An exception escaping it (impossible
   * for plain JSON values; a safety net so a loader can never raise) becomes a note on the whole
   * document and the result {@code empty} builds from the notes so far.
   */
  static <T> T tolerantly(Function<List<Dropped>, T> decode, Function<List<Dropped>, T> empty) {
    return tolerantly(decode, empty, new ArrayList<>());
  }

  /**
   * As {@link #tolerantly(Function, Function)}, reporting into {@code notes}: the decoder's notes
   * so far are kept when it fails, and the failure is one more note.
   */
  static <T> T tolerantly(
      Function<List<Dropped>, T> decode, Function<List<Dropped>, T> empty, List<Dropped> notes) {
    try {
      return decode.apply(notes);
    } catch (RuntimeException e) {
      notes.add(
          new Dropped("", "unexpected value (" + e.getClass().getSimpleName() + "); ignored"));
      return empty.apply(notes);
    }
  }

  @Override
  public String toString() {
    return (where.isEmpty() ? "(document)" : where) + ": " + why;
  }
}
