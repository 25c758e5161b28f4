package dev.kcshare.it.gateway;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.RecordResult;
import dev.kcshare.api.RecordsException;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.ServerVerdict;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.embed.BackgroundPass;
import dev.kcshare.embed.LedgerWriter;
import dev.kcshare.embed.Shareability;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A minimal MCP gateway that embeds kcshare through {@link Shareability}: ONE shared backend
 * process, several sessions' stubs attached to it, JSON-RPC id rewriting between them, and the
 * recording site of the hazard ledger.
 *
 * <p>What it shows, in the order a real gateway does it:
 *
 * <ol>
 *   <li>at spawn (a worker thread): {@link Shareability#launchIdentity} once, kept with the
 *       backend;
 *   <li>on the routing thread (the "event loop", {@link #route}): a server-initiated request that
 *       cannot be routed to exactly one session is recorded with {@link LedgerWriter#record} — a
 *       cheap call that never blocks or logs — and ONLY while more than one stub shares the
 *       backend;
 *   <li>flushing: the facade's own flush thread ({@link Shareability#openLedger(Duration)}), and
 *       once more when the facade closes.
 * </ol>
 *
 * <p>Not a real gateway: the stubs are in-process objects instead of client connections, a backend
 * that produced an unroutable frame is not recycled, and notifications are not forwarded.
 */
public final class ExampleGateway implements AutoCloseable {
  /** The hint a server may give to tie its request to a pending call (none does in stdio MCP). */
  static final String RELATED_REQUEST_ID = "relatedRequestId";

  private static final JsonFactory JSON = new JsonFactory();

  private final ServerDefinition definition;
  private final LedgerWriter ledger;
  private final String launchIdentity;
  private final Process backend;
  private final OutputStream toBackend;
  private final Thread loop;
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final List<Stub> attached = new CopyOnWriteArrayList<>();
  private final AtomicLong backendIds = new AtomicLong();
  private final AtomicLong unroutable = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  /** A request in flight to the backend: who asked, under which of its own ids. */
  private record Pending(
      Stub stub, Object clientId, CompletableFuture<Map<String, Object>> reply) {}

  private ExampleGateway(
      ServerDefinition definition, LedgerWriter ledger, String launchIdentity, Process backend) {
    this.definition = definition;
    this.ledger = ledger;
    this.launchIdentity = launchIdentity;
    this.backend = backend;
    this.toBackend = backend.getOutputStream();
    this.loop = new Thread(this::readLoop, "gateway-loop-" + definition.name());
    this.loop.setDaemon(true);
  }

  /**
   * Spawns the backend of {@code definition} (a worker thread's job: it hashes the binary and
   * starts a process) and completes the MCP handshake as the gateway's own client. {@code ledger}
   * is the facade's writer, opened at start with a flush period.
   */
  public static ExampleGateway start(
      Shareability kc, LedgerWriter ledger, ServerDefinition definition) throws Exception {
    String identity = kc.launchIdentity(definition); // blocking: once per spawn, never per frame
    List<String> command = new ArrayList<>();
    command.add(Objects.requireNonNull(definition.command(), "a stdio definition"));
    command.addAll(definition.args());
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().putAll(definition.env());
    ExampleGateway gateway = new ExampleGateway(definition, ledger, identity, pb.start());
    gateway.loop.start();
    Stub self = new Stub(gateway, "gateway", request -> Map.of());
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("protocolVersion", "2024-11-05");
    params.put("capabilities", Map.of());
    params.put("clientInfo", Map.of("name", "example-gateway", "version", "1"));
    self.request("initialize", params).get(30, TimeUnit.SECONDS);
    gateway.send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
    return gateway;
  }

  /** The launch identity the hazards of this backend are recorded under. */
  public String launchIdentity() {
    return launchIdentity;
  }

  /** How many server requests could not be routed to exactly one session. */
  public long unroutableRequests() {
    return unroutable.get();
  }

  /**
   * Attaches a session's stub to the shared backend.
   *
   * @param session the session's name
   * @param clientRequests how this session's client answers server-initiated requests: request in,
   *     JSON-RPC result out
   */
  public Stub attach(String session, Function<Map<String, Object>, Object> clientRequests) {
    Stub stub = new Stub(this, session, clientRequests);
    attached.add(stub);
    return stub;
  }

  /** Detaches a stub; its pending calls stay pending. */
  public void detach(Stub stub) {
    attached.remove(stub);
  }

  /** Whether the backend is shared: no exclusive owner and at least two stubs attached. */
  boolean isShared() {
    return attached.size() > 1;
  }

  /** How many records the ledger refused (a bad name or code: the gateway's own mistake). */
  public long refusedRecords() {
    return refused.get();
  }

  /**
   * What the facade's flush thread does on its schedule: one flush, off the routing thread, now.
   * Blocking.
   */
  public boolean flushNow() throws InterruptedException {
    return ledger.flush();
  }

  /**
   * Stops the backend. The ledger's last flush is the facade's: {@link Shareability#close()} closes
   * the writer.
   */
  @Override
  public void close() throws Exception {
    attached.clear();
    try {
      toBackend.close();
    } catch (IOException e) {
      // already gone
    }
    if (!backend.waitFor(5, TimeUnit.SECONDS)) {
      backend.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    loop.join(5_000);
  }

  /** One JSON-RPC line as plain values: maps, lists, strings, longs, doubles, booleans, null. */
  static Object parse(String line) throws IOException {
    try (JsonParser p = JSON.createParser(line)) {
      if (p.nextToken() == null) {
        throw new IOException("empty line");
      }
      Object value = value(p, 0);
      if (p.nextToken() != null) {
        throw new IOException("trailing content");
      }
      return value;
    }
  }

  private static Object value(JsonParser p, int depth) throws IOException {
    if (depth > 64) {
      throw new IOException("nested too deeply");
    }
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          map.put(name, value(p, depth + 1));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(value(p, depth + 1));
        }
        return list;
      }
      case VALUE_STRING -> {
        return p.getText();
      }
      case VALUE_NUMBER_INT -> {
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            ? p.getBigIntegerValue()
            : p.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE -> {
        return true;
      }
      case VALUE_FALSE -> {
        return false;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IOException("unexpected " + t);
    }
  }

  // ------------------------------------------------------------------ the routing thread

  private void readLoop() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(backend.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Object frame;
        try {
          frame = parse(line);
        } catch (IOException e) {
          continue; // a banner line: not ours to route
        }
        if (frame instanceof Map<?, ?> message) {
          route(stringKeyed(message));
        }
      }
    } catch (IOException e) {
      // the backend went away
    }
    pending.values().forEach(p -> p.reply().completeExceptionally(new IOException("backend gone")));
  }

  /** Routes one backend frame. Runs on the routing thread: nothing here may block. */
  void route(Map<String, Object> frame) {
    Object id = frame.get("id");
    if (frame.containsKey("method")) {
      if (id != null) {
        serverRequest(frame, id);
      }
      return; // notifications are not forwarded by this example
    }
    if (id instanceof Number n) {
      Pending p = pending.remove(n.longValue());
      if (p != null) {
        Map<String, Object> reply = new LinkedHashMap<>(frame);
        reply.put("id", p.clientId()); // back to the id the stub used
        p.reply().complete(reply);
      }
    }
  }

  private void serverRequest(Map<String, Object> request, Object serverId) {
    Stub target = target(request);
    if (target != null) {
      Map<String, Object> reply = new LinkedHashMap<>();
      reply.put("jsonrpc", "2.0");
      reply.put("id", serverId);
      reply.put("result", target.clientRequests.apply(request));
      send(reply);
      return;
    }
    unroutable.incrementAndGet();
    // The recording site's duty: only a SHARED backend proves anything. A backend with one
    // session (or none) legitimately owns its client, and recording there would refute servers
    // for behaviour that is correct when unshared.
    boolean shared = isShared();
    if (shared) {
      RecordResult result =
          ledger.record(definition.name(), HazardCodes.UNROUTABLE_SERVER_REQUEST, launchIdentity);
      if (result == RecordResult.REFUSED) {
        refused.incrementAndGet(); // the ledger's next flush logs what it refused, once
      }
      // A real gateway would now recycle the backend; the example only refuses the request.
    }
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", -32603);
    error.put("message", "the gateway cannot tell which session this request is for");
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("jsonrpc", "2.0");
    reply.put("id", serverId);
    reply.put("error", error);
    send(reply);
  }

  /** The one session a server request is for, or null when that cannot be known. */
  private Stub target(Map<String, Object> request) {
    if (request.get("params") instanceof Map<?, ?> params
        && params.get("_meta") instanceof Map<?, ?> meta
        && meta.get(RELATED_REQUEST_ID) instanceof Number related) {
      Pending p = pending.get(related.longValue());
      if (p != null && attached.contains(p.stub())) {
        return p.stub();
      }
    }
    List<Stub> now = List.copyOf(attached);
    return now.size() == 1 ? now.get(0) : null;
  }

  // ------------------------------------------------------------------ writing

  private CompletableFuture<Map<String, Object>> forward(
      Stub stub, Object clientId, String method, Object params) {
    long backendId = backendIds.incrementAndGet(); // unique per backend: stubs' ids may collide
    CompletableFuture<Map<String, Object>> reply = new CompletableFuture<>();
    pending.put(backendId, new Pending(stub, clientId, reply));
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("jsonrpc", "2.0");
    request.put("id", backendId);
    request.put("method", method);
    request.put("params", params);
    send(request);
    return reply;
  }

  private void send(Map<String, Object> message) {
    byte[] line = (JsonWriter.compact(message) + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (toBackend) {
      try {
        toBackend.write(line);
        toBackend.flush();
      } catch (IOException e) {
        // the backend went away; pending calls fail when its output ends
      }
    }
  }

  private static Map<String, Object> stringKeyed(Map<?, ?> map) {
    Map<String, Object> out = new LinkedHashMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }

  /** One session's stub: its own JSON-RPC ids, which the gateway rewrites. */
  public static final class Stub {
    private final ExampleGateway gateway;
    private final String session;
    private final Function<Map<String, Object>, Object> clientRequests;
    private final AtomicLong ids = new AtomicLong();

    private Stub(
        ExampleGateway gateway,
        String session,
        Function<Map<String, Object>, Object> clientRequests) {
      this.gateway = gateway;
      this.session = session;
      this.clientRequests = clientRequests;
    }

    /** The session's name. */
    public String session() {
      return session;
    }

    /** Sends a request under this stub's next id (1, 2, ...); completes with the reply. */
    public CompletableFuture<Map<String, Object>> request(String method, Object params) {
      return gateway.forward(this, ids.incrementAndGet(), method, params);
    }

    /** Calls a tool; completes with the reply. */
    public CompletableFuture<Map<String, Object>> callTool(String tool) {
      return request("tools/call", Map.of("name", tool, "arguments", Map.of()));
    }
  }

  /** The text of a tool call's first content item. */
  public static String text(Map<String, Object> reply) {
    if (reply.get("result") instanceof Map<?, ?> result
        && result.get("content") instanceof List<?> content
        && !content.isEmpty()
        && content.get(0) instanceof Map<?, ?> first) {
      return String.valueOf(first.get("text"));
    }
    return "no text in " + JsonWriter.compact(reply);
  }

  /** {@code strength reasons} of a verdict row, for one-line output. */
  public static String describe(ServerVerdict row) {
    Verdict v = row.verdict();
    StringBuilder out = new StringBuilder(v.strength().json());
    for (Reason r : v.reasons()) {
      out.append(' ').append(r.code().code());
      if (!r.detail().isEmpty()) {
        out.append('(').append(r.detail()).append(')');
      }
    }
    return out.toString();
  }

  /**
   * The whole story in one process, for an embedder's classpath: {@code ExampleGateway RECORDS_DIR
   * FIXTURE_SCRIPT}. Prints one line per step on stdout.
   */
  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    Path records = Path.of(args[0]);
    ServerDefinition definition =
        ServerDefinition.stdio("files-mcp", "node", List.of(args[1], "ask-on-call"));
    try (Shareability kc =
        Shareability.builder(records)
            .onFlushFailure(problem -> System.err.println("hazards not saved: " + problem))
            .build()) {
      // at start: reloads what earlier runs observed; flushed every minute and at close
      LedgerWriter ledger = kc.openLedger(Duration.ofMinutes(1));
      List<ConfiguredServer> servers = kc.servers(List.of(definition));
      out.println("before: " + describe(kc.verdicts(servers).get(0)));
      BackgroundPass pass = kc.startUncappedPass(servers);
      try {
        pass.await(Duration.ofMinutes(2));
      } catch (CancellationException e) {
        out.println("measure cancelled");
      } catch (RecordsException e) {
        out.println("measure failed: " + e.getMessage());
      }
      out.println("measured: " + describe(kc.verdicts(servers).get(0)));
      try (ExampleGateway gateway = start(kc, ledger, definition)) {
        Stub a =
            gateway.attach("session-a", request -> Map.of("roots", List.of(Map.of("uri", "a"))));
        out.println("one stub: " + text(a.callTool("echo").get(30, TimeUnit.SECONDS)));
        gateway.flushNow();
        out.println("one stub verdict: " + describe(kc.verdicts(servers).get(0)));
        Stub b = gateway.attach("session-b", request -> Map.of("roots", List.of()));
        out.println("shared: " + text(b.callTool("echo").get(30, TimeUnit.SECONDS)));
        gateway.flushNow();
        out.println("shared verdict: " + describe(kc.verdicts(servers).get(0)));
        ledger.clear(definition.name());
      }
      out.println("cleared verdict: " + describe(kc.verdicts(servers).get(0)));
    } // close: the ledger's last flush; no thread of kcshare's outlives it, nothing stays hooked
  }
}
