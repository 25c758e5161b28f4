package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.host.KcshareThreads;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Reading rules of docs/design.md#reading-messages over in-memory streams (no process, no clock).
 */
final class JsonRpcChannelTest {
  private final java.util.concurrent.CountDownLatch stdinClosed =
      new java.util.concurrent.CountDownLatch(1);
  private final ByteArrayOutputStream stdin =
      new ByteArrayOutputStream() {
        @Override
        public void close() {
          stdinClosed.countDown();
        }
      };
  private final AtomicInteger responses = new AtomicInteger();

  private JsonRpcChannel channel(String stdout) {
    return new JsonRpcChannel(
        new ByteArrayInputStream(stdout.getBytes(StandardCharsets.UTF_8)),
        stdin,
        Duration.ofSeconds(30),
        responses::incrementAndGet,
        "test",
        KcshareThreads.defaults());
  }

  private static String banners(int n) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      out.append("banner ").append(i).append('\n');
      if (i % 7 == 0) {
        out.append("\n  \r\n[1]\n\"text\"\n3\nnull\n"); // neither counted nor a response
      }
    }
    return out.toString();
  }

  @Test
  void skipsEverythingButTheAwaitedResponse() throws Exception {
    String stdout =
        banners(50)
            + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n"
            + "{\"jsonrpc\":\"2.0\",\"result\":{\"no\":\"id\"}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"string\":\"id\"}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"other\":\"id\"}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"result\":{\"the\":\"answer\"}}\n";
    JsonRpcChannel ch = channel(stdout);
    Map<String, Object> response = ch.await(1, System.nanoTime(), "eof");
    assertThat(response).containsEntry("result", Map.of("the", "answer"));
    assertThat(responses).hasValue(1);
  }

  @Test
  void moreThanFiftyBannerLinesIsNoResponse() {
    JsonRpcChannel ch = channel(banners(51) + "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    assertThatThrownBy(() -> ch.await(1, System.nanoTime(), "eof"))
        .isInstanceOf(ProbeFailure.class)
        .hasMessage("no response");
  }

  @Test
  void bannersAreCountedPerAwaitedResponse() throws Exception {
    JsonRpcChannel ch =
        channel(
            banners(50)
                + "{\"id\":1,\"result\":{}}\n"
                + banners(50)
                + "{\"id\":2,\"result\":{}}\n");
    assertThat(ch.await(1, System.nanoTime(), "eof")).containsKey("result");
    assertThat(ch.await(2, System.nanoTime(), "eof")).containsKey("result");
  }

  @Test
  void nestingIsCheckedWithoutStackOverflow() throws Exception {
    String ok = "[".repeat(511) + "]".repeat(511);
    assertThat(channel("{\"id\":1,\"result\":" + ok + "}\n").await(1, System.nanoTime(), "eof"))
        .containsKey("result");
    for (int depth : new int[] {512, 100_000}) {
      String deep = "{\"id\":1,\"result\":" + "[".repeat(depth) + "]".repeat(depth) + "}\n";
      JsonRpcChannel ch = channel(deep);
      assertThatThrownBy(() -> ch.await(1, System.nanoTime(), "eof"))
          .as("depth %d", depth + 1)
          .hasMessage("message nesting exceeds 512 levels");
    }
    // Unbalanced: refused by depth before the syntax error is reached.
    JsonRpcChannel unbalanced = channel("[".repeat(100_000) + "\n");
    assertThatThrownBy(() -> unbalanced.await(1, System.nanoTime(), "eof"))
        .hasMessage("message nesting exceeds 512 levels");
  }

  @Test
  void endOfStreamIsTheCallersDetail() {
    JsonRpcChannel ch = channel("{\"id\":7,\"result\":{}}\n");
    assertThatThrownBy(() -> ch.await(1, System.nanoTime(), "tools/list: no response after x"))
        .hasMessage("tools/list: no response after x");
    assertThatThrownBy(() -> ch.await(1, System.nanoTime(), "again"))
        .as("stays ended")
        .hasMessage("again");
  }

  @Test
  void serverRequestsAreAnsweredAtOnceWithTheirIds() throws Exception {
    JsonRpcChannel ch =
        channel(
            "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"method\":\"roots/list\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"sampling/createMessage\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    assertThat(ch.await(1, System.nanoTime(), "eof")).containsKey("result");
    ch.closeStdin();
    awaitStdinClosed();
    assertThat(stdin.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n");
  }

  @Test
  void requestsAreCompactJsonLines() throws Exception {
    JsonRpcChannel ch = channel("");
    ch.send(Map.of("jsonrpc", "2.0"));
    ch.closeStdin();
    awaitStdinClosed();
    assertThat(stdin.toString(StandardCharsets.UTF_8)).isEqualTo("{\"jsonrpc\":\"2.0\"}\n");
  }

  private void awaitStdinClosed() throws InterruptedException {
    stdinClosed.await();
  }

  @Test
  void aFailedWriteReadsAsEndOfStream() throws Exception {
    PipedOutputStream serverSide = new PipedOutputStream();
    PipedInputStream stdout = new PipedInputStream(serverSide);
    OutputStream broken =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("Broken pipe");
          }
        };
    JsonRpcChannel ch =
        new JsonRpcChannel(
            stdout, broken, Duration.ofSeconds(30), () -> {}, "broken", KcshareThreads.defaults());
    long sentAt = ch.send(Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize"));
    assertThatThrownBy(() -> ch.await(1, sentAt, "no response")).hasMessage("no response");
    ch.close();
    serverSide.close();
  }
}
