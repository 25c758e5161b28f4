package dev.kcshare.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.testing.TestJson;
import dev.kcshare.core.verdict.internal.EvidenceInput;
import dev.kcshare.core.verdict.internal.EvidenceJson;
import dev.kcshare.core.verdict.internal.VerdictJson;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden decision tables in {@code src/test/resources/assess-cases/}: each case is evidence in
 * the CLI form (including {@code identityKeys}) and the verdict JSON it must produce, member order
 * included.
 */
class AssessCasesTest {
  private static final String DIR = "assess-cases";

  static List<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String resource : TestJson.listResources(DIR)) {
      Object root = TestJson.parseResource(resource);
      List<?> list = root instanceof List<?> l ? l : List.of(root);
      for (int i = 0; i < list.size(); i++) {
        Map<?, ?> c = (Map<?, ?>) list.get(i);
        String file = resource.substring(DIR.length() + 1);
        out.add(Arguments.of(file + "#" + i + " " + c.get("description"), c));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void assessProducesTheExpectedVerdict(String label, Map<?, ?> testCase) {
    EvidenceInput input = EvidenceJson.fromJson(testCase.get("evidence"), "/evidence");
    Verdict verdict = Assessor.assess(input.evidence(), input.identityKeys());

    // Compact text keeps map order, so this also checks the member order of the JSON form.
    assertThat(JsonWriter.compact(VerdictJson.toJson(verdict)))
        .as(label)
        .isEqualTo(JsonWriter.compact(testCase.get("expected")));
    assertThat(VerdictJson.fromJson(testCase.get("expected"))).as(label).isEqualTo(verdict);
  }

  /** The tables must keep covering every tier and every emitted reason code. */
  @Test
  void casesCoverEveryTierAndEveryReasonCode() {
    Set<Strength> tiers = EnumSet.noneOf(Strength.class);
    Set<ReasonCode> codes = EnumSet.noneOf(ReasonCode.class);
    Set<String> descriptions = new HashSet<>();
    List<Arguments> all = cases();
    for (Arguments a : all) {
      Map<?, ?> c = (Map<?, ?>) a.get()[1];
      assertThat(descriptions.add((String) c.get("description")))
          .as("duplicate description %s", c.get("description"))
          .isTrue();
      Verdict expected = VerdictJson.fromJson(c.get("expected"));
      tiers.add(expected.strength());
      codes.addAll(expected.codes());
    }
    assertThat(tiers).containsExactlyInAnyOrder(Strength.values());
    assertThat(codes).containsExactlyInAnyOrder(ReasonCode.values());
    assertThat(all).hasSizeGreaterThanOrEqualTo(60);
  }
}
