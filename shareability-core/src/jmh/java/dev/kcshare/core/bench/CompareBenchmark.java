package dev.kcshare.core.bench;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.internal.Answers;
import dev.kcshare.core.handshake.Comparison;
import dev.kcshare.core.handshake.HandshakeComparison;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Comparing two realistic 100-tool handshakes (target: at most 50 µs per comparison): each side
 * is built separately, as two spawns would produce it, so no value is shared between A and B.
 * {@code compareReordered} lists B's tools in reverse, the path where no annotation pairs up by
 * index.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CompareBenchmark {
  private static final int TOOLS = 100;

  private Answer a;
  private Answer equal;
  private Answer lastAnnotationDiffers;
  private Answer reordered;

  @Setup
  public void setUp() {
    a = answer("kirocrew-preflight-a", false);
    equal = answer("mcp-client-b", false);
    lastAnnotationDiffers = answer("mcp-client-b", true);
    Answer b = answer("mcp-client-b", false);
    List<Object> names = new ArrayList<>(b.toolNames());
    List<Object> annotations = new ArrayList<>(b.toolAnnotations());
    Collections.reverse(names);
    Collections.reverse(annotations);
    reordered =
        new Answer(
            b.era(),
            b.capabilities(),
            b.protocolVersion(),
            b.supportedVersions(),
            b.serverInfo(),
            names,
            annotations);
  }

  @Benchmark
  public Comparison compareEqual() {
    return HandshakeComparison.compare(a, equal);
  }

  @Benchmark
  public Comparison compareLastAnnotationDiffers() {
    return HandshakeComparison.compare(a, lastAnnotationDiffers);
  }

  /** The slow path: no annotation matches at its own index, so every one is canonicalised. */
  @Benchmark
  public Comparison compareReordered() {
    return HandshakeComparison.compare(a, reordered);
  }

  private static Answer answer(String caller, boolean flipLast) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("protocolVersion", "2025-06-18");
    result.put(
        "capabilities",
        obj(
            "tools", obj("listChanged", true),
            "resources", obj("subscribe", false, "listChanged", true),
            "prompts", obj("listChanged", false),
            "logging", obj(),
            "completions", obj(),
            "experimental", obj("tasks", obj("requests", obj("tools", obj("call", obj()))))));
    result.put(
        "serverInfo",
        obj(
            "name", "example-server",
            "title", "Example Server for " + caller,
            "version", "1.4.2",
            "websiteUrl", "https://example.invalid/server"));
    result.put("instructions", "Use the tools wisely.");
    List<Object> tools = new ArrayList<>();
    for (int i = 0; i < TOOLS; i++) {
      Map<String, Object> annotations = new LinkedHashMap<>();
      annotations.put("title", "Tool number " + i);
      annotations.put("readOnlyHint", i % 3 == 0);
      if (i % 2 == 0) {
        annotations.put("destructiveHint", i % 4 == 0);
      }
      if (i % 5 != 0) {
        annotations.put("idempotentHint", true);
      }
      annotations.put("openWorldHint", i % 7 == 0);
      if (flipLast && i == TOOLS - 1) {
        annotations.put("openWorldHint", !(Boolean) annotations.get("openWorldHint"));
      }
      tools.add(
          obj(
              "name", "tool_" + i,
              "description", "Does thing " + i + " with the given arguments.",
              "inputSchema",
                  obj("type", "object", "properties", obj("path", obj("type", "string"))),
              "annotations", annotations));
    }
    return Answers.legacy(result, tools);
  }

  private static Map<String, Object> obj(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
