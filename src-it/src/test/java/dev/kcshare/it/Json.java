package dev.kcshare.it;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain JSON values for the black-box tests: objects as insertion-ordered maps, arrays as lists,
 * integers as {@code Long}, other numbers as {@code Double}.
 */
final class Json {
  private static final JsonFactory FACTORY = new JsonFactory();

  static Object parse(String text) throws IOException {
    try (JsonParser p = FACTORY.createParser(text)) {
      p.nextToken();
      Object value = read(p);
      if (p.nextToken() != null) {
        throw new IOException("trailing content after the JSON value: " + text);
      }
      return value;
    }
  }

  static Object read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8));
  }

  private static Object read(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT:
        Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          map.put(name, read(p));
        }
        return map;
      case START_ARRAY:
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(read(p));
        }
        return list;
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
        return p.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return p.getDoubleValue();
      case VALUE_TRUE:
        return true;
      case VALUE_FALSE:
        return false;
      case VALUE_NULL:
        return null;
      default:
        throw new IOException("unexpected JSON token " + t);
    }
  }

  static String write(Object value) throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      write(g, value);
    }
    return out.toString();
  }

  private static void write(JsonGenerator g, Object value) throws IOException {
    if (value instanceof Map<?, ?> map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        g.writeFieldName((String) e.getKey());
        write(g, e.getValue());
      }
      g.writeEndObject();
    } else if (value instanceof List<?> list) {
      g.writeStartArray();
      for (Object o : list) {
        write(g, o);
      }
      g.writeEndArray();
    } else if (value instanceof String s) {
      g.writeString(s);
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Long l) {
      g.writeNumber(l);
    } else if (value instanceof Integer i) {
      g.writeNumber(i);
    } else if (value == null) {
      g.writeNull();
    } else {
      throw new IllegalArgumentException("not a JSON value: " + value.getClass());
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value) {
    if (!(value instanceof Map)) {
      throw new AssertionError("expected a JSON object, got " + value);
    }
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  static List<Object> array(Object value) {
    if (!(value instanceof List)) {
      throw new AssertionError("expected a JSON array, got " + value);
    }
    return (List<Object>) value;
  }

  /** The objects of a JSON array, keyed by their {@code name} member. */
  static Map<String, Map<String, Object>> byName(Object array) {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    for (Object o : array(array)) {
      Map<String, Object> m = object(o);
      out.put((String) m.get("name"), m);
    }
    return out;
  }

  private Json() {}
}
