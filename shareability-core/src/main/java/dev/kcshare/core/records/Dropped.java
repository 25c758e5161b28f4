package dev.kcshare.core.records;

import java.util.Objects;

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
  /**
   * Validates.
   *
   * @param where a path into the document, names escaped (for example {@code
   *     servers/files-mcp/identities/...}); {@code ""} for the whole document
   * @param why the rule that applied, for humans
   */
  public Dropped {
    Objects.requireNonNull(where, "where");
    Objects.requireNonNull(why, "why");
  }

  @Override
  public String toString() {
    return (where.isEmpty() ? "(document)" : where) + ": " + why;
  }
}
