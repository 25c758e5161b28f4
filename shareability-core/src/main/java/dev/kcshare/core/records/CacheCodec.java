package dev.kcshare.core.records;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.EraBasis;
import dev.kcshare.core.handshake.SelfTest;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.RawJson;
import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.json.internal.Values;
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
  /** kcshare's own row member naming how the era was reached, when not the era's default. */
  static final String ERA_BASIS = "eraBasis";

  /** kcshare's own row member telling an in-process divergence from one across processes. */
  static final String DIVERGENCE = "divergence";

  /** kcshare's own row member holding the outcome of the isolation self-test. */
  static final String SELF_TEST = "selfTest";

  /** kcshare's own row member holding the modern measurement beside a legacy row. */
  static final String MODERN = "modern";

  private CacheCodec() {}

  /**
   * Decodes a parsed cache document per docs/design.md#read-tolerance,
   * docs/design.md#stored-handshake, keeping what a writer writes back as read ({@link
   * CacheLoad#asRead()}, {@link CacheLoad#otherMembers()}), as {@link #decoderForWriting()} does. A
   * {@code null} or non-object root is an empty cache. Never throws.
   *
   * @param root the parsed document, or null
   * @return the rows, applied markers and what is kept as read, and what was dropped
   */
  public static CacheLoad decode(@Nullable Object root) {
    return Tolerant.decode(
        notes -> {
          Decoder decoder = decoderForWriting();
          RecordDecoder.feed(root, decoder);
          CacheLoad load = decoder.finish();
          notes.addAll(load.dropped());
          return new CacheLoad(
              load.rows(),
              load.applied(),
              notes,
              load.refusal(),
              load.asRead(),
              load.otherMembers());
        },
        notes -> new CacheLoad(new TreeMap<>(), new TreeSet<>(), notes));
  }

  /**
   * A decoder to feed a document's top level to, member by member ({@link Decoder}).
   *
   * @return a new decoder that keeps nothing as read
   */
  public static Decoder decoder() {
    return new Decoder(false);
  }

  /**
   * A decoder for a writer that will replace the file: it also keeps, as compact text, every row it
   * does not take or would not write back as the same value, and every unknown top-level member
   * ({@link CacheLoad#asRead()}, {@link CacheLoad#otherMembers()}), so a write carries them through
   * (docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file). Rows it takes and would write
   * back identically cost nothing extra.
   *
   * @return a new decoder that keeps what a writer writes back as read
   */
  public static Decoder decoderForWriting() {
    return new Decoder(true);
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
    private final boolean forWriting;
    private final TreeMap<String, RawJson> asRead = new TreeMap<>(CodePoints.ORDER);
    private final LinkedHashMap<String, RawJson> otherMembers = new LinkedHashMap<>();

    private Decoder(boolean forWriting) {
      this.forWriting = forWriting;
    }

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
        asRead.clear();
      } else if (forWriting && !"applied".equals(name)) {
        otherMembers.remove(name);
        otherMembers.put(name, RawJson.of(value));
      }
    }

    /** The object value of {@code entries} begins; a repeated {@code entries} starts over. */
    @Override
    public void begin(String member) {
      members.remove(member);
      entriesIsObject = true;
      rows.clear();
      rowNotes.clear();
      asRead.clear();
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
      asRead.remove(name);
      String where = "entries/" + Values.name(name);
      if (name.isEmpty()) {
        notes.add(new Dropped(where, "empty server name; skipped"));
        if (forWriting) {
          asRead.put(name, RawJson.of(value));
        }
        return;
      }
      CacheRow row =
          Tolerant.decode(
              n -> readRow(value, where, n),
              n -> {
                n.add(new Dropped(where, "unexpected value; row dropped"));
                return null;
              },
              notes);
      if (forWriting
          && (row == null
              || !JsonWriter.canonical(value).equals(JsonWriter.canonical(rowValue(row))))) {
        asRead.put(name, RawJson.of(value));
      }
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
                row.cost(),
                row.basis(),
                row.modern(),
                row.divergence(),
                row.selfTest()));
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
      return Tolerant.decode(
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
      return new CacheLoad(
          entriesIsObject ? rows : new TreeMap<>(),
          applied,
          notes,
          refusal,
          entriesIsObject ? asRead : new TreeMap<>(),
          otherMembers);
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
    EraBasis basis = EraBasis.fromJsonLenient(row.get(ERA_BASIS), era);
    CacheRow modern = null;
    if (row.containsKey(MODERN)) {
      modern = readModern(row.get(MODERN), identity, basis, where + "/" + MODERN, notes);
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
        cost,
        basis,
        modern,
        row.get(DIVERGENCE) instanceof String d ? d : null,
        SelfTest.fromJsonLenient(row.get(SELF_TEST)));
  }

  /**
   * The {@code modern} member of a row (docs/design.md#rows-of-two-era-choices): read as a row of
   * the outer row's identity; kept only beside a legacy row answered by {@code initialize} and when
   * it is a modern measurement that ran.
   */
  private static @Nullable CacheRow readModern(
      @Nullable Object value,
      String identity,
      EraBasis outerBasis,
      String where,
      List<Dropped> notes) {
    if (!(value instanceof Map<?, ?> map)) {
      notes.add(new Dropped(where, "is " + Values.describe(value) + ", not an object; ignored"));
      return null;
    }
    Map<Object, Object> asRow = new LinkedHashMap<>(map);
    asRow.put("identity", identity);
    asRow.remove(MODERN);
    asRow.remove(StoredCost.MEMBER);
    CacheRow modern = readRow(asRow, where, notes);
    if (modern == null) {
      return null;
    }
    if (outerBasis != EraBasis.INITIALIZE || modern.era() != Era.MODERN || !modern.ran()) {
      notes.add(new Dropped(where, "not a modern measurement beside a legacy row; ignored"));
      return null;
    }
    return modern;
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
   *
   * @param rows the rows, by server name
   * @param applied the applied markers
   * @return the document as a new map of plain values
   */
  public static Map<String, Object> encode(Map<String, CacheRow> rows, Collection<String> applied) {
    return encode(rows, applied, Map.of(), Map.of());
  }

  /**
   * {@link #encode(Map, Collection)}, writing back what a writer keeps as read
   * (docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file): a name in {@code asRead} is
   * written as the file held it (in place of a row of {@code rows} under that name, and also under
   * the empty name), and {@code otherMembers} follow {@code applied} at the top level.
   *
   * @param rows the rows, by server name
   * @param applied the applied markers
   * @param asRead rows to write back as the file held them, by server name
   * @param otherMembers unknown top-level members to write back, in file order
   * @return the document as a new map of plain values
   */
  public static Map<String, Object> encode(
      Map<String, CacheRow> rows,
      Collection<String> applied,
      Map<String, RawJson> asRead,
      Map<String, RawJson> otherMembers) {
    TreeMap<String, Object> sortedRows = new TreeMap<>(CodePoints.ORDER);
    for (Map.Entry<String, CacheRow> entry : rows.entrySet()) {
      if (!entry.getKey().isEmpty()) {
        sortedRows.put(entry.getKey(), entry.getValue());
      }
    }
    sortedRows.putAll(asRead);
    Map<String, Object> entries = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : sortedRows.entrySet()) {
      entries.put(
          entry.getKey(),
          entry.getValue() instanceof CacheRow row ? rowValue(row) : entry.getValue());
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
    for (Map.Entry<String, RawJson> member : otherMembers.entrySet()) {
      if (!"entries".equals(member.getKey()) && !"applied".equals(member.getKey())) {
        document.put(member.getKey(), member.getValue());
      }
    }
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
    if (row.basis() != EraBasis.defaultFor(row.era())) {
      out.put(ERA_BASIS, row.basis().json());
    }
    String divergence = row.divergence();
    if (divergence != null) {
      out.put(DIVERGENCE, divergence);
    }
    SelfTest selfTest = row.selfTest();
    if (selfTest != null) {
      out.put(SELF_TEST, selfTest.json());
    }
    CacheRow modern = row.modern();
    if (modern != null) {
      Map<String, Object> nested = rowValue(modern);
      nested.remove("identity");
      out.put(MODERN, nested);
    }
    return out;
  }
}
