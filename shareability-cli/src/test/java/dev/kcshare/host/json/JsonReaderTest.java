package dev.kcshare.host.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class JsonReaderTest {
  private final JsonReader reader = JsonReader.withDepthLimit(JsonReader.RECORD_DEPTH_LIMIT);

  @Test
  void plainValuesKeepMemberOrder() throws Exception {
    Object v = reader.parse("{\"b\": [1, 2.5, \"x\", true, null], \"a\": {}}");
    assertThat(v).isInstanceOf(Map.class);
    assertThat(List.copyOf(((Map<?, ?>) v).keySet())).isEqualTo(List.of("b", "a"));
    assertThat(((Map<?, ?>) v).get("b"))
        .isEqualTo(java.util.Arrays.asList(1, 2.5, "x", true, null));
  }

  @Test
  void nonFiniteTokensFromPythonAreAccepted() throws Exception {
    List<?> v = (List<?>) reader.parse("[NaN, Infinity, -Infinity]");
    assertThat((Double) v.get(0)).isNaN();
    assertThat(v.get(1)).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(v.get(2)).isEqualTo(Double.NEGATIVE_INFINITY);
  }

  @Test
  void numbersFollowTheIntegerLiteralContract() throws Exception {
    List<?> v =
        (List<?>) reader.parse("[4, 4.0, 4e0, 9223372036854775807, 9223372036854775808, 1e400]");
    assertThat(v.get(0)).isEqualTo(4);
    assertThat(v.get(1)).isEqualTo(4.0);
    assertThat(v.get(2)).isEqualTo(4.0);
    assertThat(v.get(3)).isEqualTo(Long.MAX_VALUE);
    assertThat(v.get(4)).isEqualTo(new BigInteger("9223372036854775808"));
    assertThat(v.get(5)).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void integerBeyondTheDoubleRangeIsInfinite() throws Exception {
    String digits = "1" + "0".repeat(309);
    assertThat(reader.parse("[" + digits + ", -" + digits + "]"))
        .isEqualTo(List.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
  }

  @Test
  void leadingByteOrderMarkIsIgnored() throws Exception {
    byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
    byte[] body = "{\"schema\": 1}".getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[bom.length + body.length];
    System.arraycopy(bom, 0, all, 0, 3);
    System.arraycopy(body, 0, all, 3, body.length);
    assertThat(reader.parse(all)).isEqualTo(Map.of("schema", 1));
  }

  @Test
  void invalidUtf8IsAnError() {
    byte[] bad = {'"', (byte) 0xc3, (byte) 0x28, '"'};
    assertThatThrownBy(() -> reader.parse(bad))
        .isInstanceOf(JsonSyntaxException.class)
        .hasMessageContaining("UTF-8");
  }

  @Test
  void repeatedMemberKeepsTheLastValue() throws Exception {
    assertThat(reader.parse("{\"a\": 1, \"a\": 2}")).isEqualTo(Map.of("a", 2));
  }

  @Test
  void nestingAtTheLimitParsesAndOneMoreIsRefused() throws Exception {
    int limit = JsonReader.RECORD_DEPTH_LIMIT;
    assertThat(reader.parse("[".repeat(limit) + "]".repeat(limit))).isInstanceOf(List.class);
    assertThatThrownBy(() -> reader.parse("[".repeat(limit + 1) + "]".repeat(limit + 1)))
        .isInstanceOf(JsonSyntaxException.class)
        .hasMessageContaining("nesting deeper than 1000 levels");
  }

  @Test
  void veryDeepDocumentsDoNotExhaustTheStack() throws Exception {
    int depth = 150_000;
    JsonReader deep = JsonReader.withDepthLimit(200_000);
    Object v = deep.parse("{\"a\":".repeat(depth) + "1" + "}".repeat(depth));
    int seen = 0;
    while (v instanceof Map<?, ?> m) {
      v = m.get("a");
      seen++;
    }
    assertThat(seen).isEqualTo(depth);
  }

  @Test
  void syntaxErrorsCarryALocation() {
    assertThatThrownBy(() -> reader.parse("{\n  \"a\": tru\n}"))
        .isInstanceOfSatisfying(JsonSyntaxException.class, e -> assertThat(e.line()).isEqualTo(2));
  }

  @Test
  void trailingContentAndEmptyInputAreErrors() {
    assertThatThrownBy(() -> reader.parse("{} {}")).isInstanceOf(JsonSyntaxException.class);
    assertThatThrownBy(() -> reader.parse("   ")).isInstanceOf(JsonSyntaxException.class);
  }

  @Test
  void depthErrorsAreTellableFromSyntaxErrors() {
    JsonReader small = JsonReader.withDepthLimit(4);
    assertThatThrownBy(() -> small.parseText("[[[[[1]]]]]"))
        .isInstanceOfSatisfying(
            JsonSyntaxException.class, e -> assertThat(e.nestingTooDeep()).isTrue());
    assertThatThrownBy(() -> small.parse("[[[[[" + "[".repeat(100_000)))
        .isInstanceOfSatisfying(
            JsonSyntaxException.class, e -> assertThat(e.nestingTooDeep()).isTrue());
    assertThatThrownBy(() -> small.parseText("[[1]"))
        .isInstanceOfSatisfying(
            JsonSyntaxException.class, e -> assertThat(e.nestingTooDeep()).isFalse());
    assertThatThrownBy(() -> small.parseText("[" + "9".repeat(200_000) + "]"))
        .as("a number over Jackson's length limit is not a depth error")
        .isInstanceOfSatisfying(
            JsonSyntaxException.class, e -> assertThat(e.nestingTooDeep()).isFalse());
  }

  @Test
  void parseTextReadsDecodedTextAndSkipsAByteOrderMark() throws Exception {
    assertThat(reader.parseText("\ufeff{\"a\":[\"\u00e9\ufffd\"]}"))
        .isEqualTo(Map.of("a", List.of("\u00e9\ufffd")));
  }
}
