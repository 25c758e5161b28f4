package dev.kcshare.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SkippedFileWarningsTest {
  private static final SkippedFileWarnings.Skipped BROKEN =
      new SkippedFileWarnings.Skipped("/h/.cursor/mcp.json", "10-1-a", List.of("w1", "w2"));

  @Test
  void aQuietRunWarnsOncePerStateOfTheFile() {
    SkippedFileWarnings first = SkippedFileWarnings.decide(Map.of(), List.of(BROKEN), true);
    assertThat(first.shown()).containsExactly("w1", "w2");
    assertThat(first.remembered()).containsExactly(Map.entry("/h/.cursor/mcp.json", "10-1-a"));
    assertThat(first.changes(Map.of())).isTrue();

    SkippedFileWarnings again =
        SkippedFileWarnings.decide(first.remembered(), List.of(BROKEN), true);
    assertThat(again.shown()).isEmpty();
    assertThat(again.changes(first.remembered())).isFalse();

    // The file changed (and is still broken): warned again.
    SkippedFileWarnings.Skipped edited =
        new SkippedFileWarnings.Skipped("/h/.cursor/mcp.json", "11-2-a", List.of("w1"));
    assertThat(SkippedFileWarnings.decide(again.remembered(), List.of(edited), true).shown())
        .containsExactly("w1");
  }

  @Test
  void aFixedFileIsForgottenSoItsNextBreakWarnsAgain() {
    Map<String, String> remembered =
        SkippedFileWarnings.decide(Map.of(), List.of(BROKEN), true).remembered();
    SkippedFileWarnings fixed = SkippedFileWarnings.decide(remembered, List.of(), true);
    assertThat(fixed.shown()).isEmpty();
    assertThat(fixed.remembered()).isEmpty();
    assertThat(fixed.changes(remembered)).isTrue();
    assertThat(SkippedFileWarnings.decide(fixed.remembered(), List.of(BROKEN), true).shown())
        .containsExactly("w1", "w2");
  }

  @Test
  void aRunThatIsNotQuietAlwaysWarns() {
    Map<String, String> remembered =
        SkippedFileWarnings.decide(Map.of(), List.of(BROKEN), true).remembered();
    assertThat(SkippedFileWarnings.decide(remembered, List.of(BROKEN), false).shown())
        .containsExactly("w1", "w2");
  }
}
