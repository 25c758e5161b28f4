package dev.kcshare.core.records.internal;

import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.json.internal.Maps;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory state of {@code kcshare-attempts.json} during one evaluation pass: per server, the
 * last pre-flight that could not run and how many failed in a row under its execution identity. A
 * success forgets the server. The file and its write are the caller's: write {@link #toDocument()}
 * when {@link #isDirty()} and {@link #mayWrite()}, then {@link #markClean()}. Thread-safe.
 *
 * <pre>{@code
 * FailedAttempts attempts = FailedAttempts.of(AttemptsCodec.decode(parsedFile));
 * attempts.recordFailure("files-mcp", identity, now, "timeout", null, "");
 * attempts.recordSuccess("other-mcp");
 * }</pre>
 */
public final class FailedAttempts {
  private final TreeMap<String, AttemptRecord> servers = new TreeMap<>(CodePoints.ORDER);
  private final boolean newer;
  private boolean dirty;

  private FailedAttempts(boolean newer) {
    this.newer = newer;
  }

  /** No attempts remembered. */
  public static FailedAttempts empty() {
    return new FailedAttempts(false);
  }

  /** The attempts a read produced; clean. */
  public static FailedAttempts of(AttemptsLoad load) {
    FailedAttempts attempts = new FailedAttempts(load.newer());
    attempts.servers.putAll(load.servers());
    return attempts;
  }

  /** The last failed attempt of a server, or null. */
  public synchronized @Nullable AttemptRecord get(String name) {
    return servers.get(name);
  }

  /** Every remembered attempt, in code-point order of the names. */
  public synchronized SortedMap<String, AttemptRecord> all() {
    return Maps.sortedCopy(servers);
  }

  /**
   * Remembers a pre-flight that could not run: the count continues when the previous failure was
   * under the same identity, and starts again at 1 otherwise.
   *
   * @return the record now held for the server
   */
  public synchronized AttemptRecord recordFailure(
      String name,
      String identity,
      double at,
      String detail,
      @Nullable String exitStatus,
      String stderrTail) {
    Objects.requireNonNull(name, "name");
    AttemptRecord previous = servers.get(name);
    int failures =
        previous != null && previous.identity().equals(identity)
            ? (int) Math.min(AttemptsCodec.MAX_FAILURES, previous.failures() + 1L)
            : 1;
    AttemptRecord record =
        new AttemptRecord(
            at,
            identity,
            AttemptsCodec.boundDetail(detail),
            exitStatus,
            AttemptsCodec.boundTail(stderrTail),
            failures);
    servers.put(name, record);
    dirty = true;
    return record;
  }

  /**
   * Remembers a failure of a pre-flight the operator asked for by name ({@code kcshare measure
   * NAME}), which does not count toward the backoff: trying a server again while fixing it must not
   * make {@code measure --all} wait longer for it. A failure already remembered under the same
   * identity is kept as it is (its count and time still decide when a pass of due servers tries
   * again); otherwise this one is remembered as the first.
   *
   * @return the attempt now remembered for the server
   */
  public synchronized AttemptRecord recordUncountedFailure(
      String name,
      String identity,
      double at,
      String detail,
      @Nullable String exitStatus,
      String stderrTail) {
    Objects.requireNonNull(name, "name");
    AttemptRecord previous = servers.get(name);
    if (previous != null && previous.identity().equals(identity)) {
      return previous;
    }
    servers.remove(name);
    return recordFailure(name, identity, at, detail, exitStatus, stderrTail);
  }

  /** Forgets a server's failures: its pre-flight ran. */
  public synchronized void recordSuccess(String name) {
    if (servers.remove(name) != null) {
      dirty = true;
    }
  }

  /** Whether something changed since loading or the last {@link #markClean()}. */
  public synchronized boolean isDirty() {
    return dirty;
  }

  /**
   * False when the file was written by a newer kcshare (a schema this build does not know): such a
   * file is never replaced.
   */
  public boolean mayWrite() {
    return !newer;
  }

  /** The document to write ({@link AttemptsCodec#encode}). */
  public synchronized Map<String, Object> toDocument() {
    return AttemptsCodec.encode(servers);
  }

  /** Call after {@link #toDocument()} was written. */
  public synchronized void markClean() {
    dirty = false;
  }
}
