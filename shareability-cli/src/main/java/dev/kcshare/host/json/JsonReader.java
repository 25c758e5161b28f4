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

  private JsonReader(int depthLimit) {
    this.depthLimit = depthLimit;
    this.factory =
        JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    // Our own depth check gives the error; Jackson's must not fire first.
                    .maxNestingDepth(Math.max(depthLimit + 1, 1))
                    .maxNumberLength(100_000)
                    .maxStringLength(Integer.MAX_VALUE)
                    .build())
            .build();
  }

  /** A reader that refuses nesting deeper than {@code depthLimit} levels. */
  public static JsonReader withDepthLimit(int depthLimit) {
    if (depthLimit < 1) {
      throw new IllegalArgumentException("depthLimit must be positive: " + depthLimit);
    }
    return new JsonReader(depthLimit);
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
    return String.valueOf(e.getOriginalMessage()).contains("nesting depth")
        ? tooDeep(-1, -1)
        : new JsonSyntaxException(e.getOriginalMessage(), -1, -1);
  }

  private JsonSyntaxException tooDeep(int line, int column) {
    return new JsonSyntaxException(
        "nesting deeper than " + depthLimit + " levels", line, column, true);
  }

  private @Nullable Object read(JsonParser p) throws IOException, JsonSyntaxException {
    Deque<Object> stack = new ArrayDeque<>();
    Deque<String> names = new ArrayDeque<>();
    Object root = null;
    boolean haveRoot = false;
    JsonToken t;
    while ((t = p.nextToken()) != null) {
      if (haveRoot && stack.isEmpty()) {
        throw syntax(p, "trailing content after the JSON document");
      }
      Object value;
      switch (t) {
        case START_OBJECT, START_ARRAY -> {
          if (stack.size() >= depthLimit) {
            JsonLocation at = p.currentLocation();
            throw tooDeep(at.getLineNr(), at.getColumnNr());
          }
          Object container =
              t == JsonToken.START_OBJECT
                  ? new LinkedHashMap<String, Object>()
                  : new ArrayList<Object>();
          attach(stack, names, container);
          stack.push(container);
          if (stack.size() == 1) {
            root = container;
            haveRoot = true;
          }
          continue;
        }
        case END_OBJECT, END_ARRAY -> {
          stack.pop();
          continue;
        }
        case FIELD_NAME -> {
          names.push(p.currentName());
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
        root = value;
        haveRoot = true;
      } else {
        attach(stack, names, value);
      }
    }
    if (!haveRoot) {
      throw new JsonSyntaxException("empty input: no JSON value", -1, -1);
    }
    return root;
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
