package dev.kcshare.host.prober;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Splits a server's stdout into lines (docs/design.md#reading-messages): LF framing, one CR before
 * the LF stripped, UTF-8 decoded with replacement, surrounding whitespace trimmed. A line longer
 * than the cap ends reading with {@link Frame#OVERSIZE} after buffering at most the cap plus one
 * byte, so a server can never make kcshare hold more than that per process. Not thread-safe: one
 * reader thread owns it.
 */
final class MessageReader {
  /** 16 MiB: the largest line accepted, counted in bytes without the LF (and a CR before it). */
  static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

  private static final int CHUNK = 64 * 1024;
  private static final int INITIAL_LINE = 8 * 1024;

  /** What {@link #next()} returns. */
  sealed interface Frame permits Line, End {
    /** A line over the cap: reading stopped. */
    End OVERSIZE = new End(true);

    /** End of the stream (or a read error): nothing more will come. */
    End EOF = new End(false);
  }

  /** One decoded, trimmed line (possibly empty). */
  record Line(String text) implements Frame {}

  /** Reading has ended; {@code oversize} when because of the size cap. */
  record End(boolean oversize) implements Frame {}

  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] chunk = new byte[CHUNK];
  private int pos;
  private int limit;
  private byte[] line = new byte[INITIAL_LINE];
  private int lineLength;
  private boolean ended;

  MessageReader(InputStream in) {
    this(in, MAX_LINE_BYTES);
  }

  MessageReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * The next frame. After an {@link End} every call returns {@link Frame#EOF}. A final line without
   * LF is returned before the end.
   *
   * @throws IOException when reading fails; the caller treats it as the end of the stream
   */
  Frame next() throws IOException {
    if (ended) {
      return Frame.EOF;
    }
    while (true) {
      if (pos == limit) {
        int n = in.read(chunk);
        if (n < 0) {
          ended = true;
          return lineLength > 0 ? emit() : Frame.EOF;
        }
        pos = 0;
        limit = n;
      }
      int lf = indexOfLf(pos, limit);
      int end = lf < 0 ? limit : lf;
      int add = end - pos;
      // One byte of slack for a CR that the LF may still follow.
      if ((long) lineLength + add > (long) maxLineBytes + 1) {
        return oversize();
      }
      append(pos, add);
      if (lf < 0) {
        pos = limit;
      } else {
        pos = lf + 1;
        return emit();
      }
    }
  }

  private Frame emit() {
    int length = lineLength;
    if (length > 0 && line[length - 1] == '\r') {
      length--;
    }
    if (length > maxLineBytes) {
      return oversize();
    }
    String text = new String(line, 0, length, StandardCharsets.UTF_8).strip();
    lineLength = 0;
    if (line.length > 1024 * 1024) {
      line = new byte[INITIAL_LINE]; // do not keep a huge buffer alive for the next small line
    }
    return new Line(text);
  }

  private End oversize() {
    ended = true;
    line = new byte[0];
    lineLength = 0;
    return Frame.OVERSIZE;
  }

  private int indexOfLf(int from, int to) {
    for (int i = from; i < to; i++) {
      if (chunk[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void append(int from, int count) {
    int needed = lineLength + count;
    if (needed > line.length) {
      int capacity = line.length;
      while (capacity < needed) {
        capacity = (int) Math.min((long) capacity * 2, (long) maxLineBytes + 1);
      }
      byte[] grown = new byte[capacity];
      System.arraycopy(line, 0, grown, 0, lineLength);
      line = grown;
    }
    System.arraycopy(chunk, from, line, lineLength, count);
    lineLength = needed;
  }
}
