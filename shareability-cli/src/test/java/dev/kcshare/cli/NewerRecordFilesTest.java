package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.HazardCodes;
import dev.kcshare.host.records.LedgerStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md#files-left-unchanged: a writer never replaces a record file it reads as written by
 * a newer version or otherwise not understood. Commands exit non-zero saying so and leave it
 * byte-identical; an embedded flush reports failure and keeps its evidence in memory. Reading it as
 * "nothing observed" is unchanged.
 */
final class NewerRecordFilesTest {
  private static final String NEWER_LEDGER =
      "{\"schema\": 2, \"servers\": {\"a\": {\"codes\": [\"unroutable_server_request\"]},"
          + " \"b\": {\"codes\": [\"unroutable_server_request\"]}}, \"shape\": \"new\"}";

  @TempDir Path dir;

  private CliRun run(String... args) {
    return CliRun.run(dir, "", Map.of("HOME", dir.resolve("home").toString()), args);
  }

  private Path records() throws Exception {
    return Files.createDirectories(dir.resolve("records"));
  }

  @Test
  void aClearOfANewerLedgerSaysSoAndLeavesItByteForByte() throws Exception {
    Path ledger = records().resolve("observed-hazards.json");
    Files.writeString(ledger, NEWER_LEDGER, StandardCharsets.UTF_8);
    byte[] before = Files.readAllBytes(ledger);

    CliRun clear = run("hazards", "clear", "a", "--force", "--records-dir", records().toString());
    assertThat(clear.exitCode()).isEqualTo(1);
    assertThat(clear.stdout()).isEmpty();
    assertThat(clear.stderr())
        .isEqualTo(
            "kcshare: " + ledger + " was written by a newer version (schema 2); left unchanged\n");
    assertThat(Files.readAllBytes(ledger)).isEqualTo(before);

    // Still read as nothing observed, and kcshare records says why it is left alone.
    CliRun list = run("hazards", "list", "--json", "--records-dir", records().toString());
    assertThat(list.exitCode()).isZero();
    assertThat(list.stdout()).isEqualTo("{}\n");
    CliRun shown = run("records", "--records-dir", records().toString());
    assertThat(shown.stdout())
        .contains(
            "Hazard ledger (observed-hazards.json): read as empty: it was written by a newer"
                + " version (schema 2); kcshare leaves it unchanged");
  }

  @Test
  void aLedgerThisVersionDoesNotUnderstandIsLeftAloneToo() throws Exception {
    Path ledger = records().resolve("observed-hazards.json");
    for (String content :
        new String[] {
          "{\"schema\": \"1\", \"servers\": {}}",
          "{\"servers\": {}}",
          "{\"schema\": 1, \"servers\": [\"a\"]}"
        }) {
      Files.writeString(ledger, content, StandardCharsets.UTF_8);
      CliRun clear = run("hazards", "clear", "a", "--force", "--records-dir", records().toString());
      assertThat(clear.exitCode()).as(content).isEqualTo(1);
      assertThat(clear.stderr())
          .as(content)
          .startsWith("kcshare: " + ledger + " is not a ledger this version understands (")
          .endsWith("); left unchanged\n");
      assertThat(Files.readString(ledger)).isEqualTo(content);
    }
  }

  @Test
  void anEmbeddedFlushReportsFailureAndKeepsTheEvidenceLive() throws Exception {
    Path ledger = records().resolve("observed-hazards.json");
    Files.writeString(ledger, NEWER_LEDGER, StandardCharsets.UTF_8);
    byte[] before = Files.readAllBytes(ledger);
    LedgerStore store = new LedgerStore(ledger, () -> 5.0);
    assertThat(store.record("c", HazardCodes.UNROUTABLE_SERVER_REQUEST, "id")).isTrue();
    assertThat(store.flush()).isFalse();
    assertThat(store.flush()).isFalse();
    assertThat(Files.readAllBytes(ledger)).isEqualTo(before);
    assertThat(store.ledger().codesForName("c"))
        .containsExactly(HazardCodes.UNROUTABLE_SERVER_REQUEST);
    assertThat(store.ledger().isDirty()).isTrue();
    // Once the file is gone (the newer version removed it), the next flush writes everything.
    Files.delete(ledger);
    assertThat(store.flush()).isTrue();
    assertThat(LedgerStore.read(ledger).servers()).containsOnlyKeys("c");
  }

  @Test
  void aCacheThisVersionDoesNotUnderstandStopsAPassBeforeItSpawnsAnything() throws Exception {
    Path cache = records().resolve("shareability-verdicts.json");
    String content = "{\"entries\": [{\"name\": \"s\"}], \"applied\": [\"s\"]}";
    Files.writeString(cache, content, StandardCharsets.UTF_8);
    Path marker = dir.resolve("spawned");
    Path script = dir.resolve("server.sh");
    Files.writeString(script, "#!/bin/sh\ntouch " + marker + "\n", StandardCharsets.UTF_8);
    script.toFile().setExecutable(true);
    Path config = dir.resolve("cfg.json");
    Files.writeString(
        config,
        "{\"mcpServers\": {\"s\": {\"command\": \"" + script + "\"}}}",
        StandardCharsets.UTF_8);

    CliRun measure =
        run(
            "measure",
            "--all",
            "--config",
            config.toString(),
            "--records-dir",
            records().toString());
    assertThat(measure.exitCode()).isEqualTo(1);
    assertThat(measure.stderr())
        .isEqualTo(
            "kcshare: "
                + cache
                + " is not a verdict cache this version understands (entries is array, not an"
                + " object); left unchanged\n");
    assertThat(Files.readString(cache)).isEqualTo(content);
    assertThat(marker).doesNotExist();
  }
}
