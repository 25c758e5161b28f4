package dev.kcshare.core.records.internal;

import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which parts of two verdict-cache execution identities (docs/design.md#cache-identity) differ, so
 * an operator can be told why two definitions of one server name are not the same server: the
 * command or its arguments, the declared env (names or values; the values themselves are never
 * shown), or the fingerprints of the executable and the file arguments.
 */
public final class IdentityDifference {
  private IdentityDifference() {}

  /** A part of an execution identity. */
  public enum Part {
    /** {@code command_args_hash}: the command or an argument differs. */
    COMMAND_OR_ARGUMENTS("command or arguments"),
    /** {@code env_hash}: a declared env name or value differs (secret-prefixed names excluded). */
    ENV("declared env (names or values)"),
    /** {@code binary_version}: the executable or a file argument has other content. */
    BINARIES("fingerprint of the executable or a file argument"),
    /** The schema field. */
    SCHEMA("identity schema");

    private final String words;

    Part(String words) {
      this.words = words;
    }

    /** The part in words, for people. */
    public String words() {
      return words;
    }
  }

  /**
   * The parts in which {@code a} and {@code b} differ; empty when they are equal. A string that is
   * not a well-formed identity (fewer than four NUL-separated fields) differs in every part.
   */
  public static Set<Part> between(String a, String b) {
    Set<Part> out = EnumSet.noneOf(Part.class);
    if (a.equals(b)) {
      return out;
    }
    String[] x = fields(a);
    String[] y = fields(b);
    if (x == null || y == null) {
      return EnumSet.allOf(Part.class);
    }
    if (!x[0].equals(y[0])) {
      out.add(Part.COMMAND_OR_ARGUMENTS);
    }
    if (!x[1].equals(y[1])) {
      out.add(Part.ENV);
    }
    if (!x[2].equals(y[2])) {
      out.add(Part.BINARIES);
    }
    if (!x[3].equals(y[3])) {
      out.add(Part.SCHEMA);
    }
    return out;
  }

  /**
   * command_args_hash, env_hash, binary_version (which may itself contain NULs) and the schema;
   * null when the string has fewer than four fields.
   */
  private static String @Nullable [] fields(String identity) {
    int first = identity.indexOf('\0');
    int second = first < 0 ? -1 : identity.indexOf('\0', first + 1);
    int last = identity.lastIndexOf('\0');
    if (first < 0 || second < 0 || last <= second) {
      return null;
    }
    return new String[] {
      identity.substring(0, first),
      identity.substring(first + 1, second),
      identity.substring(second + 1, last),
      identity.substring(last + 1)
    };
  }
}
