package dev.kcshare.host.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.EraChoice;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The exact bytes each identity writes to a server's stdin (docs/design.md#legacy-exchange,
 * docs/design.md#reading-messages, docs/design.md#modern-era-servers), recorded by the fixture
 * server and compared byte for byte with the documented requests.
 */
@Execution(ExecutionMode.CONCURRENT)
final class RequestBytesTest {
  private static final String CLIENT_A =
      "{\"name\":\"kirocrew-preflight-a\",\"version\":\"1.0.0\"}";
  private static final String CLIENT_B = "{\"name\":\"mcp-client-b\",\"version\":\"9.9.9\"}";

  private static final String INITIALIZE_A =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2024-11-05\",\"capabilities\":{},\"clientInfo\":{\"name\":\"kirocrew-preflight-a\","
          + "\"version\":\"1.0.0\"}}}\n";
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
  private static final String TOOLS_LIST =
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}\n";

  private static final String META_B =
      "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcp-client-b\",\"version\":\"9.9.9\"}}";

  /** The documented modern request (docs/design.md#modern-era-servers), identity B. */
  private static final String DISCOVER_B =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":"
          + META_B
          + "}}\n";

  @BeforeAll
  static void requireNode() {
    FixtureServers.assumeNode();
  }

  private static List<String> record(Path dir, String mode) throws Exception {
    return record(dir, EraChoice.AUTO, true, mode);
  }

  private static List<String> record(
      Path dir, EraChoice era, boolean runs, String mode, String... flags) throws Exception {
    FixtureServers f = new FixtureServers(dir);
    Path recordings = Files.createDirectories(dir.resolve("in"));
    List<String> args = new java.util.ArrayList<>(List.of(flags));
    args.add("--record");
    args.add(recordings.toString());
    ProbeOutcome outcome =
        FixtureServers.prober(15)
            .withEra(era)
            .probe(f.server(mode, args.toArray(String[]::new)), false);
    assertThat(outcome.result().ran()).as("%s", outcome).isEqualTo(runs);
    f.assertAllGone();
    try (Stream<Path> files = Files.list(recordings)) {
      return files.map(RequestBytesTest::read).sorted().toList();
    }
  }

  private static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Identity B's bytes are identity A's with only the clientInfo swapped. */
  private static String asB(String bytesOfA) {
    return bytesOfA.replace(CLIENT_A, CLIENT_B);
  }

  @Test
  void legacyExchangeBytes(@TempDir Path dir) throws Exception {
    List<String> recordings = record(dir, "stable");
    String a = INITIALIZE_A + INITIALIZED + TOOLS_LIST;
    assertThat(recordings).containsExactlyInAnyOrder(a, asB(a));
  }

  @Test
  void paginatedListingBytes(@TempDir Path dir) throws Exception {
    List<String> recordings = record(dir, "paginated");
    String a =
        INITIALIZE_A
            + INITIALIZED
            + TOOLS_LIST
            + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"cursor\":\"page-2\"}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"cursor\":\"page-3\"}}\n";
    assertThat(recordings).containsExactlyInAnyOrder(a, asB(a));
  }

  @Test
  void serverToClientRequestsAreAnsweredWithTheirIds(@TempDir Path dir) throws Exception {
    String roots =
        INITIALIZE_A
            + "{\"jsonrpc\":\"2.0\",\"id\":\"r-1\",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n"
            + INITIALIZED
            + TOOLS_LIST;
    assertThat(record(dir.resolve("roots"), "roots-request"))
        .containsExactlyInAnyOrder(roots, asB(roots));
    String ping =
        INITIALIZE_A + "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n" + INITIALIZED + TOOLS_LIST;
    assertThat(record(dir.resolve("ping"), "ping-request"))
        .containsExactlyInAnyOrder(ping, asB(ping));
  }

  /** The discover kcshare sends on the same process after {@code initialize} was rejected. */
  private static String discoverA(int id) {
    return DISCOVER_B.replace(CLIENT_B, CLIENT_A).replace("\"id\":1,", "\"id\":" + id + ",");
  }

  @Test
  void anInitializeErrorOfAnyCodeIsFollowedByOneDiscoverOnTheSameProcess(@TempDir Path dir)
      throws Exception {
    List<String> recordings = record(dir, EraChoice.AUTO, false, "error-reply");
    String a = INITIALIZE_A + discoverA(2);
    // Both identities failed alike, then A was not retried: two processes, two conversations.
    assertThat(recordings).containsExactlyInAnyOrder(a, asB(a));
  }

  @Test
  void theLegacyChoiceSendsNoDiscoverAfterAnInitializeError(@TempDir Path dir) throws Exception {
    List<String> recordings = record(dir, EraChoice.LEGACY, false, "error-reply");
    assertThat(recordings).containsExactlyInAnyOrder(INITIALIZE_A, asB(INITIALIZE_A));
  }

  @Test
  void theModernChoiceOpensWithDiscoverAndFallsBackOnTheSameProcess(@TempDir Path dir)
      throws Exception {
    List<String> recordings = record(dir, EraChoice.MODERN, true, "stable");
    String a =
        discoverA(1)
            + INITIALIZE_A.replace("\"id\":1,", "\"id\":2,")
            + INITIALIZED
            + TOOLS_LIST.replace("\"id\":2,", "\"id\":3,");
    assertThat(recordings).containsExactlyInAnyOrder(a, asB(a));
  }

  @Test
  void modernExchangeBytes(@TempDir Path dir) throws Exception {
    List<String> recordings = record(dir, "modern-only");
    // Legacy phase: each identity's process got its initialize and nothing else. (The identity
    // abandoned when the other detected the modern server may not have sent it yet.)
    List<String> legacy = recordings.stream().filter(r -> r.contains("\"initialize\"")).toList();
    assertThat(legacy).isNotEmpty().isSubsetOf(INITIALIZE_A, asB(INITIALIZE_A));
    String b =
        DISCOVER_B
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"_meta\":"
            + META_B
            + "}}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"_meta\":"
            + META_B
            + ",\"cursor\":\"page-2\"}}\n";
    // Identity A's process is then asked as B too (one process, two callers), ids 4 to 6.
    String a =
        b.replace(CLIENT_B, CLIENT_A)
            + b.replace("\"id\":3,", "\"id\":6,")
                .replace("\"id\":2,", "\"id\":5,")
                .replace("\"id\":1,", "\"id\":4,");
    List<String> modern = recordings.stream().filter(r -> !legacy.contains(r)).toList();
    assertThat(modern).containsExactlyInAnyOrder(a, b);
  }
}
