package dev.kcshare.host.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.toml.TomlFactory;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Parses TOML (Codex's {@code config.toml}) into the plain values the JSON reader produces. Only
 * this class names the TOML parser, so its classes load only when a TOML file exists.
 */
final class TomlDocuments {
  private static final TomlFactory FACTORY = new TomlFactory();

  private TomlDocuments() {}

  static ConfigFiles.Read parse(String text) {
    try (JsonParser p = FACTORY.createParser(new StringReader(text))) {
      return new ConfigFiles.Read(false, null, read(p));
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      return ConfigFiles.Read.ofProblem(
          SyntaxProblem.located(
              FileSyntax.TOML,
              at == null ? -1 : at.getLineNr(),
              at == null ? -1 : at.getColumnNr(),
              SyntaxProblem.toml(e.getOriginalMessage())));
    } catch (IOException | RuntimeException e) {
      return ConfigFiles.Read.ofProblem(
          SyntaxProblem.located(FileSyntax.TOML, -1, -1, "the text cannot be read as TOML"));
    }
  }

  private static @Nullable Object read(JsonParser p) throws IOException {
    Deque<Object> stack = new ArrayDeque<>();
    Deque<String> names = new ArrayDeque<>();
    Object root = null;
    JsonToken t;
    while ((t = p.nextToken()) != null) {
      Object value;
      switch (t) {
        case START_OBJECT, START_ARRAY -> {
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
        case VALUE_NUMBER_INT -> value = p.getNumberValue();
        case VALUE_NUMBER_FLOAT -> value = p.getDoubleValue();
        case VALUE_TRUE -> value = Boolean.TRUE;
        case VALUE_FALSE -> value = Boolean.FALSE;
        case VALUE_NULL -> value = null;
        case VALUE_EMBEDDED_OBJECT -> {
          Object o = p.getEmbeddedObject();
          value = o == null ? null : o.toString();
        }
        default -> value = p.getText();
      }
      if (stack.isEmpty()) {
        root = value;
      } else {
        attach(stack, names, value);
      }
    }
    return root;
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
}
