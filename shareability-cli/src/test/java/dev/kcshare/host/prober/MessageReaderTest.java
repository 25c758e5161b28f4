package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class MessageReaderTest {
  private static List<MessageReader.Frame> frames(byte[] bytes, int cap) throws IOException {
    MessageReader reader = new MessageReader(new ByteArrayInputStream(bytes), cap);
    List<MessageReader.Frame> frames = new ArrayList<>();
    MessageReader.Frame f;
    do {
      f = reader.next();
      frames.add(f);
    } while (f instanceof MessageReader.Line);
    return frames;
  }

  private static List<MessageReader.Frame> frames(String text) throws IOException {
    return frames(text.getBytes(StandardCharsets.UTF_8), MessageReader.MAX_LINE_BYTES);
  }

  private static MessageReader.Line line(String text) {
    return new MessageReader.Line(text);
  }

  @Test
  void splitsOnLfStripsCrAndTrims() throws IOException {
    assertThat(frames("{\"a\":1}\r\n  padded \t\n\n\r\nlast"))
        .containsExactly(
            line("{\"a\":1}"),
            line("padded"),
            line(""),
            line(""),
            line("last"),
            MessageReader.Frame.EOF);
  }

  @Test
  void invalidUtf8IsReplacedNotFatal() throws IOException {
    byte[] bytes = {'a', (byte) 0xff, 'b', '\n'};
    assertThat(frames(bytes, 100)).containsExactly(line("a\ufffdb"), MessageReader.Frame.EOF);
  }

  @Test
  void lineAtTheCapIsKeptEvenWithCrLf() throws IOException {
    String exact = "x".repeat(64);
    assertThat(frames((exact + "\r\n" + exact + "\n").getBytes(StandardCharsets.US_ASCII), 64))
        .containsExactly(line(exact), line(exact), MessageReader.Frame.EOF);
  }

  @Test
  void lineOverTheCapStopsReading() throws IOException {
    String over = "x".repeat(65);
    assertThat(frames(("ok\n" + over + "\nmore\n").getBytes(StandardCharsets.US_ASCII), 64))
        .containsExactly(line("ok"), MessageReader.Frame.OVERSIZE);
  }

  @Test
  void unterminatedLineOverTheCapAtEofIsOversize() throws IOException {
    assertThat(frames("y".repeat(66).getBytes(StandardCharsets.US_ASCII), 64))
        .containsExactly(MessageReader.Frame.OVERSIZE);
    assertThat(frames(("y".repeat(64) + "\r").getBytes(StandardCharsets.US_ASCII), 64))
        .containsExactly(line("y".repeat(64)), MessageReader.Frame.EOF);
  }

  @Test
  void aLineLargerThanTheCapIsNeverBufferedWhole() throws IOException {
    // 20 MiB arriving in one stream: reading stops at the cap; nothing after is consumed.
    int size = 20 * 1024 * 1024;
    CountingStream in = new CountingStream(size);
    MessageReader reader = new MessageReader(in);
    assertThat(reader.next()).isEqualTo(MessageReader.Frame.OVERSIZE);
    assertThat(in.consumed).isLessThanOrEqualTo(MessageReader.MAX_LINE_BYTES + 128L * 1024);
    assertThat(reader.next()).isEqualTo(MessageReader.Frame.EOF);
  }

  @Test
  void manyLinesSpanningChunks() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<MessageReader.Frame> expected = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      String text = "line-" + i + "-" + "z".repeat(i % 97);
      out.writeBytes((text + (i % 2 == 0 ? "\n" : "\r\n")).getBytes(StandardCharsets.US_ASCII));
      expected.add(line(text));
    }
    expected.add(MessageReader.Frame.EOF);
    assertThat(frames(out.toByteArray(), 1000)).isEqualTo(expected);
  }

  /** An endless run of 'x' bytes, counting what was read. */
  private static final class CountingStream extends java.io.InputStream {
    private final long size;
    long consumed;

    CountingStream(long size) {
      this.size = size;
    }

    @Override
    public int read() {
      if (consumed >= size) {
        return -1;
      }
      consumed++;
      return 'x';
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (consumed >= size) {
        return -1;
      }
      int n = (int) Math.min(len, size - consumed);
      java.util.Arrays.fill(b, off, off + n, (byte) 'x');
      consumed += n;
      return n;
    }
  }
}
