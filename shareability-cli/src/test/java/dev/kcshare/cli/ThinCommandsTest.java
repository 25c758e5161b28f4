package dev.kcshare.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * {@code kcshare assess}, {@code config}, {@code identity} and {@code cost} get the host's servers
 * and their verdicts through the embedding facade, as an embedder does: they load no config and
 * build no verdict themselves.
 */
class ThinCommandsTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kcshare");

  private static ArchRule goThroughTheFacade(Class<?>... commands) {
    String[] names = new String[commands.length];
    for (int i = 0; i < commands.length; i++) {
      names[i] = commands[i].getName();
    }
    return noClasses()
        .that()
        .haveNameMatching("(" + String.join("|", names).replace(".", "\\.") + ")(\\$.*)?")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.kcshare.host.config.HostConfigLoader")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.kcshare.host.report.VerdictReport")
        .because("the commands call the same API an embedder calls");
  }

  @Test
  void theServerCommandsLoadNoConfigAndBuildNoVerdictThemselves() {
    goThroughTheFacade(
            AssessCommand.class, ConfigCommand.class, IdentityCommand.class, CostCommand.class)
        .check(MAIN);
  }

  @Test
  void theRuleReportsACommandThatLoadsItsOwnConfig() {
    // ConfigOptions still offers the direct load the other commands use: the rule must see it.
    assertThat(goThroughTheFacade(ConfigOptions.class).evaluate(MAIN).hasViolation()).isTrue();
  }
}
