package dev.kcshare.host.prober;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.EraBasis;
import dev.kcshare.core.handshake.SelfTest;
import dev.kcshare.core.handshake.internal.Answers;
import dev.kcshare.core.handshake.internal.Captures;
import dev.kcshare.core.json.internal.JsonValues;
import dev.kcshare.core.verdict.Assessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One identity's conversation with one process: the legacy exchange
 * (docs/design.md#legacy-exchange) or the modern one (docs/design.md#modern-era-servers), with the
 * tool listing of docs/design.md#normalising-answers. Sends only the requests documented there.
 */
final class Exchange {
  static final String LEGACY_PROTOCOL_VERSION = "2024-11-05";
  static final int MAX_PAGES = 100;

  static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

  /** What one exchange produced. */
  sealed interface Result permits Answered, ModernDetected {}

  /**
   * The identity's normalised answer, and its capture when raw answers were kept.
   *
   * @param capture the capture (docs/design.md#capture-format), or null when not asked for
   * @param basis how the answer's era was reached
   * @param bFromA modern era, identity A only: A's process asked again as caller B
   *     (docs/design.md#one-process-two-callers); null when not asked or not answered
   * @param selfTest identity A only: the outcome of the isolation self-test the answer designated
   *     (docs/verdicts.md#the-isolation-self-test); null when it designated none
   */
  record Answered(
      Answer answer,
      @Nullable Map<String, @Nullable Object> capture,
      EraBasis basis,
      @Nullable Answer bFromA,
      @Nullable SelfTest selfTest)
      implements Result {}

  /** The initialize error identified a modern-era server (docs/design.md#modern-era-servers). */
  record ModernDetected() implements Result {}

  /** The {@code tools/call} argument that carries the self-test's marker. */
  static final String MARKER = "marker";

  private final JsonRpcChannel channel;
  private final Identity identity;
  private final boolean keepRaw;

  /**
   * Whether identity A runs the isolation self-test its answer designates; when false, a designated
   * test is {@link SelfTest#SKIPPED}. Off for every exchange that is not a measurement's.
   */
  private final boolean selfTest;

  /** {@link System#nanoTime()} when the initialize or discover answer arrived; 0 until then. */
  volatile long answeredAt;

  /** {@link System#nanoTime()} when the last tools/list page arrived; 0 until then. */
  volatile long listedAt;

  /** The id of the last tools/list page requested. */
  private long lastId;

  /**
   * @param keepRaw keep every tool object whole for the capture; otherwise only the members the
   *     answer reads ({@code name}, {@code annotations}) are kept, bounding memory across pages
   */
  Exchange(JsonRpcChannel channel, Identity identity, boolean keepRaw) {
    this(channel, identity, keepRaw, false);
  }

  /**
   * @param selfTest run the isolation self-test the answer designates (identity A only)
   */
  Exchange(JsonRpcChannel channel, Identity identity, boolean keepRaw, boolean selfTest) {
    this.channel = channel;
    this.identity = identity;
    this.keepRaw = keepRaw;
    this.selfTest = selfTest;
  }

  /**
   * {@code initialize}, {@code notifications/initialized}, {@code tools/list} pages.
   *
   * @param askDiscover on an {@code initialize} error, find out whether the server is a modern one
   *     before failing on it: a modern error identifies it at once, any other error is followed by
   *     one {@code server/discover} on the same process (docs/design.md#which-era-is-measured)
   */
  Result legacy(boolean askDiscover) throws ProbeFailure, InterruptedException {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("protocolVersion", LEGACY_PROTOCOL_VERSION);
    params.put("capabilities", Map.of());
    params.put("clientInfo", identity.clientInfo());
    long sentAt = channel.send(request(1, "initialize", params));
    Map<String, Object> response = channel.await(1, sentAt, ProbeFailure.NO_RESPONSE);
    answeredAt = System.nanoTime();
    Object error = response.get("error");
    if (JsonValues.isTruthy(error)) {
      if (askDiscover && (Messages.identifiesModern(error) || discoverAnswers(2))) {
        return new ModernDetected();
      }
      throw new ProbeFailure(Messages.errorMessage(error));
    }
    return afterInitialize(response.get("result"), 2, EraBasis.INITIALIZE);
  }

  /**
   * {@code notifications/initialized} and the listing after an answered {@code initialize}, the
   * first page with id {@code firstListId}.
   */
  private Result afterInitialize(@Nullable Object result, long firstListId, EraBasis basis)
      throws ProbeFailure, InterruptedException {
    Map<String, Object> initialized = new LinkedHashMap<>();
    initialized.put("jsonrpc", "2.0");
    initialized.put("method", "notifications/initialized");
    channel.send(initialized);
    Listing listing = listTools(null, "initialize", firstListId);
    listedAt = System.nanoTime();
    Answer answer = Answers.legacy(result, listing.tools());
    SelfTest outcome = identity == Identity.A ? selfTest(answer, null) : null;
    return new Answered(answer, capture(Era.LEGACY, result, listing), basis, null, outcome);
  }

  /**
   * After a rejected {@code initialize}: whether one {@code server/discover} (id {@code id}) on the
   * same process identifies a modern server, by a discover result or a modern error. Anything else,
   * no answer included, is no.
   */
  private boolean discoverAnswers(long id) throws InterruptedException {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("_meta", meta());
    long sentAt = channel.send(request(id, "server/discover", params));
    Map<String, Object> response;
    try {
      response = channel.await(id, sentAt, ProbeFailure.NO_RESPONSE);
    } catch (ProbeFailure f) {
      return false; // the initialize error is the failure reported
    }
    Object error = response.get("error");
    if (JsonValues.isTruthy(error)) {
      return Messages.identifiesModern(error);
    }
    return JsonValues.asObject(response.get("result")) != null;
  }

  /**
   * The opening of a client of both eras (docs/design.md#which-era-is-measured): {@code
   * server/discover} first; its result continues the modern exchange, a modern error fails it, and
   * any other error or no answer within the timeout falls back to the legacy exchange on the same
   * process ({@code initialize} with id 2). A process that ends before answering discover is "no
   * response", as an {@code initialize} would be.
   */
  Result modernFirst() throws ProbeFailure, InterruptedException {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("_meta", meta());
    long sentAt = channel.send(request(1, "server/discover", params));
    Map<String, Object> response;
    try {
      response = channel.await(1, sentAt, ProbeFailure.NO_RESPONSE);
    } catch (ProbeFailure f) {
      if (!ProbeFailure.TIMEOUT.equals(f.detail())) {
        throw f;
      }
      response = null;
    }
    if (response != null) {
      Object error = response.get("error");
      if (!JsonValues.isTruthy(error)) {
        answeredAt = System.nanoTime();
        return afterDiscover(response.get("result"), EraBasis.DISCOVER);
      }
      if (Messages.identifiesModern(error)) {
        throw new ProbeFailure("server/discover: " + Messages.errorMessage(error));
      }
    }
    Map<String, Object> init = new LinkedHashMap<>();
    init.put("protocolVersion", LEGACY_PROTOCOL_VERSION);
    init.put("capabilities", Map.of());
    init.put("clientInfo", identity.clientInfo());
    long initSentAt = channel.send(request(2, "initialize", init));
    Map<String, Object> initResponse = channel.await(2, initSentAt, ProbeFailure.NO_RESPONSE);
    answeredAt = System.nanoTime();
    Object error = initResponse.get("error");
    if (JsonValues.isTruthy(error)) {
      throw new ProbeFailure(Messages.errorMessage(error));
    }
    return afterInitialize(initResponse.get("result"), 3, EraBasis.DISCOVER_REJECTED);
  }

  /**
   * {@code server/discover}, then {@code tools/list} pages, every request carrying {@code _meta}:
   * the modern phase after {@code initialize} was rejected.
   */
  Result modern() throws ProbeFailure, InterruptedException {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("_meta", meta());
    long sentAt = channel.send(request(1, "server/discover", params));
    Map<String, Object> response = channel.await(1, sentAt, ProbeFailure.NO_RESPONSE);
    answeredAt = System.nanoTime();
    Object error = response.get("error");
    if (JsonValues.isTruthy(error)) {
      throw new ProbeFailure("server/discover: " + Messages.errorMessage(error));
    }
    return afterDiscover(response.get("result"), EraBasis.INITIALIZE_REJECTED);
  }

  private Result afterDiscover(@Nullable Object result, EraBasis basis)
      throws ProbeFailure, InterruptedException {
    Listing listing = listTools(meta(), "server/discover", 2);
    listedAt = System.nanoTime();
    Answer answer = Answers.modern(result, listing.tools(), listing.pageHints());
    Answer bFromA = identity == Identity.A ? askAs(Identity.B, lastId + 1) : null;
    SelfTest outcome = identity == Identity.A ? selfTest(answer, meta()) : null;
    return new Answered(answer, capture(Era.MODERN, result, listing), basis, bFromA, outcome);
  }

  /**
   * The isolation self-test (docs/verdicts.md#the-isolation-self-test), after this process's own
   * listing: when the answer's declaration names a {@code callerMetaKey} and a {@code selfTest}
   * tool, three {@code tools/call}s of that tool on this process, as callers A′, B′, A′, with a
   * fresh marker given only by the first. Null when nothing is designated; never sends anything
   * else, and never fails the exchange.
   *
   * @param modernMeta the era's own {@code _meta} (modern), laid under the caller key; null for
   *     legacy
   */
  private @Nullable SelfTest selfTest(Answer answer, @Nullable Map<String, Object> modernMeta)
      throws InterruptedException {
    Map<String, ?> capabilities = answer.capabilities();
    Map<?, ?> settings = capabilities == null ? null : Assessor.declarationSettings(capabilities);
    if (settings == null
        || !(settings.get("callerMetaKey") instanceof String key)
        || key.isEmpty()
        || !(settings.get("selfTest") instanceof String tool)
        || tool.isEmpty()) {
      return null;
    }
    if (!selfTest) {
      return SelfTest.SKIPPED;
    }
    if (!answer.toolNames().contains(tool)) {
      return SelfTest.NOT_RUN;
    }
    String marker = UUID.randomUUID().toString();
    String callerA = "kcshare-a-" + UUID.randomUUID();
    String callerB = "kcshare-b-" + UUID.randomUUID();
    try {
      long id = lastId;
      String first = call(++id, tool, marker, key, callerA, modernMeta);
      String second = call(++id, tool, "", key, callerB, modernMeta);
      String third = call(++id, tool, "", key, callerA, modernMeta);
      lastId = id;
      if (first == null || second == null || third == null) {
        return SelfTest.NOT_RUN;
      }
      return !second.contains(marker) && third.contains(marker) ? SelfTest.PASSED : SelfTest.FAILED;
    } catch (ProbeFailure f) {
      return SelfTest.NOT_RUN;
    }
  }

  /**
   * One self-test {@code tools/call}: the text of its result's text content, or null when it was
   * answered with an error (a JSON-RPC error, {@code isError: true}, or a result that is not an
   * object).
   */
  private @Nullable String call(
      long id,
      String tool,
      String marker,
      String callerKey,
      String caller,
      @Nullable Map<String, Object> modernMeta)
      throws ProbeFailure, InterruptedException {
    Map<String, Object> meta = new LinkedHashMap<>();
    if (modernMeta != null) {
      meta.putAll(modernMeta);
    }
    meta.put(callerKey, caller);
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", tool);
    params.put("arguments", Map.of(MARKER, marker));
    params.put("_meta", meta);
    long sentAt = channel.send(request(id, "tools/call", params));
    Map<String, Object> response =
        channel.await(id, sentAt, "tools/call: no response after a successful listing");
    Map<String, Object> result = JsonValues.asObject(response.get("result"));
    if (JsonValues.isTruthy(response.get("error"))
        || result == null
        || Boolean.TRUE.equals(result.get("isError"))) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    if (result.get("content") instanceof List<?> content) {
      for (Object item : content) {
        Map<String, Object> part = JsonValues.asObject(item);
        if (part != null && part.get("text") instanceof String t) {
          text.append(t).append('\n');
        }
      }
    }
    return text.toString();
  }

  /**
   * One process, two callers (docs/design.md#one-process-two-callers): {@code server/discover} and
   * the listing again on this process, every request carrying {@code other}'s {@code _meta}, ids
   * from {@code firstId}. Null when any of it fails: the kind of a divergence then stays unknown,
   * and this identity's own answer stands.
   */
  private @Nullable Answer askAs(Identity other, long firstId) throws InterruptedException {
    Map<String, Object> meta = meta(other);
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("_meta", meta);
    try {
      long sentAt = channel.send(request(firstId, "server/discover", params));
      Map<String, Object> response = channel.await(firstId, sentAt, ProbeFailure.NO_RESPONSE);
      if (JsonValues.isTruthy(response.get("error"))) {
        return null;
      }
      Listing listing = listTools(meta, "server/discover", firstId + 1);
      return Answers.modern(response.get("result"), listing.tools(), listing.pageHints());
    } catch (ProbeFailure f) {
      return null;
    }
  }

  /**
   * @param pageHints modern only: each page's {@code cacheScope} and {@code ttlMs}, in page order
   */
  private record Listing(
      List<Object> tools, Map<String, Object> lastPage, List<Map<String, Object>> pageHints) {}

  private Listing listTools(@Nullable Map<String, Object> meta, String after, long firstId)
      throws ProbeFailure, InterruptedException {
    List<Object> tools = new ArrayList<>();
    List<Map<String, Object>> pageHints = new ArrayList<>();
    Map<String, Object> lastPage = Map.of();
    String cursor = null;
    for (int page = 1; ; page++) {
      if (page > MAX_PAGES) {
        throw new ProbeFailure("tools/list: too many pages");
      }
      long id = firstId + page - 1;
      lastId = id;
      Map<String, Object> params = new LinkedHashMap<>();
      if (meta != null) {
        params.put("_meta", meta);
      }
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      long sentAt = channel.send(request(id, "tools/list", params));
      Map<String, Object> response =
          channel.await(id, sentAt, "tools/list: no response after a successful " + after);
      Object error = response.get("error");
      if (JsonValues.isTruthy(error)) {
        throw new ProbeFailure("tools/list: " + Messages.errorMessage(error));
      }
      Object result = response.get("result");
      List<?> pageTools = Answers.toolsOf(result);
      if (pageTools == null) {
        throw new ProbeFailure("tools/list: malformed response (no tools list)");
      }
      for (Object tool : pageTools) {
        tools.add(keepRaw ? tool : essentials(tool));
      }
      Map<String, Object> resultObject = JsonValues.asObject(result);
      lastPage = keepRaw && resultObject != null ? resultObject : Map.of();
      if (meta != null) {
        pageHints.add(hints(resultObject));
      }
      Object next = resultObject == null ? null : resultObject.get("nextCursor");
      if (next instanceof String s && !s.isEmpty()) {
        cursor = s;
      } else {
        return new Listing(tools, lastPage, pageHints);
      }
    }
  }

  /** A page's caching hints, the only members of a page result the answer keeps. */
  private static Map<String, Object> hints(@Nullable Map<String, Object> page) {
    Map<String, Object> kept = new LinkedHashMap<>();
    if (page != null) {
      for (String member : List.of(Answers.CACHE_SCOPE, Answers.TTL_MS)) {
        if (page.containsKey(member)) {
          kept.put(member, page.get(member));
        }
      }
    }
    return kept;
  }

  /** Only what {@link Answers} reads of a tool; other members can be large (schemas). */
  private static @Nullable Object essentials(@Nullable Object tool) {
    Map<String, Object> object = JsonValues.asObject(tool);
    if (object == null) {
      return null;
    }
    Map<String, Object> kept = new LinkedHashMap<>();
    if (object.containsKey("name")) {
      kept.put("name", object.get("name"));
    }
    if (object.containsKey("annotations")) {
      kept.put("annotations", object.get("annotations"));
    }
    return kept;
  }

  private @Nullable Map<String, @Nullable Object> capture(
      Era era, @Nullable Object result, Listing listing) {
    if (!keepRaw) {
      return null;
    }
    Map<String, Object> toolsList = new LinkedHashMap<>(listing.lastPage());
    toolsList.put("tools", listing.tools());
    return Captures.toCapture(era, identity.clientInfo(), result, toolsList);
  }

  private Map<String, Object> meta() {
    return meta(identity);
  }

  private static Map<String, Object> meta(Identity caller) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(META_PROTOCOL_VERSION, Answers.MODERN_PROTOCOL_VERSION);
    meta.put(META_CLIENT_CAPABILITIES, Map.of());
    meta.put(META_CLIENT_INFO, caller.clientInfo());
    return meta;
  }

  private static Map<String, Object> request(long id, String method, Map<String, Object> params) {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("jsonrpc", "2.0");
    request.put("id", id);
    request.put("method", method);
    request.put("params", params);
    return request;
  }
}
