package dev.kcshare.host;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.HostConfigLoader;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The layers docs/design.md#layers describes, bottom up: the core ({@code dev.kcshare.core..}), the
 * API's values ({@code dev.kcshare.api}, which import only the core, and {@code
 * dev.kcshare.api.internal}, the records behind its result interfaces, which import only those and
 * the core: the API never names them), the library packages ({@code dev.kcshare.host..}, which
 * never import the facade), the facade ({@code dev.kcshare.embed}) and the commands ({@code
 * dev.kcshare.cli..}) on top. No package takes part in a cycle, the core's companion packages
 * included; only the command layer's logging setup touches logback. Each rule is also applied to
 * classes that break it, so it is known to be able to fail.
 */
class LayeringTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kcshare");

  /** Two test classes whose packages import each other. */
  private static final JavaClasses A_CYCLE =
      new ClassFileImporter().importPackages("dev.kcshare.archfixture");

  private static ArchRule librariesStayBelowTheCommands(String... libraryPackages) {
    return noClasses()
        .that()
        .resideInAnyPackage(libraryPackages)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.kcshare.cli..", "picocli..", "ch.qos.logback..")
        .because("library packages are used by the commands and by embedders, never the reverse");
  }

  private static ArchRule doesNotUseTheFacade(String packages) {
    return noClasses()
        .that()
        .resideInAPackage(packages)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.kcshare.embed..")
        .because("the facade sits on the library; the library hands it values of dev.kcshare.api");
  }

  private static ArchRule usesOnlyTheCoreAndTheJdk(String packages) {
    return noClasses()
        .that()
        .resideInAPackage(packages)
        .should()
        .dependOnClassesThat()
        .resideOutsideOfPackages(
            "dev.kcshare.api..", "dev.kcshare.core..", "java..", "org.jspecify..")
        .because("the API's values sit below the library and import only the core");
  }

  private static ArchRule editsNoFileItself(String packages) {
    return noClasses()
        .that()
        .resideInAPackage(packages)
        .should()
        .callMethodWhere(
            JavaCall.Predicates.target(HasOwner.Predicates.With.owner(type(ConfigEditor.class)))
                .and(
                    JavaCall.Predicates.target(
                        HasName.Predicates.nameMatching("replace|withMemberAdded|readDocument"))))
        .because(
            "a gateway's or client's file is edited by the library's services (host.seeding),"
                + " which the commands and the facade both call");
  }

  private static ArchRule doesNotNameTheResultRecords(String packages) {
    return noClasses()
        .that()
        .resideInAPackage(packages)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.kcshare.api.internal..")
        .because(
            "the API declares its results as interfaces; the library and the facade construct the"
                + " records behind them");
  }

  private static ArchRule noPackageCycles() {
    return slices().matching("dev.kcshare.(**)").should().beFreeOfCycles();
  }

  @Test
  void libraryPackagesAndTheFacadeDoNotKnowTheCommandLayer() {
    librariesStayBelowTheCommands("dev.kcshare.host..", "dev.kcshare.embed..", "dev.kcshare.api..")
        .check(MAIN);
  }

  @Test
  void theLibraryNeverImportsTheFacade() {
    doesNotUseTheFacade("dev.kcshare.host..").check(MAIN);
  }

  @Test
  void theApiValuesImportOnlyTheCore() {
    usesOnlyTheCoreAndTheJdk("dev.kcshare.api..").check(MAIN);
  }

  @Test
  void theApiValuesNeverNameTheRecordsBehindThem() {
    doesNotNameTheResultRecords("dev.kcshare.api").check(MAIN);
  }

  @Test
  void noPackageIsPartOfACycle() {
    noPackageCycles().check(MAIN);
  }

  @Test
  void theCommandsEditNoConfigurationDocumentThemselves() {
    editsNoFileItself("dev.kcshare.cli..").check(MAIN);
  }

  @Test
  void theFacadeStaysAFrontOfWhatAnEmbedderNeeds() throws IOException {
    // docs/design.md#one-front-door: the use cases live in the library's services; the facade
    // checks arguments, resolves the records directory once and calls them.
    long publicMethods =
        Arrays.stream(Shareability.class.getDeclaredMethods())
            .filter(m -> Modifier.isPublic(m.getModifiers()))
            .count();
    assertThat(publicMethods).isLessThanOrEqualTo(23);
    Path source = Path.of("src/main/java/dev/kcshare/embed/Shareability.java");
    assertThat(Files.readAllLines(source)).hasSizeLessThanOrEqualTo(1000);
  }

  @Test
  void aClientFamilyIsHandedDownWithItsFormat() {
    // Discovery knows each file's client; only a file named with --config has its client looked
    // up, from the format its members were detected as, in the loader.
    noClasses()
        .that(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(HostConfigLoader.class)))
        .should()
        .callMethodWhere(
            JavaCall.Predicates.target(
                    HasOwner.Predicates.With.owner(
                        HasName.Predicates.name("dev.kcshare.host.config.ClientFamilies")))
                .and(JavaCall.Predicates.target(HasName.Predicates.name("of"))))
        .check(MAIN);
  }

  @Test
  void nothingIsJoinedByReflection() {
    // The layers meet through ordinary calls: no class looks another of kcshare's up by name
    // (the optional-parser check names third-party classes only, by string constants).
    noClasses()
        .that()
        .resideInAPackage("dev.kcshare..")
        .should()
        .callMethod(Class.class, "forName", String.class)
        .check(MAIN);
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
  void eachRuleReportsClassesThatWouldBreakIt() {
    // The command layer depends on picocli, on the library and on the facade, and the facade on
    // the library: applied to them, the rules must report violations, or they could not catch a
    // library package that did the same.
    assertThat(librariesStayBelowTheCommands("dev.kcshare.cli").evaluate(MAIN).hasViolation())
        .isTrue();
    assertThat(doesNotUseTheFacade("dev.kcshare.cli..").evaluate(MAIN).hasViolation()).isTrue();
    assertThat(usesOnlyTheCoreAndTheJdk("dev.kcshare.embed..").evaluate(MAIN).hasViolation())
        .isTrue();
    assertThat(noPackageCycles().evaluate(A_CYCLE).hasViolation()).isTrue();
    assertThat(editsNoFileItself("dev.kcshare.host.seeding..").evaluate(MAIN).hasViolation())
        .isTrue();
    assertThat(doesNotNameTheResultRecords("dev.kcshare.host..").evaluate(MAIN).hasViolation())
        .isTrue();
  }
}
