package dev.kcshare.host;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The layers of the CLI module: the library packages ({@code dev.kcshare.host..}) and the embedding
 * facade ({@code dev.kcshare.embed}) know nothing of the command layer ({@code dev.kcshare.cli..}),
 * of picocli or of a logging backend; only the command layer's logging setup touches logback.
 */
class LayeringTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kcshare");

  private static ArchRule librariesStayBelowTheCommands(String... libraryPackages) {
    return noClasses()
        .that()
        .resideInAnyPackage(libraryPackages)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.kcshare.cli..", "picocli..", "ch.qos.logback..")
        .because("library packages are used by the commands and by embedders, never the reverse");
  }

  @Test
  void libraryPackagesAndTheFacadeDoNotKnowTheCommandLayer() {
    librariesStayBelowTheCommands("dev.kcshare.host..", "dev.kcshare.embed..").check(MAIN);
  }

  @Test
  void onlyTheCommandLayersLoggingSetupTouchesLogback() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.kcshare.cli.log..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("ch.qos.logback..")
        .check(MAIN);
  }

  @Test
  void theRuleReportsACommandClassThatWouldBreakIt() {
    // The command layer does depend on picocli and on the library packages: applied to it, the
    // same rule must report violations, or it could not catch a library that did.
    assertThat(librariesStayBelowTheCommands("dev.kcshare.cli").evaluate(MAIN).hasViolation())
        .isTrue();
  }
}
