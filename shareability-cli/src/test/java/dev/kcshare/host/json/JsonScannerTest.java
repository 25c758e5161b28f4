package dev.kcshare.host.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.json.JsonWriter;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link JsonReader#stream}, which skips unwanted entries in a byte loop, agrees with {@link
 * JsonReader#parse(byte[])} on every document: the same values for what it keeps, and the same
 * verdict (valid or not, too deep or not) for the whole document, whatever it skipped. Documents
 * are random record-like trees, written by kcshare's writer, then damaged at random.
 */
final class JsonScannerTest {
  private static final JsonReader READER = JsonReader.withLimits(40, Integer.MAX_VALUE);

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261201L);
    return LongStream.range(base, base + 400);
  }

  /** What a stream of the document keeps: the whole tree, or the wanted entries only. */
  private static final class Collected implements JsonReader.TopLevel {
    final boolean wantAll;
    final Map<String, @Nullable Object> top = new LinkedHashMap<>();
    @Nullable Object root;
    boolean rooted;

    Collected(boolean wantAll) {
      this.wantAll = wantAll;
    }

    @Override
    public boolean streams(String name) {
      return name.equals("entries");
    }

    @Override
    public boolean wants(String name, String key) {
      return wantAll || key.hashCode() % 3 == 0;
    }

    @Override
    public void member(String name, @Nullable Object value) {
      top.put(name, value);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void begin(String name) {
      top.put(name, new LinkedHashMap<String, Object>());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void entry(String name, String key, @Nullable Object value) {
      ((Map<String, Object>) top.get(name)).put(key, value);
    }

    @Override
    public void root(@Nullable Object value) {
      root = value;
      rooted = true;
    }

    @Nullable Object tree() {
      return rooted ? root : top;
    }
  }

  private static Object randomValue(SplittableRandom r, int depth) {
    int kind = r.nextInt(depth > 6 ? 5 : 8);
    switch (kind) {
      case 0:
        return r.nextInt(-5, 1_000_000);
      case 1:
        return r.nextDouble() * 1e6;
      case 2:
        return randomString(r);
      case 3:
        return r.nextBoolean();
      case 4:
        return r.nextLong();
      case 5:
        {
          List<Object> list = new ArrayList<>();
          for (int i = r.nextInt(4); i > 0; i--) {
            list.add(randomValue(r, depth + 1));
          }
          return list;
        }
      default:
        {
          Map<String, Object> map = new LinkedHashMap<>();
          for (int i = r.nextInt(4); i > 0; i--) {
            map.put(randomString(r), randomValue(r, depth + 1));
          }
          return map;
        }
    }
  }

  private static String randomString(SplittableRandom r) {
    String[] pieces = {
      "a", "files-mcp", "\u0000", "\"", "\\", "\n", "é", "\ud83d\ude00", "\u2028", "/"
    };
    StringBuilder b = new StringBuilder();
    for (int i = r.nextInt(5); i > 0; i--) {
      b.append(pieces[r.nextInt(pieces.length)]);
    }
    return b.toString();
  }

  private static byte[] damage(byte[] bytes, SplittableRandom r) {
    byte[] out = bytes.clone();
    switch (r.nextInt(6)) {
      case 0:
        return java.util.Arrays.copyOf(out, r.nextInt(out.length + 1)); // truncated
      case 1:
        out[r.nextInt(out.length)] = (byte) r.nextInt(256); // one byte changed
        return out;
      case 2:
        out[r.nextInt(out.length)] = (byte) 0xff; // invalid UTF-8
        return out;
      case 3:
        {
          String deep = "[".repeat(50) + "]".repeat(50);
          String text = new String(out, StandardCharsets.UTF_8);
          int at = text.lastIndexOf("\"ran\"");
          return (at < 0
                  ? text
                  : text.substring(0, at) + "\"deep\": " + deep + ", " + text.substring(at))
              .getBytes(StandardCharsets.UTF_8);
        }
      case 4:
        {
          byte[] longer = java.util.Arrays.copyOf(out, out.length + 3);
          longer[out.length] = ' ';
          longer[out.length + 1] = 'x';
          longer[out.length + 2] = '\n';
          return longer; // trailing content
        }
      default:
        return out; // intact
    }
  }

  /** "ok" plus the value, or what kind of failure. */
  private static String outcome(ThrowingSupplier parse) {
    try {
      return "ok " + JsonWriter.compact(parse.get());
    } catch (JsonSyntaxException e) {
      return e.nestingTooDeep() ? "too deep" : e.limitExceeded() ? "limit" : "invalid";
    } catch (Exception e) {
      return "error " + e;
    }
  }

  private interface ThrowingSupplier {
    @Nullable Object get() throws Exception;
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void streamingAgreesWithParsingTheWholeDocument(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Map<String, Object> doc = new LinkedHashMap<>();
    Map<String, Object> entries = new LinkedHashMap<>();
    for (int i = r.nextInt(8); i > 0; i--) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("ran", r.nextBoolean());
      row.put("handshake", randomValue(r, 2));
      entries.put("server-" + i + randomString(r), row);
    }
    if (r.nextBoolean()) {
      doc.put("schema", 1);
    }
    doc.put("entries", entries);
    doc.put("applied", List.of(randomString(r)));
    String text = r.nextBoolean() ? JsonWriter.pretty(doc) : JsonWriter.compact(doc);
    byte[] bytes = damage(text.getBytes(StandardCharsets.UTF_8), r);

    String whole = outcome(() -> READER.parse(bytes));
    String streamed =
        outcome(
            () -> {
              Collected all = new Collected(true);
              READER.stream(new ByteArrayInputStream(bytes), all);
              return all.tree();
            });
    assertThat(streamed).as(new String(bytes, StandardCharsets.ISO_8859_1)).isEqualTo(whole);

    // Wanting fewer entries changes what is kept, never whether the document is valid.
    String filtered =
        outcome(
            () -> {
              Collected some = new Collected(false);
              READER.stream(new ByteArrayInputStream(bytes), some);
              return some.tree();
            });
    assertThat(filtered.startsWith("ok")).isEqualTo(whole.startsWith("ok"));
    if (!whole.startsWith("ok")) {
      assertThat(filtered).isEqualTo(whole);
    }
  }
}
