package dev.kcshare.host.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.ByteArrayInputStream;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Parses JSON text into the plain values the core works on ({@code LinkedHashMap}, {@code
 * ArrayList}, {@code String}, {@code Number}, {@code Boolean}, {@code null}), without recursion.
 *
 * <p>It accepts what the Kiro Crew gateway's Python writer can emit: the tokens {@code NaN}, {@code
 * Infinity} and {@code -Infinity}, and (leniently) a leading UTF-8 byte-order mark. Invalid UTF-8
 * is an error, never silently replaced. Numbers follow one contract that the record codecs rely on:
 *
 * <ul>
 *   <li>an integer literal becomes {@code Integer} or {@code Long}, or {@code BigInteger} beyond
 *       the long range, or {@code Double} infinity beyond the double range;
 *   <li>any literal with a fraction or exponent becomes {@code Double} (non-finite when it
 *       overflows, as {@code 1e400} does).
 * </ul>
 *
 * <p>Nesting deeper than the configured limit is an error (a corrupt file, never a stack overflow).
 * A repeated object member keeps its last value, as Python's reader does.
 */
public final class JsonReader {
  /** The nesting limit for record files: far above anything kcshare writes. */
  public static final int RECORD_DEPTH_LIMIT = 1_000;

  private static final BigInteger DOUBLE_MAX =
      new java.math.BigDecimal(Double.MAX_VALUE).toBigInteger();

  private final JsonFactory factory;
  private final int depthLimit;
  private final int nameLimit;

