package dev.kcshare.core.records;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Assembles execution identity strings and binary fingerprints (docs/design.md#binary-fingerprint,
 * docs/design.md#cache-identity, docs/design.md#launch-identity). The I/O half of a fingerprint
 * (PATH lookup, link resolution, stat, reading) is the caller's; this class holds the byte-exact
 * formatting both identities share with the Kiro Crew gateway.
 */
public final class ExecutionIdentity {
  /** The verdict-cache schema, the last NUL-separated field of a cache identity. */
  public static final int SCHEMA = 2;

  /** {@link #SCHEMA} as the identity field text. */
  public static final String SCHEMA_FIELD = Integer.toString(SCHEMA);

  /** Fingerprint of a path that is not a readable regular file, or of any I/O failure. */
  public static final String UNKNOWN = "unknown";

  /** Files strictly larger than this many bytes are fingerprinted by size and mtime, not hashed. */
  public static final long LARGE_FILE_THRESHOLD = 4L * 1024 * 1024;

  private static final char NUL = '\u0000';
  private static final int CONTENT_FINGERPRINT_LENGTH = 24;

  private ExecutionIdentity() {}

  /**
   * The verdict-cache identity: {@code command_args_hash NUL env_hash NUL binary_version NUL 2}.
   * The server name is not part of it; it is the row key.
   *
   * @param commandArgsHash the hash of the resolved command and its arguments ({@link
   *     IdentityHashes})
   * @param envHash the hash of the identity-relevant environment ({@link IdentityHashes})
   * @param binaryVersion the binary fingerprint ({@link #binaryVersion})
   * @return the four NUL-separated fields, {@link #SCHEMA_FIELD} last
   */
  public static String cacheIdentity(String commandArgsHash, String envHash, String binaryVersion) {
    return commandArgsHash + NUL + envHash + NUL + binaryVersion + NUL + SCHEMA_FIELD;
  }

  /**
   * The ledger launch identity: {@code command_args_hash NUL env_hash NUL binary_version}, without
   * the schema, because a witnessed hazard stays true however the pre-flight evolves.
   *
   * @param commandArgsHash the hash of the resolved command and its arguments ({@link
   *     IdentityHashes})
   * @param envHash the hash of the identity-relevant environment ({@link IdentityHashes})
   * @param binaryVersion the binary fingerprint ({@link #binaryVersion})
   * @return the three NUL-separated fields
   */
  public static String launchIdentity(
      String commandArgsHash, String envHash, String binaryVersion) {
    return commandArgsHash + NUL + envHash + NUL + binaryVersion;
  }

  /**
   * Joins fingerprint parts (the command's, then each file argument's) with NUL.
   *
   * @param fingerprintParts each a content fingerprint, a large-file fingerprint or {@link
   *     #UNKNOWN}
   * @return the {@code binary_version} field
   */
  public static String binaryVersion(List<String> fingerprintParts) {
    return String.join(String.valueOf(NUL), fingerprintParts);
  }

  /**
   * The last NUL-separated field of a cache identity, or null when the string has no NUL. Only the
   * last field is the schema, because {@code binary_version} may itself contain NULs.
   *
   * @param identity a stored cache identity
   * @return the text after the last NUL, or null
   */
  public static @Nullable String schemaOf(String identity) {
    int last = identity.lastIndexOf(NUL);
    return last < 0 ? null : identity.substring(last + 1);
  }

  /**
   * Whether a stored cache identity carries this build's schema and may therefore be kept.
   *
   * @param identity a stored cache identity
   * @return true iff its last field is {@link #SCHEMA_FIELD}
   */
  public static boolean hasCurrentSchema(String identity) {
    return SCHEMA_FIELD.equals(schemaOf(identity));
  }

  /**
   * Fingerprint of a file of at most {@link #LARGE_FILE_THRESHOLD} bytes: 24 hex of SHA-256.
   *
   * @param content the file's bytes
   * @return the first 24 lowercase hex digits of the content's SHA-256
   */
  public static String fingerprintOfContent(byte[] content) {
    return IdentityHashes.sha256Hex(content).substring(0, CONTENT_FINGERPRINT_LENGTH);
  }

  /**
   * Fingerprint of a file larger than {@link #LARGE_FILE_THRESHOLD}: {@code sz<size>-mt<mtime>},
   * mtime in whole seconds with the fraction discarded (the caller truncates).
   *
   * @param size the file's size in bytes
   * @param mtimeSeconds the file's modification time in whole epoch seconds
   * @return {@code sz<size>-mt<mtime>}
   */
  public static String fingerprintOfLargeFile(long size, long mtimeSeconds) {
    return "sz" + size + "-mt" + mtimeSeconds;
  }
}
