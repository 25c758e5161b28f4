package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON Schemas shipped in docs/schema are the contract of {@code kcshare assess --json} and
 * {@code kcshare cost --json}: real output of the packaged launcher, over the shipped evidence (one
 * verdict of every strength) and the example fleet measured for real, validates against them; an
 * undocumented member does not.
 */
final class SchemaContractIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> STRENGTHS =
      List.of("unknown", "no_objection", "measured", "declared", "disqualified", "refuted");

  @TempDir Path dir;

  private static Schema schema(String name) throws Exception {
    String text =
        Files.readString(Kcshare.repo().resolve("docs/schema/" + name), StandardCharsets.UTF_8);
    return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
        .getSchema(text, InputFormat.JSON);
  }

  private static List<String> errors(Schema schema, String json) {
    return schema.validate(json, InputFormat.JSON).stream().map(Error::toString).toList();
  }

  private static Kcshare.Result ok(Kcshare.Result r) {
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    return r;
  }

  private Kcshare.Result kcshare(String... args) throws Exception {
    return Kcshare.run(Kcshare.repo(), Map.of("HOME", dir.resolve("home").toString()), "", args);
  }

  @Test
  void verdictsOfEveryStrengthMatchTheAssessSchema() throws Exception {
    String out = ok(kcshare("assess", "--evidence", "examples/evidence.json")).stdout();

    assertThat(errors(schema("assess-v1.schema.json"), out)).isEmpty();
    Set<String> strengths = new TreeSet<>();
    JSON.readTree(out).forEach(v -> strengths.add(v.get("strength").asText()));
    assertThat(strengths).containsExactlyInAnyOrderElementsOf(STRENGTHS);
  }

  @Test
  void theMeasuredExampleFleetMatchesBothSchemas() throws Exception {
    ItProcesses.assumeNode();
    String records = dir.resolve("records").toString();
    String[] fleet = {"--config", "examples/fleet.json", "--records-dir", records};
    ok(kcshare(concat(new String[] {"measure", "--all"}, fleet)));

    // The gateway observed a hazard on notes: its verdict is refuted.
    JsonNode before =
        JSON.readTree(
            ok(kcshare(concat(new String[] {"assess", "--all", "--json"}, fleet))).stdout());
    String identity = null;
    for (JsonNode v : before) {
      if (v.get("name").asText().equals("notes")) {
        identity = v.get("identity").asText();
      }
    }
    assertThat(identity).isNotNull();
    Files.writeString(
        dir.resolve("records/observed-hazards.json"),
        "{\"schema\": 1, \"servers\": {\"notes\": {\"identities\": {"
            + JSON.writeValueAsString(identity)
            + ": {\"codes\": [\"unroutable_server_request\"], \"count\": 1,"
            + " \"lastSeen\": 1712000000.5}}}}}\n",
        StandardCharsets.UTF_8);

    String assess = ok(kcshare(concat(new String[] {"assess", "--all", "--json"}, fleet))).stdout();
    String cost =
        ok(kcshare(concat(new String[] {"cost", "--json", "--sessions", "4"}, fleet))).stdout();

    assertThat(errors(schema("assess-v1.schema.json"), assess)).isEmpty();
    assertThat(errors(schema("cost-v1.schema.json"), cost)).isEmpty();
    Set<String> members = new TreeSet<>();
    Set<String> strengths = new TreeSet<>();
    for (JsonNode v : JSON.readTree(assess)) {
      v.fieldNames().forEachRemaining(members::add);
      strengths.add(v.get("strength").asText());
    }
    // The optional members occur, so the schema was checked against them too.
    assertThat(members).contains("sources", "identity", "measuredAt", "lastAttempt", "sessionCost");
    assertThat(strengths).containsExactlyInAnyOrderElementsOf(STRENGTHS);
  }

  @Test
  void anUndocumentedMemberFailsTheContract() throws Exception {
    String assess = ok(kcshare("assess", "--evidence", "examples/evidence.json")).stdout();
    ArrayNode verdicts = (ArrayNode) JSON.readTree(assess);
    ((ObjectNode) verdicts.get(0)).put("undocumented", true);
    assertThat(errors(schema("assess-v1.schema.json"), JSON.writeValueAsString(verdicts)))
        .isNotEmpty();

    String records = dir.resolve("records").toString();
    String cost =
        ok(kcshare("cost", "--json", "--config", "examples/fleet.json", "--records-dir", records))
            .stdout();
    assertThat(errors(schema("cost-v1.schema.json"), cost)).isEmpty();
    ObjectNode top = (ObjectNode) JSON.readTree(cost);
    ((ObjectNode) top.get("totals")).put("undocumented", 1);
    assertThat(errors(schema("cost-v1.schema.json"), JSON.writeValueAsString(top))).isNotEmpty();
  }

  @Test
  void theSchemasAreThemselvesDraft202012WithAVersionedId() throws Exception {
    for (String name : List.of("assess-v1.schema.json", "cost-v1.schema.json")) {
      JsonNode s = JSON.readTree(Kcshare.repo().resolve("docs/schema/" + name).toFile());
      assertThat(s.get("$schema").asText())
          .isEqualTo("https://json-schema.org/draft/2020-12/schema");
      assertThat(s.get("$id").asText()).endsWith("/v1");
    }
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
