package dev.kcshare.host.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Parses YAML 1.2 (core schema, as Continue's and Goose's readers take it: {@code yes} is a string,
 * a repeated key is an error) into the plain values the JSON reader produces. Only this class names
 * the YAML parser, so its classes load only when a YAML file exists.
 */
final class YamlDocuments {
  /**
   * The deepest nesting of sequences and mappings a YAML file may have, as for JSON files. The
   * parser's composer recurses once per level, so a deeper file is refused before it is composed.
   */
  static final int DEPTH_LIMIT = 1_000;

  private YamlDocuments() {}

  static ConfigFiles.Read parse(String text) {
    LoadSettings settings =
        LoadSettings.builder()
            .setSchema(new CoreSchema())
            .setAllowDuplicateKeys(false)
            .setCodePointLimit(ConfigFiles.MAX_BYTES)
            .setLabel("config")
            .build();
    Object raw;
    try {
      Event deep = tooDeep(settings, text);
      if (deep != null) {
        Optional<Mark> m = deep.getStartMark();
        return ConfigFiles.Read.ofProblem(
            SyntaxProblem.located(
                FileSyntax.YAML,
                m.map(x -> x.getLine() + 1).orElse(-1),
                m.map(x -> x.getColumn() + 1).orElse(-1),
                "nested deeper than " + DEPTH_LIMIT + " levels"));
      }
      raw = new Load(settings).loadFromString(text);
    } catch (MarkedYamlEngineException e) {
      Optional<Mark> mark = e.getProblemMark().or(e::getContextMark);
      return ConfigFiles.Read.ofProblem(
          SyntaxProblem.located(
              FileSyntax.YAML,
              mark.map(m -> m.getLine() + 1).orElse(-1),
              mark.map(m -> m.getColumn() + 1).orElse(-1),
              SyntaxProblem.yaml(e.getProblem())));
    } catch (YamlEngineException | IllegalArgumentException | IllegalStateException e) {
      return ConfigFiles.Read.ofProblem(
          SyntaxProblem.located(FileSyntax.YAML, -1, -1, SyntaxProblem.yaml(e.getMessage())));
    }
    try {
      Set<Object> open = Collections.newSetFromMap(new IdentityHashMap<>());
      return new ConfigFiles.Read(false, null, plain(raw, open));
    } catch (IllegalStateException e) {
      return ConfigFiles.Read.ofProblem(
          SyntaxProblem.located(FileSyntax.YAML, -1, -1, e.getMessage()));
    }
  }

  /**
   * Where the text first opens a sequence or mapping deeper than {@link #DEPTH_LIMIT}, read from
   * the parser's events (the event parser keeps its own stack and does not recurse).
   */
  private static @Nullable Event tooDeep(LoadSettings settings, String text) {
    int depth = 0;
    ParserImpl events = new ParserImpl(settings, new StreamReader(settings, text));
    while (events.hasNext()) {
      Event e = events.next();
      switch (e.getEventId()) {
        case SequenceStart, MappingStart -> {
          if (++depth > DEPTH_LIMIT) {
            return e;
          }
        }
        case SequenceEnd, MappingEnd -> depth--;
        default -> {}
      }
    }
    return null;
  }

  /** Maps with string keys, lists, strings, numbers, booleans, null; a cycle is refused. */
  private static @Nullable Object plain(@Nullable Object value, Set<Object> open) {
    if (value instanceof Map<?, ?> map) {
      if (!open.add(map)) {
        throw new IllegalStateException("an alias that refers to itself");
      }
      Map<String, @Nullable Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put(String.valueOf(e.getKey()), plain(e.getValue(), open));
      }
      open.remove(map);
      return out;
    }
    if (value instanceof List<?> list) {
      if (!open.add(list)) {
        throw new IllegalStateException("an alias that refers to itself");
      }
      List<@Nullable Object> out = new ArrayList<>(list.size());
      for (Object o : list) {
        out.add(plain(o, open));
      }
      open.remove(list);
      return out;
    }
    if (value == null
        || value instanceof String
        || value instanceof Number
        || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Set<?> set) {
      return plain(new ArrayList<>(set), open);
    }
    return String.valueOf(value);
  }
}
