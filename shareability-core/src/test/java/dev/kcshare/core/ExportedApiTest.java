package dev.kcshare.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The core's API is its exported packages: every public signature there uses only the JDK and the
 * exported packages (so a consumer on the module path can use all of it). The {@code .internal}
 * companions and {@code dev.kcshare.core.text} are the CLI's only. The list of types an embedder
 * sees is checked in the CLI module, which sees both modules.
 */
class ExportedApiTest {
  private static final Set<String> CORE_EXPORTS =
      Set.of(
          "dev.kcshare.core.verdict",
          "dev.kcshare.core.handshake",
          "dev.kcshare.core.records",
          "dev.kcshare.core.policy",
          "dev.kcshare.core.cost",
          "dev.kcshare.core.json");

  /**
   * What only the command line uses: each exported package's {@code .internal} companion, and the
   * text helpers. Exported to {@code dev.kcshare.cli} alone.
   */
  private static final Set<String> CLI_ONLY =
      Set.of(
          "dev.kcshare.core.verdict.internal",
          "dev.kcshare.core.handshake.internal",
          "dev.kcshare.core.records.internal",
          "dev.kcshare.core.policy.internal",
          "dev.kcshare.core.cost.internal",
          "dev.kcshare.core.json.internal",
          "dev.kcshare.core.text");

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kcshare");

  private static ModuleDescriptor descriptor() throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("target", "classes", "module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  private static Set<String> unqualifiedExports(ModuleDescriptor d) {
    return d.exports().stream()
        .filter(e -> !e.isQualified())
        .map(ModuleDescriptor.Exports::source)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void theCoreModuleExportsItsApiPackagesAndTheCommandLinesOnlyToTheCli() throws IOException {
    ModuleDescriptor core = descriptor();
    assertThat(core.name()).isEqualTo("dev.kcshare.core");
    assertThat(unqualifiedExports(core)).isEqualTo(CORE_EXPORTS);
    assertThat(core.exports())
        .filteredOn(ModuleDescriptor.Exports::isQualified)
        .allSatisfy(e -> assertThat(e.targets()).containsExactly("dev.kcshare.cli"))
        .extracting(ModuleDescriptor.Exports::source)
        .containsExactlyInAnyOrderElementsOf(CLI_ONLY);
    assertThat(core.requires())
        .filteredOn(r -> !r.name().equals("java.base"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.name()).isEqualTo("org.jspecify");
              assertThat(r.modifiers()).containsExactly(ModuleDescriptor.Requires.Modifier.STATIC);
            });
  }

  private static boolean allowed(JavaClass type) {
    JavaClass base = type;
    while (base.isArray()) {
      base = base.getComponentType();
    }
    if (base.isPrimitive()) {
      return true;
    }
    String pkg = base.getPackageName();
    return pkg.startsWith("java.")
        || CORE_EXPORTS.contains(pkg)
        || pkg.equals("org.jspecify.annotations");
  }

  private static boolean visible(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }

  /** Every type a public or protected member of a public class of {@code pkg} names. */
  static List<String> foreignTypesInTheApiOf(String pkg) {
    List<String> out = new ArrayList<>();
    for (JavaClass c : MAIN) {
      if (!c.getPackageName().equals(pkg) || !isApi(c)) {
        continue;
      }
      List<JavaType> named = new ArrayList<>();
      c.getRawSuperclass().ifPresent(named::add);
      named.addAll(c.getInterfaces());
      for (JavaField f : c.getFields()) {
        if (visible(f.getModifiers())) {
          named.add(f.getType());
        }
      }
      for (JavaCodeUnit u : c.getCodeUnits()) {
        if (!visible(u.getModifiers()) || u.getName().equals("<clinit>")) {
          continue;
        }
        named.add(u.getReturnType());
        named.addAll(u.getParameterTypes());
        named.addAll(u.getThrowsClause().getTypes());
      }
      for (JavaType t : named) {
        for (JavaClass raw : t.getAllInvolvedRawTypes()) {
          if (!allowed(raw)) {
            out.add(c.getSimpleName() + " -> " + raw.getName());
          }
        }
      }
    }
    return out;
  }

  /** A public class reachable by name: public and, when nested, in public classes only. */
  private static boolean isApi(JavaClass c) {
    for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
      if (!k.getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return !c.isAnonymousClass() && !c.isLocalClass();
  }

  @Test
  void theExportedPackagesNameOnlyExportedTypes() {
    for (String pkg : CORE_EXPORTS) {
      assertThat(MAIN.stream().filter(c -> c.getPackageName().equals(pkg)))
          .as("%s was imported", pkg)
          .isNotEmpty();
      assertThat(foreignTypesInTheApiOf(pkg)).as(pkg).isEmpty();
    }
  }
}
