package dev.kcshare.core.records;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.CodePoints;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes the pre-flight verdict cache document ({@code shareability-verdicts.json}) as
 * plain JSON values (docs/formats.md#the-verdict-cache--shareability-verdictsjson). The caller
 * parses and serialises the text.
 *
 * <p>Reading is tolerant and never throws: a malformed row is dropped or its lenient members take
 * their defaults, and every such decision is reported as a {@link Dropped} note. Missing or corrupt
 * evidence reads as "not measured", never as a measurement.
 */
public final class CacheCodec {
  private CacheCodec() {}

  /**
   * Decodes a parsed cache document per docs/design.md#read-tolerance,
   * docs/design.md#stored-handshake. A {@code null} or non-object root is an empty cache. Never
   * throws.
   */
  public static CacheLoad decode(@Nullable Object root) {
    return Dropped.tolerantly(
        notes -> {
          Decoder decoder = decoder();
          RecordDecoder.feed(root, decoder);
          CacheLoad load = decoder.finish();
          notes.addAll(load.dropped());
          return new CacheLoad(load.rows(), load.applied(), notes, load.refusal());
        },
        notes -> new CacheLoad(new TreeMap<>(), new TreeSet<>(), notes));
  }

  /** A decoder to feed a document's top level to, member by member ({@link Decoder}). */
  public static Decoder decoder() {
    return new Decoder();
  }

  /**
   * Decodes a cache document handed over member by member, so a large file is never held as one
   * tree: the members of {@code entries} come one row at a time ({@link #entry}), the other
   * top-level members whole ({@link #member}). The outcome, {@link #finish()}, is exactly {@link
   * CacheCodec#decode} of the same document. Feeding it never throws; not thread-safe.
   */
  public static final class Decoder implements RecordDecoder<CacheLoad> {
    private boolean notAnObject;
    private @Nullable Object root;
    private final Map<String, @Nullable Object> members = new HashMap<>();
    private boolean entriesIsObject;
    private final TreeMap<String, CacheRow> rows = new TreeMap<>(CodePoints.ORDER);
    private final LinkedHashMap<Object, List<Dropped>> rowNotes = new LinkedHashMap<>();

    private Decoder() {}

    /**
     * Equal values of different rows held once: rows of one build, or of servers answering alike,
     * share their handshake, version and reasons, so a large cache costs memory per distinct answer
     * rather than per row. Handshakes are keyed by their compact JSON text: hashing the nested
     * values themselves would recurse as deep as a server nested them.
     */
    private final Map<Object, Object> shared = new HashMap<>();

    private final Map<String, StoredHandshake> handshakes = new HashMap<>();

    private StoredHandshake share(StoredHandshake handshake) {
      return handshakes.computeIfAbsent(
          dev.kcshare.core.json.JsonWriter.compact(handshake.toJson()), k -> handshake);
    }

    @SuppressWarnings("unchecked")
    private <T> T share(T value) {
      return (T) shared.computeIfAbsent(value, v -> v);
    }

    /** Whether {@code member}'s object value is fed entry by entry: {@code entries}. */
    @Override
    public boolean streams(String member) {
      return "entries".equals(member);
    }

    /** A top-level member fed whole (a repeated member keeps its last value). */
    @Override
    public void member(String name, @Nullable Object value) {
      members.put(name, value);
      if ("entries".equals(name)) {
        entriesIsObject = false;
        rows.clear();
        rowNotes.clear();
      }
    }

    /** The object value of {@code entries} begins; a repeated {@code entries} starts over. */
    @Override
    public void begin(String member) {
      members.remove(member);
      entriesIsObject = true;
      rows.clear();
      rowNotes.clear();
    }

    /** One row of {@code entries}; a repeated name keeps its first place and last value. */
    @Override
    public void entry(@Nullable Object key, @Nullable Object value) {
      List<Dropped> notes = new ArrayList<>(0);
      if (!(key instanceof String name)) {
        notes.add(new Dropped("entries", "non-string member name; skipped"));
        rowNotes.put(new Object(), notes);
        return;
      }
      rowNotes.put(name, notes);
      rows.remove(name);
      String where = "entries/" + Values.name(name);
      if (name.isEmpty()) {
        notes.add(new Dropped(where, "empty server name; skipped"));
        return;
      }
      CacheRow row =
          Dropped.tolerantly(
              n -> readRow(value, where, n),
              n -> {
                n.add(new Dropped(where, "unexpected value; row dropped"));
                return null;
              },
              notes);
      if (row != null) {
        StoredHandshake handshake = row.handshake();
        rows.put(
            name,
            new CacheRow(
                row.ran(),
                row.callerSensitive(),
                share(row.reasons()),
                row.evaluatedAt(),
                row.identity(),
                share(row.reportedVersion()),
                row.era(),
                handshake == null ? null : share(handshake),
                row.cost()));
      }
    }

    /** The document's value is not an object. */
    @Override
    public void root(@Nullable Object value) {
      notAnObject = true;
      root = value;
    }

    /** What was fed, decoded: as {@link CacheCodec#decode} of the whole document. */
    @Override
    public CacheLoad finish() {
      return Dropped.tolerantly(
          this::finish, notes -> new CacheLoad(new TreeMap<>(), new TreeSet<>(), notes));
    }

    private CacheLoad finish(List<Dropped> notes) {
      TreeSet<String> applied = new TreeSet<>(CodePoints.ORDER);
      if (notAnObject) {
        notes.add(
            new Dropped("", "top level is " + Values.describe(root) + ", not an object; ignored"));
        return new CacheLoad(new TreeMap<>(), applied, notes);
      }
      String refusal = null;
      if (entriesIsObject) {
        for (List<Dropped> n : rowNotes.values()) {
          notes.addAll(n);
        }
      } else {
        Object entries = members.get("entries");
        String what =
            members.containsKey("entries")
                ? "is " + Values.describe(entries) + ", not an object"
                : "is missing";
        notes.add(new Dropped("entries", what + "; no rows"));
        if (members.containsKey("entries")) {
          refusal = "is not a verdict cache this version understands (entries " + what + ")";
        }
      }
      // Read even when entries is unusable (docs/design.md#read-tolerance): a lost marker would
      // re-seed a server the operator switched off.
      if (members.containsKey("applied")) {
        Object appliedValue = members.get("applied");
        if (appliedValue instanceof List<?> list) {
          for (int i = 0; i < list.size(); i++) {
            Object element = list.get(i);
            if (element instanceof String s && !s.isEmpty()) {
              applied.add(s);
            } else {
              notes.add(
                  new Dropped(
                      "applied/" + i,
                      Values.describe(element) + " is not a non-empty name; ignored"));
            }
          }
        } else {
          notes.add(
              new Dropped(
                  "applied", "is " + Values.describe(appliedValue) + ", not an array; no markers"));
          if (refusal == null) {
            refusal =
                "is not a verdict cache this version understands (applied is "
                    + Values.describe(appliedValue)
                    + ", not an array)";
          }
        }
      }
      return new CacheLoad(entriesIsObject ? rows : new TreeMap<>(), applied, notes, refusal);
    }
  }

  private static @Nullable CacheRow readRow(
      @Nullable Object value, String where, List<Dropped> notes) {
    if (!(value instanceof Map<?, ?> row)) {
      notes.add(new Dropped(where, "is " + Values.describe(value) + ", not an object; skipped"));
      return null;
    }
    Object identityValue = row.get("identity");
    if (!(identityValue instanceof String identity)) {
      notes.add(
          new Dropped(
              where + "/identity",
              describeMember(row, "identity", identityValue) + ", not a string; row dropped"));
      return null;
    }
    String schema = ExecutionIdentity.schemaOf(identity);
    if (!ExecutionIdentity.SCHEMA_FIELD.equals(schema)) {
      String what =
          schema == null
              ? "has no NUL-separated schema field"
              : "has schema " + Values.describe(schema) + ", not 2";
      notes.add(new Dropped(where + "/identity", what + "; row dropped"));
      return null;
    }
    Object ranValue = row.get("ran");
    if (!(ranValue instanceof Boolean ran)) {
      notes.add(
          new Dropped(
              where + "/ran",
              describeMember(row, "ran", ranValue) + ", not a boolean; row dropped"));
      return null;
    }
    Object callerSensitiveValue = row.get("callerSensitive");
    boolean callerSensitive = Boolean.TRUE.equals(callerSensitiveValue);
    if (row.containsKey("callerSensitive") && !(callerSensitiveValue instanceof Boolean)) {
      notes.add(
          new Dropped(
              where + "/callerSensitive",
              Values.describe(callerSensitiveValue) + " is not a boolean; using false"));
    }
    List<String> reasons = new ArrayList<>();
    Object reasonsValue = row.get("reasons");
    if (reasonsValue instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i) instanceof String reason) {
          reasons.add(reason);
        } else {
          notes.add(
              new Dropped(
                  where + "/reasons/" + i, Values.describe(list.get(i)) + " is not a string"));
        }
      }
    } else if (row.containsKey("reasons")) {
      notes.add(
          new Dropped(
              where + "/reasons", Values.describe(reasonsValue) + " is not an array; using []"));
    }
    Object evaluatedAtValue = row.get("evaluatedAt");
    double evaluatedAt = Values.finiteOr(evaluatedAtValue, 0.0);
    if (!Values.isFiniteNumber(evaluatedAtValue)) {
      notes.add(
          new Dropped(
              where + "/evaluatedAt",
              describeMember(row, "evaluatedAt", evaluatedAtValue)
                  + " is not a finite number; using 0.0"));
    }
    Object versionValue = row.get("reportedVersion");
    String reportedVersion = versionValue instanceof String s ? s : "";
    if (row.containsKey("reportedVersion") && !(versionValue instanceof String)) {
      notes.add(
          new Dropped(
              where + "/reportedVersion",
              Values.describe(versionValue) + " is not a string; using \"\""));
    }
    Era era = "modern".equals(row.get("era")) ? Era.MODERN : Era.LEGACY;
    StoredHandshake handshake = null;
    if (row.containsKey("handshake")) {
      handshake = StoredHandshake.fromJson(row.get("handshake"));
      if (handshake == null) {
        notes.add(new Dropped(where + "/handshake", "not well formed; row kept without it"));
      }
    }
    SessionCost cost = null;
    if (row.containsKey(StoredCost.MEMBER)) {
      cost =
          StoredCost.fromJson(row.get(StoredCost.MEMBER), where + "/" + StoredCost.MEMBER, notes);
    }
    return new CacheRow(
        ran,
        callerSensitive,
        reasons,
        evaluatedAt,
        identity,
        reportedVersion,
        era,
        handshake,
        cost);
  }

  private static String describeMember(Map<?, ?> object, String member, @Nullable Object value) {
    return object.containsKey(member) ? Values.describe(value) : "missing";
  }

  /**
   * The cache document as plain values: {@code entries} (names in code-point order; row members
   * {@code ran}, {@code callerSensitive}, {@code reasons}, {@code evaluatedAt}, {@code identity},
   * {@code reportedVersion}, {@code era}, then {@code handshake} and {@code cost} when the row has
   * them) and {@code applied} (sorted, de-duplicated, non-empty names). A non-finite {@code
   * evaluatedAt} is written as 0.0; a row under the empty name is left out (it could never be read
   * back).
   */
  public static Map<String, Object> encode(Map<String, CacheRow> rows, Collection<String> applied) {
    TreeMap<String, CacheRow> sortedRows = new TreeMap<>(CodePoints.ORDER);
    sortedRows.putAll(rows);
    Map<String, Object> entries = new LinkedHashMap<>();
    for (Map.Entry<String, CacheRow> entry : sortedRows.entrySet()) {
      if (!entry.getKey().isEmpty()) {
        entries.put(entry.getKey(), rowValue(entry.getValue()));
      }
    }
    TreeSet<String> sortedApplied = new TreeSet<>(CodePoints.ORDER);
    for (String name : applied) {
      if (!name.isEmpty()) {
        sortedApplied.add(name);
      }
    }
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("entries", entries);
    document.put("applied", new ArrayList<>(sortedApplied));
    return document;
  }

  private static Map<String, Object> rowValue(CacheRow row) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ran", row.ran());
    out.put("callerSensitive", row.callerSensitive());
    out.put("reasons", new ArrayList<>(row.reasons()));
    out.put("evaluatedAt", Double.isFinite(row.evaluatedAt()) ? row.evaluatedAt() : 0.0);
    out.put("identity", row.identity());
    out.put("reportedVersion", row.reportedVersion());
    out.put("era", row.era().json());
    StoredHandshake handshake = row.handshake();
    if (handshake != null) {
      out.put("handshake", handshake.toJson());
    }
    SessionCost cost = row.cost();
    if (cost != null) {
      out.put(StoredCost.MEMBER, StoredCost.toJson(cost));
    }
    return out;
  }
}
