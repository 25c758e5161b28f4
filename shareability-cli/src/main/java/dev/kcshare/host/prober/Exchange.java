package dev.kcshare.host.prober;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.host.Answers;
import dev.kcshare.core.handshake.host.Captures;
import dev.kcshare.core.json.host.JsonValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
   */
  record Answered(Answer answer, @Nullable Map<String, @Nullable Object> capture)
      implements Result {}

  /** The initialize error identified a modern-era server (docs/design.md#modern-era-servers). */
  record ModernDetected() implements Result {}

  private final JsonRpcChannel channel;
  private final Identity identity;
  private final boolean keepRaw;

  /** {@link System#nanoTime()} when the initialize or discover answer arrived; 0 until then. */
  volatile long answeredAt;

  /** {@link System#nanoTime()} when the last tools/list page arrived; 0 until then. */
  volatile long listedAt;

  /**
   * @param keepRaw keep every tool object whole for the capture; otherwise only the members the
   *     answer reads ({@code name}, {@code annotations}) are kept, bounding memory across pages
   */
  Exchange(JsonRpcChannel channel, Identity identity, boolean keepRaw) {
    this.channel = channel;
    this.identity = identity;
    this.keepRaw = keepRaw;
  }

  /**
   * {@code initialize}, {@code notifications/initialized}, {@code tools/list} pages.
   *
   * @param detectModern test an initialize error for a modern server before failing on it
   */
  Result legacy(boolean detectModern) throws ProbeFailure, InterruptedException {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("protocolVersion", LEGACY_PROTOCOL_VERSION);
    params.put("capabilities", Map.of());
    params.put("clientInfo", identity.clientInfo());
    long sentAt = channel.send(request(1, "initialize", params));
    Map<String, Object> response = channel.await(1, sentAt, ProbeFailure.NO_RESPONSE);
    answeredAt = System.nanoTime();
    Object error = response.get("error");
    if (JsonValues.isTruthy(error)) {
      if (detectModern && Messages.identifiesModern(error)) {
        return new ModernDetected();
      }
      throw new ProbeFailure(Messages.errorMessage(error));
    }
    Object result = response.get("result");
    Map<String, Object> initialized = new LinkedHashMap<>();
    initialized.put("jsonrpc", "2.0");
    initialized.put("method", "notifications/initialized");
    channel.send(initialized);
    Listing listing = listTools(null, "initialize");
    listedAt = System.nanoTime();
    Answer answer = Answers.legacy(result, listing.tools());
    return new Answered(answer, capture(Era.LEGACY, result, listing));
  }

  /**
   * {@code server/discover}, then {@code tools/list} pages, every request carrying {@code _meta}.
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
    Object result = response.get("result");
    Listing listing = listTools(meta(), "server/discover");
    listedAt = System.nanoTime();
    Answer answer = Answers.modern(result, listing.tools());
    return new Answered(answer, capture(Era.MODERN, result, listing));
  }

  private record Listing(List<Object> tools, Map<String, Object> lastPage) {}

  private Listing listTools(@Nullable Map<String, Object> meta, String after)
      throws ProbeFailure, InterruptedException {
    List<Object> tools = new ArrayList<>();
    Map<String, Object> lastPage = Map.of();
    String cursor = null;
    for (int page = 1; ; page++) {
      if (page > MAX_PAGES) {
        throw new ProbeFailure("tools/list: too many pages");
      }
      long id = page + 1L;
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
      Object next = resultObject == null ? null : resultObject.get("nextCursor");
      if (next instanceof String s && !s.isEmpty()) {
        cursor = s;
      } else {
        return new Listing(tools, lastPage);
      }
    }
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
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(META_PROTOCOL_VERSION, Answers.MODERN_PROTOCOL_VERSION);
    meta.put(META_CLIENT_CAPABILITIES, Map.of());
    meta.put(META_CLIENT_INFO, identity.clientInfo());
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
