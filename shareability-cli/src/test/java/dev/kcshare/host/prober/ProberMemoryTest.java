package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A 50 MB stderr flood and a line over 16 MiB, probed concurrently in a JVM limited to 256 MiB of
 * heap that exits on any OutOfMemoryError: kcshare's memory stays bounded whatever a server sends.
 */
final class ProberMemoryTest {
  @BeforeAll
  static void requireNode() {
    FixtureServers.assumeNode();
  }

  @Test
  void floodAndOversizeLineFitInASmallHeap() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder =
        new ProcessBuilder(
            java.toString(),
            "-Xmx256m",
            "-XX:+ExitOnOutOfMemoryError",
            "-cp",
            System.getProperty("java.class.path"),
            MemoryProbeMain.class.getName(),
            FixtureServers.SCRIPT.toString(),
            "stderr-flood",
            "huge-line",
            "stable");
    builder.redirectErrorStream(true);
    Process child = builder.start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = child.waitFor();
    assertThat(exit).as(output).isZero();
    assertThat(output).doesNotContain("OutOfMemoryError");
    List<String> lines = output.lines().toList();
    long maxHeapMib =
        lines.stream()
            .filter(l -> l.startsWith("max-heap-mib "))
            .mapToLong(l -> Long.parseLong(l.substring("max-heap-mib ".length())))
            .findFirst()
            .orElseThrow();
    assertThat(maxHeapMib).isLessThanOrEqualTo(256);
    assertThat(lines)
        .contains("stderr-flood true ", "huge-line false message exceeds 16 MiB", "stable true ");
  }
}
