package dev.kcshare.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * Every command reaches the host's servers, their verdicts, the passes and the record files through
 * the embedding facade, as an embedder does: no class of {@code dev.kcshare.cli} loads the config,
 * builds a verdict, runs a pass or opens a record file's store itself.
 */
class ThinCommandsTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kcshare");

  /** The library types that carry a use case; the facade is their one caller above the library. */
  private static final String[] USE_CASES = {
    "dev.kcshare.host.config.HostConfigLoader",
    "dev.kcshare.host.report.VerdictReport",
    "dev.kcshare.host.evaluation.EvaluationRunner",
    "dev.kcshare.host.records.LedgerStore",
    "dev.kcshare.host.records.CacheStore",
    "dev.kcshare.host.records.AttemptStore",
    "dev.kcshare.host.prober.StdioProber",
  };

  private static ArchRule goThroughTheFacade(String classes) {
    return noClasses()
        .that()
        .haveNameMatching(classes)
        .should()
        .dependOnClassesThat()
        .haveNameMatching("(" + String.join("|", USE_CASES).replace(".", "\\.") + ")(\\$.*)?")
        .because("the commands call the same API an embedder calls");
  }

  @Test
  void noCommandLoadsConfigBuildsVerdictsRunsPassesOrOpensRecordsItself() {
    goThroughTheFacade("dev\\.kcshare\\.cli\\..*").check(MAIN);
  }

  @Test
  void theRuleReportsAClassThatGoesAroundTheFacade() {
    // The facade itself uses every one of them: the rule must see that.
    assertThat(
            goThroughTheFacade("dev\\.kcshare\\.embed\\.Shareability")
                .evaluate(MAIN)
                .hasViolation())
        .isTrue();
  }
}
