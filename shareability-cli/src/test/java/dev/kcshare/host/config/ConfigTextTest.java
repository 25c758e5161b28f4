package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.host.json.JsonReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

final class ConfigTextTest {
  private static final Map<String, Boolean> AB = overrides("a", true, "b", false);

  private static Map<String, Boolean> overrides(Object... kv) {
    Map<String, Boolean> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (Boolean) kv[i + 1]);
    }
    return m;
  }

  private static @Nullable Object parse(String text) throws Exception {
    return JsonReader.withDepthLimit(1000).parse(Jsonc.strip(text));
  }

  /** Asserts that old and new differ only inside [from, to) of the old text. */
  private static void assertChangeConfinedTo(String before, String after, int from, int to) {
    assertThat(after).startsWith(before.substring(0, from)).endsWith(before.substring(to));
  }

  @Test
  void replacesAnExistingValueAndNothingElse() {
    String before =
        "{\n"
            + "  \"agent\": {\"model\": \"x\"},\n"
            + "  \"mcp_gateway\": {\n"
            + "    \"enabled\": false,\n"
            + "    \"stub_overrides\": {\n"
            + "      \"github\": true,\n"
            + "      \"\": true\n"
            + "    },\n"
            + "    \"max_backends\": 32\n"
            + "  }\n"
            + "}\n";
    String after = ConfigText.withStubOverrides(before, AB);
    assertThat(after)
        .isEqualTo(
            "{\n"
                + "  \"agent\": {\"model\": \"x\"},\n"
                + "  \"mcp_gateway\": {\n"
                + "    \"enabled\": false,\n"
                + "    \"stub_overrides\": {\n"
                + "      \"a\": true,\n"
                + "      \"b\": false\n"
                + "    },\n"
                + "    \"max_backends\": 32\n"
                + "  }\n"
                + "}\n");
    int from = before.indexOf("{", before.indexOf("\"stub_overrides\""));
    int to = before.indexOf("},\n    \"max_backends\"") + 1;
    assertChangeConfinedTo(before, after, from, to);
  }

  @Test
  void insertsTheMemberAfterTheLastOneWithTheFilesFourSpaceIndent() throws Exception {
    String before =
        "{\n"
            + "    \"zeta\": [1, 2, {\"deep\": {\"deeper\": null}}],\n"
            + "    \"mcp_gateway\": {\n"
            + "        \"socket_path\": \"/run/gw.sock\",\n"
            + "        \"unknown_key\": {\"ünïcödé\": \"✓ \\u00e9\"}\n"
            + "    },\n"
            + "    \"alpha\": 1.50\n"
            + "}";
    String after = ConfigText.withStubOverrides(before, AB);
    assertThat(after)
        .isEqualTo(
            "{\n"
                + "    \"zeta\": [1, 2, {\"deep\": {\"deeper\": null}}],\n"
                + "    \"mcp_gateway\": {\n"
                + "        \"socket_path\": \"/run/gw.sock\",\n"
                + "        \"unknown_key\": {\"ünïcödé\": \"✓ \\u00e9\"},\n"
                + "        \"stub_overrides\": {\n"
                + "            \"a\": true,\n"
                + "            \"b\": false\n"
                + "        }\n"
                + "    },\n"
                + "    \"alpha\": 1.50\n"
                + "}");
    assertThat(parse(after)).isNotNull();
  }

  @Test
  void createsTheSectionAtTheEndOfTheRoot() {
    String before = "{\n\t\"agent\": {\n\t\t\"model\": \"m\"\n\t}\n}\n";
    assertThat(ConfigText.withStubOverrides(before, overrides("x", true)))
        .isEqualTo(
            "{\n\t\"agent\": {\n\t\t\"model\": \"m\"\n\t},\n"
                + "\t\"mcp_gateway\": {\n\t\t\"stub_overrides\": {\n\t\t\t\"x\": true\n\t\t}\n\t}\n"
                + "}\n");
  }

  @Test
  void commentsAndTrailingCommasSurvive() throws Exception {
    String before =
        "// Kiro Crew\n"
            + "{\n"
            + "  /* the gateway */\n"
            + "  \"mcp_gateway\": {\n"
            + "    \"enabled\": true, // sharing on\n"
            + "    \"note\": \"// not a comment, /* nor this */\",\n"
            + "  },\n"
            + "}\n";
    String after = ConfigText.withStubOverrides(before, overrides("a", true));
    assertThat(after)
        .isEqualTo(
            "// Kiro Crew\n"
                + "{\n"
                + "  /* the gateway */\n"
                + "  \"mcp_gateway\": {\n"
                + "    \"enabled\": true, // sharing on\n"
                + "    \"note\": \"// not a comment, /* nor this */\",\n"
                + "    \"stub_overrides\": {\n"
                + "      \"a\": true\n"
                + "    }\n"
                + "  },\n"
                + "}\n");
    assertThat(parse(after)).isNotNull();
  }

  @Test
  void aLineCommentAfterTheLastMemberKeepsItsLine() throws Exception {
    String before = "{\n  \"mcp_gateway\": {\n    \"enabled\": false // off for now\n  }\n}\n";
    String after = ConfigText.withStubOverrides(before, overrides("a", true));
    assertThat(after)
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"enabled\": false, // off for now\n"
                + "    \"stub_overrides\": {\n      \"a\": true\n    }\n  }\n}\n");
    assertThat(parse(after)).isNotNull();
  }

  @Test
  void compactFilesStayCompact() {
    assertThat(ConfigText.withStubOverrides("{\"mcp_gateway\":{\"enabled\":true}}", AB))
        .isEqualTo(
            "{\"mcp_gateway\":{\"enabled\":true, \"stub_overrides\":{\"a\":true, \"b\":false}}}");
    assertThat(ConfigText.withStubOverrides("{\"k\": 1}", overrides("a", true)))
        .isEqualTo("{\"k\": 1, \"mcp_gateway\": {\"stub_overrides\": {\"a\": true}}}");
  }

  @Test
  void crlfFilesGetCrlf() {
    String before = "{\r\n  \"mcp_gateway\": {\r\n    \"enabled\": true\r\n  }\r\n}\r\n";
    assertThat(ConfigText.withStubOverrides(before, overrides("a", true)))
        .isEqualTo(
            "{\r\n  \"mcp_gateway\": {\r\n    \"enabled\": true,\r\n"
                + "    \"stub_overrides\": {\r\n      \"a\": true\r\n    }\r\n  }\r\n}\r\n");
  }

  @Test
  void emptyRootNullSectionEmptySectionAndNonObjectMember() {
    assertThat(ConfigText.withStubOverrides("{}", overrides("a", true)))
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\n      \"a\": true\n    }\n  }\n}");
    assertThat(
            ConfigText.withStubOverrides("{\n  \"mcp_gateway\": null\n}\n", overrides("a", true)))
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\n      \"a\": true\n    }\n  }\n}\n");
    assertThat(ConfigText.withStubOverrides("{\n  \"mcp_gateway\": {}\n}\n", overrides("a", true)))
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\n      \"a\": true\n    }\n  }\n}\n");
    assertThat(
            ConfigText.withStubOverrides(
                "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": \"yes\"\n  }\n}\n", AB))
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\n      \"a\": true,\n"
                + "      \"b\": false\n    }\n  }\n}\n");
    assertThat(
            ConfigText.withStubOverrides(
                "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\"q\": false}\n  }\n}\n", AB))
        .as("a compact non-empty value keeps its style")
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\"a\": true, \"b\": false}\n  }\n}\n");
    assertThat(ConfigText.withStubOverrides(null, overrides("a", true)))
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\n      \"a\": true\n    }\n  }\n}\n");
    assertThat(
            ConfigText.withStubOverrides(
                "{\"mcp_gateway\": {\"stub_overrides\": {\"a\": true}}}", Map.of()))
        .isEqualTo("{\"mcp_gateway\": {\"stub_overrides\": {}}}");
  }

  @Test
  void escapedKeysAreMatchedByValueAndTheLastRepeatedMemberIsEdited() throws Exception {
    String before =
        "{\"mcp\\u005fgateway\": {\"stub_overrides\": {}}, \"mcp_gateway\": {\"enabled\": true}}";
    String after = ConfigText.withStubOverrides(before, overrides("a", true));
    assertThat(after)
        .isEqualTo(
            "{\"mcp\\u005fgateway\": {\"stub_overrides\": {}}, \"mcp_gateway\": {\"enabled\": true,"
                + " \"stub_overrides\": {\"a\": true}}}");
    assertThat(parse(after))
        .isEqualTo(
            Map.of("mcp_gateway", Map.of("enabled", true, "stub_overrides", Map.of("a", true))));
  }

  @Test
  void hostileNamesAreQuotedAsJson() throws Exception {
    String name = "evil\"}\n,\"enabled\": true, \\ \u0007 \u2028 ünï";
    String after = ConfigText.withStubOverrides("{}", overrides(name, true));
    assertThat(parse(after))
        .isEqualTo(Map.of("mcp_gateway", Map.of("stub_overrides", Map.of(name, true))));
    assertThat(after).doesNotContain("\n,\"enabled\"");
  }

  @Test
  void refusesWhatIsNotAnObjectDocument() {
    assertThatThrownBy(() -> ConfigText.withStubOverrides("[1]", AB))
        .isInstanceOf(ConfigText.EditException.class);
    assertThatThrownBy(() -> ConfigText.withStubOverrides("{\"mcp_gateway\": [1]}", AB))
        .isInstanceOf(ConfigText.EditException.class);
    assertThatThrownBy(() -> ConfigText.withStubOverrides("{\"a\": 1 /* open", AB))
        .isInstanceOf(ConfigText.EditException.class);
    assertThatThrownBy(() -> ConfigText.withStubOverrides("{\"a\": 1} x", AB))
        .isInstanceOf(ConfigText.EditException.class);
  }

  // ------------------------------------------------------------------ randomized

  static Stream<Long> seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 100).mapToObj(i -> base + i);
  }

  /**
   * Random documents in random formatting (indent, comments, trailing commas, CRLF, key order): the
   * result parses to the old document with only the member set, and every comment survives.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void randomDocumentsChangeOnlyTheMember(long seed) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    Gen g = new Gen(r);
    String text = g.document();
    Map<String, Boolean> wanted = new LinkedHashMap<>();
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      wanted.put(g.key(), r.nextBoolean());
    }
    String after = ConfigText.withStubOverrides(text, wanted);

    @SuppressWarnings("unchecked")
    Map<String, Object> expected = (Map<String, Object>) parse(text);
    Object section = expected.get("mcp_gateway");
    Map<String, Object> s = new LinkedHashMap<>();
    if (section instanceof Map<?, ?> m) {
      m.forEach((k, v) -> s.put((String) k, v));
    }
    s.put("stub_overrides", wanted);
    expected.put("mcp_gateway", s);
    Object actual = parse(after);
    assertThat(actual).as("seed=%d input:%n%s%noutput:%n%s", seed, text, after).isEqualTo(expected);
    assertThat(new ArrayList<>(((Map<?, ?>) actual).keySet()))
        .as("seed=%d top-level key order", seed)
        .isEqualTo(new ArrayList<>(expected.keySet()));
    for (String comment : g.comments) {
      assertThat(after).as("seed=%d", seed).contains(comment);
    }
  }

  /** A random JSONC document generator. */
  private static final class Gen {
    final SplittableRandom r;
    final List<String> comments = new ArrayList<>();
    final String nl;
    final String unit;
    final boolean compact;

    Gen(SplittableRandom r) {
      this.r = r;
      this.nl = r.nextInt(4) == 0 ? "\r\n" : "\n";
      this.unit = List.of("  ", "    ", "\t", " ").get(r.nextInt(4));
      this.compact = r.nextInt(5) == 0;
    }

    String key() {
      return List.of(
              "a", "b", "zz", "ünï", "with \"quote\"", "x/y", "mcp_gateway", "k" + r.nextInt(9))
          .get(r.nextInt(8));
    }

    String document() {
      List<String> members = new ArrayList<>();
      int n = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        members.add(ConfigText.quote("k" + i) + ": " + value(1, 0));
      }
      int gw = r.nextInt(5);
      if (gw > 0) {
        String sectionValue = gw == 1 ? "null" : gw == 2 ? "{}" : section(1);
        members.add(r.nextInt(members.size() + 1), "\"mcp_gateway\": " + sectionValue);
      }
      return object(members, 0) + (r.nextBoolean() ? nl : "");
    }

    private String section(int depth) {
      List<String> members = new ArrayList<>();
      if (r.nextBoolean()) {
        members.add("\"enabled\": " + r.nextBoolean());
      }
      if (r.nextBoolean()) {
        members.add("\"stub_servers\": [\"p\", \"q\"]");
      }
      int so = r.nextInt(4);
      if (so == 1) {
        members.add("\"stub_overrides\": {\"q\": false}");
      } else if (so == 2) {
        // its own comments are replaced with the value, so none are generated inside it
        members.add(
            "\"stub_overrides\": "
                + object(List.of("\"q\": false", "\"r\": true"), depth + 1, false));
      } else if (so == 3) {
        members.add("\"stub_overrides\": 7");
      }
      if (r.nextBoolean()) {
        members.add("\"extra\": " + value(depth + 1, 0));
      }
      java.util.Collections.shuffle(members, new java.util.Random(r.nextLong()));
      return object(members, depth);
    }

    private String value(int depth, int nesting) {
      return switch (nesting > 2 ? r.nextInt(4) : r.nextInt(6)) {
        case 0 -> "\"s" + r.nextInt(100) + "\"";
        case 1 -> Integer.toString(r.nextInt(1000) - 500);
        case 2 -> "true";
        case 3 -> "null";
        case 4 -> "[1, \"two\", {\"three\": 3}]";
        default -> object(List.of("\"in\": " + value(depth + 1, nesting + 1)), depth);
      };
    }

    private String object(List<String> members, int depth) {
      return object(members, depth, true);
    }

    private String object(List<String> members, int depth, boolean withComments) {
      if (members.isEmpty()) {
        return r.nextBoolean() ? "{}" : "{ }";
      }
      StringBuilder b = new StringBuilder("{");
      String inner = compact ? "" : unit.repeat(depth + 1);
      for (int i = 0; i < members.size(); i++) {
        if (!compact) {
          b.append(nl).append(inner);
        } else if (i > 0) {
          b.append(' ');
        }
        b.append(members.get(i));
        boolean lastOne = i == members.size() - 1;
        if (!lastOne || r.nextInt(4) == 0) {
          b.append(',');
        }
        if (!withComments) {
          continue;
        }
        if (r.nextInt(5) == 0) {
          String c = "/* c" + r.nextInt(1_000_000) + " */";
          comments.add(c);
          b.append(' ').append(c);
        } else if (!compact && r.nextInt(5) == 0) {
          String c = "// l" + r.nextInt(1_000_000);
          comments.add(c);
          b.append(' ').append(c);
        }
      }
      if (!compact) {
        b.append(nl).append(unit.repeat(depth));
      }
      return b.append('}').toString();
    }
  }
}
