package dev.kcshare.core.records.internal;

import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.json.internal.Values;
import dev.kcshare.core.records.Dropped;
import dev.kcshare.core.text.Escaper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes kcshare's own {@code kcshare-attempts.json} (schema 1) as plain JSON values:
 *
 * <pre>{@code
 * {"schema": 1,
 *  "servers": {"NAME": {"at": 1767261600.5, "identity": "...", "detail": "no response ...",
 *                       "exitStatus": "exit 1", "stderrTail": "...", "failures": 2}}}
 * }</pre>
 *
 * <p>The file is untrusted input like the two shared ones: reading never throws, a member of the
 * wrong type drops its entry, and a corrupt file is "no attempts". Strings are bounded on write and
 * on read; a stderr tail that is not plain printable text is escaped again, so whatever the file
 * holds can be printed as is.
 */
public final class AttemptsCodec {
  /** The schema this build reads and writes. */
  public static final int SCHEMA = 1;

  /** The longest detail kept, in code points. */
  public static final int DETAIL_LIMIT = Escaper.LONG_LIMIT;

  /** The longest escaped stderr tail kept, in chars (500 code points, each at most 10 escaped). */
  public static final int STDERR_TAIL_LIMIT = 10 * Escaper.LONG_LIMIT + 3;

  /** Consecutive failures are counted up to this many. */
  public static final int MAX_FAILURES = 1_000_000;

  private AttemptsCodec() {}

  /** Decodes a parsed document; {@code null} (missing or unparseable file) is "no attempts". */
  public static AttemptsLoad decode(@Nullable Object root) {
    return Values.tolerantly(
        notes -> decode(root, notes),
        notes -> new AttemptsLoad(new TreeMap<>(), false, notes),
        new ArrayList<>(),
        why -> new Dropped("", why));
  }

  private static AttemptsLoad decode(@Nullable Object root, List<Dropped> notes) {
    TreeMap<String, AttemptRecord> servers = new TreeMap<>(CodePoints.ORDER);
    if (root == null) {
      return new AttemptsLoad(servers, false, notes);
    }
    if (!(root instanceof Map<?, ?> top)) {
      notes.add(new Dropped("", "top level is " + Values.describe(root) + ", not an object"));
      return new AttemptsLoad(servers, false, notes);
    }
    Object schema = top.get("schema");
    if (!Values.isIntegral(schema) || ((Number) schema).longValue() != SCHEMA) {
      boolean newer = Values.nonNegativeLong(schema) > SCHEMA;
      notes.add(
          new Dropped(
              "schema",
              (newer ? "newer schema " : "schema is ")
                  + Values.describe(schema)
                  + (newer ? "; not read, and never replaced" : ", not 1; no attempts")));
      return new AttemptsLoad(servers, newer, notes);
    }
    Object entries = top.get("servers");
    if (!(entries instanceof Map<?, ?> entryMap)) {
      notes.add(new Dropped("servers", "is " + Values.describe(entries) + ", not an object"));
      return new AttemptsLoad(servers, false, notes);
    }
    for (Map.Entry<?, ?> e : entryMap.entrySet()) {
      if (!(e.getKey() instanceof String name) || name.isEmpty()) {
        notes.add(new Dropped("servers", "empty or non-string server name; skipped"));
        continue;
      }
      String where = "servers/" + Values.name(name);
      AttemptRecord record = readEntry(e.getValue(), where, notes);
      if (record != null) {
        servers.put(name, record);
      }
    }
    return new AttemptsLoad(servers, false, notes);
  }

  private static @Nullable AttemptRecord readEntry(
      @Nullable Object value, String where, List<Dropped> notes) {
    if (!(value instanceof Map<?, ?> entry)) {
      notes.add(new Dropped(where, "is " + Values.describe(value) + ", not an object; skipped"));
      return null;
    }
    Object at = entry.get("at");
    Object identity = entry.get("identity");
    Object detail = entry.get("detail");
    Object exitStatus = entry.get("exitStatus");
    Object tail = entry.get("stderrTail");
    Object failures = entry.get("failures");
    String problem = null;
    if (!Values.isFiniteNumber(at)) {
      problem = "at is " + Values.describe(at) + ", not a finite number";
    } else if (!(identity instanceof String id) || id.isEmpty()) {
      problem = "identity is " + Values.describe(identity) + ", not a non-empty string";
    } else if (!(detail instanceof String)) {
      problem = "detail is " + Values.describe(detail) + ", not a string";
    } else if (exitStatus != null && !(exitStatus instanceof String)) {
      problem = "exitStatus is " + Values.describe(exitStatus) + ", not a string or null";
    } else if (tail != null && !(tail instanceof String)) {
      problem = "stderrTail is " + Values.describe(tail) + ", not a string";
    } else if (Values.nonNegativeLong(failures) < 1) {
      problem = "failures is " + Values.describe(failures) + ", not a positive integer";
    }
    if (problem != null) {
      notes.add(new Dropped(where, problem + "; skipped"));
      return null;
    }
    return new AttemptRecord(
        ((Number) at).doubleValue(),
        (String) identity,
        boundDetail((String) detail),
        exitStatus == null ? null : printable((String) exitStatus, Escaper.SHORT_LIMIT),
        tail == null ? "" : boundTail((String) tail),
        (int) Math.min(MAX_FAILURES, Values.nonNegativeLong(failures)));
  }

  /**
   * The document for these attempts, names in code-point order; each entry's members in the order
   * {@code at, identity, detail, exitStatus, stderrTail, failures}.
   */
  public static Map<String, Object> encode(Map<String, AttemptRecord> servers) {
    TreeMap<String, AttemptRecord> sorted = new TreeMap<>(CodePoints.ORDER);
    sorted.putAll(servers);
    Map<String, Object> entries = new LinkedHashMap<>();
    for (Map.Entry<String, AttemptRecord> e : sorted.entrySet()) {
      if (!e.getKey().isEmpty()) {
        entries.put(e.getKey(), entryValue(e.getValue()));
      }
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("schema", SCHEMA);
    doc.put("servers", entries);
    return doc;
  }

  private static Map<String, @Nullable Object> entryValue(AttemptRecord r) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("at", r.at());
    m.put("identity", r.identity());
    m.put("detail", boundDetail(r.detail()));
    m.put("exitStatus", r.exitStatus());
    m.put("stderrTail", boundTail(r.stderrTail()));
    m.put("failures", Math.min(MAX_FAILURES, r.failures()));
    return m;
  }

  /** The first {@link #DETAIL_LIMIT} code points of a detail (raw: escape before showing). */
  public static String boundDetail(String detail) {
    int count = detail.codePointCount(0, detail.length());
    if (count <= DETAIL_LIMIT) {
      return detail;
    }
    return detail.substring(0, detail.offsetByCodePoints(0, DETAIL_LIMIT)) + "...";
  }

  /**
   * An escaped stderr tail as it may be printed: escaped again when it holds anything but plain
   * printable text (a hand-edited file), then cut to its last {@link #STDERR_TAIL_LIMIT} chars.
   */
  public static String boundTail(String tail) {
    String safe = printable(tail, Escaper.LONG_LIMIT);
    return safe.length() <= STDERR_TAIL_LIMIT
        ? safe
        : "..." + safe.substring(safe.length() - STDERR_TAIL_LIMIT);
  }

  private static String printable(String s, int limit) {
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (Escaper.isNonPrintable(cp)) {
        return Escaper.escTail(s, limit);
      }
      i += Character.charCount(cp);
    }
    return s;
  }
}