  private JsonReader(int depthLimit, int nameLimit) {
    this.depthLimit = depthLimit;
    this.nameLimit = nameLimit;
    this.factory =
        JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    // Our own depth check gives the error; Jackson's must not fire first.
                    .maxNestingDepth(Math.max(depthLimit + 1, 1))
                    .maxNumberLength(100_000)
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(nameLimit)
                    .build())
            .build();
  }

  /**
   * A reader that refuses nesting deeper than {@code depthLimit} levels, and object member names
   * longer than Jackson's default (50,000 characters).
   */
  public static JsonReader withDepthLimit(int depthLimit) {
    return withLimits(depthLimit, StreamReadConstraints.DEFAULT_MAX_NAME_LEN);
  }

  /**
   * A reader that refuses nesting deeper than {@code depthLimit} levels and member names longer
   * than {@code nameLimit} characters ({@link JsonSyntaxException#limitExceeded()}).
   */
  public static JsonReader withLimits(int depthLimit, int nameLimit) {
    if (depthLimit < 1) {
      throw new IllegalArgumentException("depthLimit must be positive: " + depthLimit);
    }
    if (nameLimit < 1) {
      throw new IllegalArgumentException("nameLimit must be positive: " + nameLimit);
    }
    return new JsonReader(depthLimit, nameLimit);
  }

  /**
   * The reader of record files: nesting up to {@link #RECORD_DEPTH_LIMIT}, member names of any
   * length (a record file's size is bounded instead), so whatever a writer wrote reads back.
   */
  public static JsonReader forRecords() {
    return new JsonReader(RECORD_DEPTH_LIMIT, Integer.MAX_VALUE);
  }

  /** The longest member name this reader accepts, in characters. */
  public int nameLimit() {
    return nameLimit;
  }

  /**
   * Parses one JSON document.
   *
   * @throws JsonSyntaxException when the bytes are not one valid JSON document (with a location)
   */
  public @Nullable Object parse(byte[] bytes) throws JsonSyntaxException {
    int start = 0;
    if (bytes.length >= 3
        && (bytes[0] & 0xff) == 0xef
        && (bytes[1] & 0xff) == 0xbb
        && (bytes[2] & 0xff) == 0xbf) {
      start = 3;
    }
    var decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    return readFrom(
        new InputStreamReader(
            new ByteArrayInputStream(bytes, start, bytes.length - start), decoder));
  }

  /**
   * Receives a document's top level member by member ({@link #stream}); the members of the object
   * values it names come one entry at a time, and entries it does not want are skipped without
   * being built. Values are the plain values of {@link #parse(byte[])}.
   */
  public interface TopLevel {
    /** Whether the object value of top-level member {@code name} is handed over entry by entry. */
    boolean streams(String name);

    /** Whether entry {@code key} of the streamed member {@code name} is wanted. */
    default boolean wants(String name, String key) {
      return true;
    }

    /** A top-level member that is not streamed (or whose value is not an object). */
    void member(String name, @Nullable Object value);

    /** The object value of streamed member {@code name} begins (again, when it is repeated). */
    void begin(String name);

    /** One wanted entry of the streamed member {@code name}. */
    void entry(String name, String key, @Nullable Object value);

    /** The document's value is not an object. */
    void root(@Nullable Object value);
  }

  /**
   * Parses one JSON document from a stream of UTF-8 bytes, as {@link #parse(byte[])} does; the
   * stream is read to its end (or the first error) but not closed.
   *
   * @throws JsonSyntaxException when the bytes are not one valid JSON document
   * @throws IOException when reading the stream fails
   */
  public @Nullable Object parse(InputStream in) throws JsonSyntaxException, IOException {
    Object[] root = new Object[1];
    stream(
        in,
        new TopLevel() {
          private final Map<String, @Nullable Object> top = new LinkedHashMap<>();

          {
            root[0] = top;
          }

          @Override
          public boolean streams(String name) {
            return false;
          }

          @Override
          public void member(String name, @Nullable Object value) {
            top.put(name, value);
          }

          @Override
          public void begin(String name) {}

          @Override
          public void entry(String name, String key, @Nullable Object value) {}

          @Override
          public void root(@Nullable Object value) {
            root[0] = value;
          }
        });
    return root[0];
  }

  /**
   * Parses one JSON document from UTF-8 bytes (a leading byte-order mark skipped, invalid UTF-8
   * refused) and hands it to {@code handler} as it goes, so that a large document is never held as
   * one tree. The input stream is read to its end (or the first error) but not closed.
   *
   * @throws JsonSyntaxException when the bytes are not one valid JSON document
   * @throws IOException when reading the stream fails
   */
  public void stream(InputStream in, TopLevel handler) throws JsonSyntaxException, IOException {
    new JsonScanner(in, this, depthLimit).scan(handler);
  }

  /**
   * Parses one value from bytes already validated by a {@link JsonScanner}, enclosed in {@code
   * baseDepth} containers, starting at {@code line} and {@code column} of the document (for the
   * location of an error).
   */
  @Nullable Object parseSlice(byte[] bytes, int baseDepth, int line, int column)
      throws JsonSyntaxException {
    // The scanner validated the bytes as strict UTF-8: Jackson's byte parser may read them as is.
    try (JsonParser p = factory.createParser(bytes)) {
      if (p.nextToken() == null) {
        throw new JsonSyntaxException("empty input: no JSON value", line, column);
      }
      Object value = readValue(p, baseDepth);
      requireEnd(p);
      return value;
    } catch (StreamConstraintsException e) {
      throw constraint(e);
    } catch (JsonParseException e) {
      JsonLocation at = e.getLocation();
      int l = at == null ? -1 : at.getLineNr();
      int c = at == null ? -1 : at.getColumnNr();
      throw new JsonSyntaxException(
          e.getOriginalMessage(),
          l < 0 ? line : line + l - 1,
          l < 0 ? column : (l == 1 ? column + c - 1 : c));
    } catch (JsonSyntaxException e) {
      if (e.nestingTooDeep() || e.limitExceeded()) {
        throw e;
      }
      throw new JsonSyntaxException(e.getMessage(), line, column);
    } catch (IOException e) {
      throw new JsonSyntaxException(String.valueOf(e.getMessage()), line, column);
    }
  }

  private static void requireEnd(JsonParser p) throws IOException, JsonSyntaxException {
    if (p.nextToken() != null) {
      throw syntax(p, "trailing content after the JSON document");
    }
  }

  /** Parses a UTF-8 string; see {@link #parse(byte[])}. */
  public @Nullable Object parse(String text) throws JsonSyntaxException {
    return parse(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Parses text that is already decoded, without re-encoding it: the caller chose how bytes became
   * characters (the prober decodes with replacement). A leading U+FEFF is skipped as a byte-order
   * mark, as {@link #parse(byte[])} skips one.
   */
  public @Nullable Object parseText(String text) throws JsonSyntaxException {
    int start = !text.isEmpty() && text.charAt(0) == '\ufeff' ? 1 : 0;
    return readFrom(new StringReader(start == 0 ? text : text.substring(start)));
  }

  private @Nullable Object readFrom(Reader reader) throws JsonSyntaxException {
    try (reader;
        JsonParser parser = factory.createParser(reader)) {
      return read(parser);
    } catch (CharacterCodingException | CharConversionException e) {
      // Only the decoding reader of parse(byte[]) raises these.
      throw new JsonSyntaxException("not valid UTF-8", -1, -1);
    } catch (StreamConstraintsException e) {
      throw constraint(e);
    } catch (JsonParseException e) {
      JsonLocation at = e.getLocation();
      throw new JsonSyntaxException(
          e.getOriginalMessage(),
          at == null ? -1 : at.getLineNr(),
          at == null ? -1 : at.getColumnNr());
    } catch (IOException e) {
      throw new JsonSyntaxException(String.valueOf(e.getMessage()), -1, -1);
    }
  }

  /**
   * Jackson's own limits: only its nesting limit is a depth error; the others are syntax errors.
   */
  private JsonSyntaxException constraint(StreamConstraintsException e) {
    String message = String.valueOf(e.getOriginalMessage());
    if (message.contains("nesting depth")) {
      return tooDeep(-1, -1);
    }
    if (message.contains("Name length")) {
      return JsonSyntaxException.limit("a member name is longer than " + nameLimit + " characters");
    }
    return JsonSyntaxException.limit(message);
  }

  private JsonSyntaxException tooDeep(int line, int column) {
    return new JsonSyntaxException(
        "nesting deeper than " + depthLimit + " levels", line, column, true);
  }

  private @Nullable Object read(JsonParser p) throws IOException, JsonSyntaxException {
    if (p.nextToken() == null) {
      throw new JsonSyntaxException("empty input: no JSON value", -1, -1);
    }
    Object root = readValue(p, 0);
    requireEnd(p);
    return root;
  }

  /**
   * The value starting at the current token, built without recursion; {@code baseDepth} is how many
   * containers enclose it (for the depth limit).
   */
  private @Nullable Object readValue(JsonParser p, int baseDepth)
      throws IOException, JsonSyntaxException {
    Deque<Object> stack = new ArrayDeque<>();
    Deque<String> names = new ArrayDeque<>();
    Object root = null;
    JsonToken t = p.currentToken();
    while (true) {
      if (t == null) {
        throw syntax(p, "unexpected end of input");
      }
      Object value;
      switch (t) {
        case START_OBJECT, START_ARRAY -> {
          if (baseDepth + stack.size() >= depthLimit) {
            JsonLocation at = p.currentLocation();
            throw tooDeep(at.getLineNr(), at.getColumnNr());
          }
          Object container =
              t == JsonToken.START_OBJECT
                  ? new LinkedHashMap<String, Object>()
                  : new ArrayList<Object>();
          if (stack.isEmpty()) {
            root = container;
          } else {
            attach(stack, names, container);
          }
          stack.push(container);
          t = p.nextToken();
          continue;
        }
        case END_OBJECT, END_ARRAY -> {
          stack.pop();
          if (stack.isEmpty()) {
            return root;
          }
          t = p.nextToken();
          continue;
        }
        case FIELD_NAME -> {
          names.push(p.currentName());
          t = p.nextToken();
          continue;
        }
        case VALUE_STRING -> value = p.getText();
        case VALUE_NUMBER_INT -> value = integer(p);
        case VALUE_NUMBER_FLOAT -> value = p.getDoubleValue();
        case VALUE_TRUE -> value = Boolean.TRUE;
        case VALUE_FALSE -> value = Boolean.FALSE;
        case VALUE_NULL -> value = null;
        default -> throw syntax(p, "unexpected token " + t);
      }
      if (stack.isEmpty()) {
        return value;
      }
      attach(stack, names, value);
      t = p.nextToken();
    }
  }

  private static Object integer(JsonParser p) throws IOException {
    return switch (p.getNumberType()) {
      case INT -> p.getIntValue();
      case LONG -> p.getLongValue();
      default -> {
        BigInteger big = p.getBigIntegerValue();
        yield big.abs().compareTo(DOUBLE_MAX) > 0
            ? (big.signum() < 0 ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
            : big;
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static void attach(Deque<Object> stack, Deque<String> names, @Nullable Object value) {
    Object parent = stack.peek();
    if (parent instanceof Map<?, ?> map) {
      ((Map<String, Object>) map).put(names.pop(), value);
    } else if (parent instanceof List<?> list) {
      ((List<Object>) list).add(value);
    }
  }

  private static JsonSyntaxException syntax(JsonParser p, String message) {
    JsonLocation at = p.currentLocation();
    return new JsonSyntaxException(message, at.getLineNr(), at.getColumnNr());
  }
}
