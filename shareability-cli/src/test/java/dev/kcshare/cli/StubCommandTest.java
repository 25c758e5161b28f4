package dev.kcshare.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.CacheRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class StubCommandTest {
  @TempDir Path root;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  private static Map<String, Object> skip(String name, String reason) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("reason", reason);
    return m;
  }

  /** Rows for p (declared), q (measured), e (declared, OAUTH_TOKEN), h (measured, then refuted). */
  private OperatorFixture measured() {
    OperatorFixture f = OperatorFixture.create(root);
    Map<String, CacheRow> rows = new LinkedHashMap<>();
    rows.put("p", f.declared("p"));
    rows.put("q", f.measured("q"));
    rows.put("e", f.declared("e"));
    rows.put("h", f.measured("h"));
    f.cache(rows, List.of());
    f.hazard("h", "unroutable_server_request");
    return f;
  }

  /** The fixture's section with other gateway members. */
  private static String config(String gatewayMembers) {
    return "{\n"
        + "    \"agent\": {\"model\": \"m\"},\n"
        + "    \"mcp_gateway\": {\n"
        + gatewayMembers
        + "        \"stub_servers\": [\"p\"]\n"
        + "    }\n"
        + "}\n";
  }

  private static Map<String, Object> overrides(OperatorFixture f) {
    Object section = object(OperatorFixture.parse(f.configText())).get("mcp_gateway");
    Object o = object(section).get("stub_overrides");
    return o == null ? Map.of() : object(o);
  }

  @Test
  void sharingOffAsksForAStubRecommendation() {
    OperatorFixture f = measured();
    CliRun r = f.run("stub", "--resolve-eligibility", "--json", "q", "r", "s", "q", "h", "p", "e");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    Map<String, Object> out = object(OperatorFixture.parse(r.stdout()));
    assertThat(out)
        .containsEntry("stubbed", List.of("q", "p", "e"))
        .containsEntry(
            "skipped",
            List.of(
                skip("r", "cannot_stub"),
                skip("s", "evidence_insufficient"),
                skip("h", "evidence_insufficient")))
        .containsEntry("sharingOn", false)
        .containsEntry("written", true);
    // q loses the operator's false because the operator asked for it by name.
    assertThat(overrides(f))
        .containsExactly(Map.entry("e", true), Map.entry("p", true), Map.entry("q", true));
  }

  @Test
  void sharingOnAsksForAShareRecommendationAndEnvTheGatewayWouldWithhold() {
    OperatorFixture f = measured();
    // forward_declared_env absent: taken as off, so any declared env blocks a shared backend.
    f.writeConfig(config("        \"enabled\": true,\n"));
    CliRun r = f.run("stub", "--resolve-eligibility", "--json", "p", "q", "e", "h");
    Map<String, Object> out = object(OperatorFixture.parse(r.stdout()));
    assertThat(out)
        .containsEntry("stubbed", List.of("p"))
        .containsEntry(
            "skipped",
            List.of(
                skip("q", "evidence_insufficient"),
                skip("e", "pooling_blocked_by_env"),
                skip("h", "evidence_insufficient")))
        .containsEntry("sharingOn", true);

    // Forwarding on: OAUTH_TOKEN has a rotating-secret prefix, still withheld.
    f.writeConfig(config("        \"enabled\": true,\n        \"forward_declared_env\": true,\n"));
    out =
        object(
            OperatorFixture.parse(f.run("stub", "--resolve-eligibility", "--json", "e").stdout()));
    assertThat(out).containsEntry("skipped", List.of(skip("e", "pooling_blocked_by_env")));

    // ... unless it is an identity key: then it is forwarded and its verdict shares.
    f.writeConfig(
        config(
            "        \"enabled\": true,\n        \"forward_declared_env\": true,\n"
                + "        \"pool_identity_env\": [\"OAUTH_TOKEN\"],\n"));
    out =
        object(
            OperatorFixture.parse(f.run("stub", "--resolve-eligibility", "--json", "e").stdout()));
    assertThat(out).containsEntry("stubbed", List.of("e")).containsEntry("skipped", List.of());
    assertThat(overrides(f)).containsExactly(Map.entry("e", true));
  }

  @Test
  void nothingEligibleLeavesTheFileUntouched() throws Exception {
    OperatorFixture f = measured();
    byte[] before = Files.readAllBytes(f.config);
    FileTime mtime = FileTime.fromMillis(1_600_000_000_000L);
    Files.setLastModifiedTime(f.config, mtime);
    CliRun r = f.run("stub", "--resolve-eligibility", "r", "s", "h");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .isEqualTo(
            "skipped r: cannot_stub (not a stdio server, or the host profile keeps it unstubbed)\n"
                + "skipped s: evidence_insufficient (its verdict does not recommend a stub)\n"
                + "skipped h: evidence_insufficient (its verdict does not recommend a stub)\n"
                + "Sharing is off, so eligibility asked for a verdict that recommends a stub.\n"
                + "Nothing eligible: "
                + f.config
                + " not changed.\n");
    assertThat(Files.readAllBytes(f.config)).isEqualTo(before);
    assertThat(Files.getLastModifiedTime(f.config)).isEqualTo(mtime);
    assertThat(f.config.resolveSibling("config.json.bak")).doesNotExist();
  }

  @Test
  void withoutTheFlagExactlyTheGivenNamesAreWritten() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    String before = f.configText();
    CliRun r = f.run("stub", "x", "s", "x");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout())
        .isEqualTo(
            "stubbed x\nstubbed s\nWrote stub_overrides in "
                + f.config
                + " (previous version in "
                + f.config
                + ".bak).\n");
    String oldValue = "{\n            \"q\": false\n        }";
    String newValue =
        "{\n            \"q\": false,\n            \"s\": true,\n            \"x\": true\n        }";
    int at = before.indexOf(oldValue);
    assertThat(f.configText())
        .isEqualTo(before.substring(0, at) + newValue + before.substring(at + oldValue.length()));
    assertThat(f.config.resolveSibling("config.json.bak")).hasContent(before);

    // Stubbing again changes nothing.
    String text = f.configText();
    CliRun again = f.run("stub", "--json", "s");
    assertThat(object(OperatorFixture.parse(again.stdout())))
        .containsEntry("stubbed", List.of("s"))
        .containsEntry("written", false);
    assertThat(f.configText()).isEqualTo(text);
  }

  @Test
  void unstubWritesFalseWithoutConsultingEvidence() {
    OperatorFixture f = measured();
    CliRun r = f.runPlain("unstub", "--json", "p", "s");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(object(OperatorFixture.parse(r.stdout())))
        .containsEntry("unstubbed", List.of("p", "s"))
        .containsEntry("written", true);
    assertThat(overrides(f))
        .containsExactly(Map.entry("p", false), Map.entry("q", false), Map.entry("s", false));
    CliRun human = f.runPlain("unstub", "q");
    assertThat(human.stdout())
        .isEqualTo("unstubbed q\nAlready unstubbed: " + f.config + " not changed.\n");
  }

  @Test
  void hostileNamesAreEscapedInHumanOutputAndQuotedInTheFile() {
    OperatorFixture f = OperatorFixture.create(root);
    String name = "evil\n\"}\u001b[31m";
    f.kiroServers("\"evil\\n\\\"}\\u001b[31m\": {\"command\": \"npx\"}");
    CliRun r = f.run("stub", name);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).startsWith("stubbed evil\\n\\\"}\\x1b[31m\n");
    assertThat(overrides(f)).containsEntry(name, true);
  }

  @Test
  void concurrentWritersEachReReadUnderTheLockSoNoNameIsLost() throws Exception {
    OperatorFixture f = OperatorFixture.create(root);
    int n = 6;
    List<String> entries = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      entries.add("\"t" + i + "\": {\"command\": \"npx\"}");
    }
    f.kiroServers(String.join(", ", entries));
    List<Thread> threads = new java.util.ArrayList<>();
    java.util.concurrent.ConcurrentLinkedQueue<Integer> codes =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    for (int i = 0; i < n; i++) {
      String name = "t" + i;
      threads.add(
          new Thread(
              () ->
                  codes.add(
                      name.equals("t0")
                          ? f.runPlain("unstub", name).exitCode()
                          : f.run("stub", name).exitCode())));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(codes).hasSize(n).containsOnly(0);
    Map<String, Object> o = overrides(f);
    assertThat(o).containsEntry("t0", false).containsEntry("q", false);
    for (int i = 1; i < n; i++) {
      assertThat(o).containsEntry("t" + i, true);
    }
  }

  @Test
  void anEmptyNameIsBadInput() {
    OperatorFixture f = OperatorFixture.create(root);
    String before = f.configText();
    assertThat(f.run("stub", "").exitCode()).isEqualTo(2);
    assertThat(f.runPlain("unstub", "a", "").exitCode()).isEqualTo(2);
    assertThat(f.configText()).isEqualTo(before);
  }

  @Test
  void aMissingKiroCrewConfigurationIsCreated() {
    OperatorFixture f = OperatorFixture.create(root);
    f.config.toFile().delete();
    CliRun r = f.run("stub", "x");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(f.configText())
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\n      \"x\": true\n    }\n  }\n}\n");
    // It says what it created, and claims no previous version.
    assertThat(r.stdout())
        .contains(
            "Created " + f.config + " with stub_overrides: there was no Kiro Crew configuration.\n")
        .doesNotContain(".bak");
    assertThat(f.config.resolveSibling("config.json.bak")).doesNotExist();
  }
}
