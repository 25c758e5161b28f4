package dev.kcshare.host.prober;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.records.HazardLedger;
import dev.kcshare.host.KcshareThreads;
import dev.kcshare.host.json.JsonReader;
import dev.kcshare.host.json.JsonSyntaxException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * JSON-RPC over one server's stdin and stdout (docs/design.md#reading-messages). A reader thread
 * frames stdout ({@link MessageReader}) and hands over at most {@value #LINES_IN_FLIGHT} lines at a
 * time; a writer thread owns stdin, so a server that stops reading can never block the exchange.
 * {@link #await} applies the per-response deadline, the banner count, the nesting guard, id
 * matching and the answers to server-to-client requests.
 */
final class JsonRpcChannel {
  static final int NESTING_LIMIT = 512;

  /**
   * The longest member name accepted in a server's message: the record writer's key limit, so that
   * every name of an answer the prober accepts can be stored and read back.
   */
  static final int NAME_LIMIT = HazardLedger.MAX_KEY_LENGTH;

  static final int MAX_BANNER_LINES = 50;

  /** Queued writes beyond this mean the server is not reading stdin: treated as a write failure. */
  static final int MAX_PENDING_WRITES = 1024;

  private static final int LINES_IN_FLIGHT = 2;
  private static final JsonReader READER = JsonReader.withLimits(NESTING_LIMIT, NAME_LIMIT);
  private static final Object WAKE = new Object();
  private static final Object CLOSE = new Object();

  private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
  private final Semaphore lineSlots = new Semaphore(LINES_IN_FLIGHT);
  private final BlockingQueue<Object> writes = new LinkedBlockingQueue<>();
  private final InputStream stdout;
  private final OutputStream stdin;
  private final Duration timeout;
  private final Runnable onResponse;
  private final Thread readerThread;
  private final Thread writerThread;
  private volatile boolean writeFailed;
  private MessageReader.@Nullable End ended;

  /**
   * @param stdout the server's stdout
   * @param stdin the server's stdin
   * @param timeout the deadline of each awaited response
   * @param onResponse run each time an awaited response arrives (the teardown's tree snapshot)
   * @param threadName prefix of the two helper threads' names
   * @param threads makes the two helper threads
   * @throws IllegalStateException when {@code threads} gives no thread
   */
  JsonRpcChannel(
      InputStream stdout,
      OutputStream stdin,
      Duration timeout,
      Runnable onResponse,
      String threadName,
      KcshareThreads threads) {
    this.stdout = stdout;
    this.stdin = stdin;
    this.timeout = timeout;
    this.onResponse = onResponse;
    this.readerThread = threads.newThread(new Loop(this, true), threadName + "-stdout");
    this.writerThread = threads.newThread(new Loop(this, false), threadName + "-stdin");
    readerThread.start();
    writerThread.start();
  }

  /**
   * Queues one message: compact JSON and a LF. Returns the {@link System#nanoTime()} it was written
   * at, from which the response's deadline counts.
   */
  long send(Map<String, ?> message) {
    byte[] bytes = (JsonWriter.compact(message) + "\n").getBytes(StandardCharsets.UTF_8);
    if (writes.size() >= MAX_PENDING_WRITES) {
      writeFailed = true;
    } else {
      writes.add(bytes);
    }
    return System.nanoTime();
  }

  /**
   * Reads until the response with {@code id} arrives.
   *
   * @param sentAt when its request was written ({@link #send})
   * @param eofDetail the failure detail when stdout ends (or a write failed) before the response
   * @return the response object
   * @throws ProbeFailure with the detail of docs/design.md#failure-classes when the response cannot
   *     be had
   */
  Map<String, Object> await(long id, long sentAt, String eofDetail)
      throws ProbeFailure, InterruptedException {
    long deadline = sentAt + timeout.toNanos();
    int banners = 0;
    while (true) {
      if (ended != null) {
        throw ended.oversize()
            ? new ProbeFailure(ProbeFailure.OVERSIZE)
            : ProbeFailure.noResponse(eofDetail);
      }
      if (writeFailed) {
        throw ProbeFailure.noResponse(eofDetail);
      }
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        throw new ProbeFailure(ProbeFailure.TIMEOUT);
      }
      Object event = events.poll(remaining, TimeUnit.NANOSECONDS);
      if (event == null || event == WAKE) {
        continue;
      }
      if (event instanceof MessageReader.End end) {
        ended = end;
        continue;
      }
      lineSlots.release();
      String text = ((MessageReader.Line) event).text();
      if (text.isEmpty()) {
        continue;
      }
      Object message;
      try {
        message = READER.parseText(text);
      } catch (JsonSyntaxException e) {
        if (e.nestingTooDeep()) {
          throw new ProbeFailure(ProbeFailure.TOO_DEEP);
        }
        if (e.limitExceeded()) {
          // Valid JSON beyond a size limit is an oversized answer, not a banner: fail at once.
          throw new ProbeFailure(
              String.valueOf(e.getMessage()).contains("member name")
                  ? ProbeFailure.NAME_TOO_LONG
                  : ProbeFailure.NUMBER_TOO_LONG);
        }
        if (++banners > MAX_BANNER_LINES) {
          throw ProbeFailure.noResponse(ProbeFailure.NO_RESPONSE);
        }
        continue;
      }
      if (!(message instanceof Map<?, ?> object)) {
        continue;
      }
      if (object.containsKey("method")) {
        if (object.containsKey("id")) {
          answerServerRequest(object.get("method"), object.get("id"));
        }
        continue;
      }
      if (object.containsKey("id") && Messages.idMatches(object.get("id"), id)) {
        onResponse.run();
        @SuppressWarnings("unchecked")
        Map<String, Object> response = (Map<String, Object>) object;
        return response;
      }
    }
  }

  /**
   * Answers a server-to-client request at once (docs/design.md#reading-messages): {@code ping} with
   * an empty result, anything else with "Method not found", same id, identically for both
   * identities.
   */
  private void answerServerRequest(@Nullable Object method, @Nullable Object requestId) {
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("jsonrpc", "2.0");
    reply.put("id", requestId);
    if ("ping".equals(method)) {
      reply.put("result", Map.of());
    } else {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("code", -32601);
      error.put("message", "Method not found");
      reply.put("error", error);
    }
    send(reply);
  }

  /** Closes the server's stdin once every queued message is written (the graceful-exit signal). */
  void closeStdin() {
    writes.add(CLOSE);
  }

  /** Stops both helper threads and closes stdout; call after the process tree is gone. */
  void close() {
    writerThread.interrupt();
    readerThread.interrupt();
    closeQuietly(stdout);
  }

  private void readLoop() {
    MessageReader reader = new MessageReader(stdout);
    try {
      while (true) {
        MessageReader.Frame frame = reader.next();
        if (frame instanceof MessageReader.End end) {
          events.add(end);
          return;
        }
        lineSlots.acquire();
        events.add(frame);
      }
    } catch (IOException e) {
      events.add(MessageReader.Frame.EOF);
    } catch (InterruptedException e) {
      // the exchange is over
    }
  }

  private void writeLoop() {
    try {
      while (true) {
        Object next = writes.take();
        if (next == CLOSE) {
          break;
        }
        try {
          stdin.write((byte[]) next);
          stdin.flush();
        } catch (IOException e) {
          writeFailed = true;
          events.add(WAKE);
          break;
        }
      }
    } catch (InterruptedException e) {
      // the exchange is over
    }
    closeQuietly(stdin);
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // the pipe is gone either way
    }
  }

  /** The reader's or the writer's loop (a named class: see the package documentation). */
  private static final class Loop implements Runnable {
    private final JsonRpcChannel channel;
    private final boolean reader;

    Loop(JsonRpcChannel channel, boolean reader) {
      this.channel = channel;
      this.reader = reader;
    }

    @Override
    public void run() {
      if (reader) {
        channel.readLoop();
      } else {
        channel.writeLoop();
      }
    }
  }
}
