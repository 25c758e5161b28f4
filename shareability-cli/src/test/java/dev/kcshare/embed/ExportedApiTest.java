package dev.kcshare.embed;

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
 * The CLI jar's API is the embedding package alone: its module exports only {@code
 * dev.kcshare.embed}, and every public signature there uses only the JDK, the core's exported
 * packages and the embedding package itself (so an embedder on the module path can use all of it).
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

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kcshare");

  private static ModuleDescriptor descriptor(String module) throws IOException {
    Path file = Path.of("target", "classes", "module-info.class");
    if (module.equals("dev.kcshare.core")) {
      file = Path.of("..", "shareability-core", "target", "classes", "module-info.class");
    }
    try (InputStream in = Files.newInputStream(file)) {
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
  void theCliModuleExportsTheEmbeddingPackageOnly() throws IOException {
    ModuleDescriptor cli = descriptor("dev.kcshare.cli");
    assertThat(cli.name()).isEqualTo("dev.kcshare.cli");
    assertThat(cli.exports())
        .extracting(ModuleDescriptor.Exports::source)
        .containsExactly("dev.kcshare.embed");
    assertThat(cli.opens()).isEmpty();
    assertThat(unqualifiedExports(descriptor("dev.kcshare.core"))).isEqualTo(CORE_EXPORTS);
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
        || pkg.equals("dev.kcshare.embed")
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
  void theEmbeddingApiNamesOnlyExportedTypes() {
    assertThat(MAIN.stream().filter(c -> c.getPackageName().equals("dev.kcshare.embed")))
        .as("the embedding package was imported")
        .isNotEmpty();
    assertThat(foreignTypesInTheApiOf("dev.kcshare.embed")).isEmpty();
  }

  /**
   * The checked exceptions the API may declare: {@link RecordsException} for every environment
   * problem, and the JDK's own for a wait that is interrupted or times out. A type variable is the
   * caller's own exception coming back (the gateway's config writer).
   */
  private static final Set<Class<?>> CHECKED_CONTRACT =
      Set.of(
          RecordsException.class,
          InterruptedException.class,
          java.util.concurrent.TimeoutException.class);

  /**
   * Every checked exception a public or protected member of a public class of {@code pkg} declares
   * beyond the contract.
   */
  static List<String> checkedExceptionsBeyondTheContractIn(String pkg) {
    List<String> out = new ArrayList<>();
    for (JavaClass c : MAIN) {
      if (!c.getPackageName().equals(pkg) || !isApi(c)) {
        continue;
      }
      Class<?> type = c.reflect();
      List<java.lang.reflect.Executable> members = new ArrayList<>();
      members.addAll(List.of(type.getDeclaredMethods()));
      members.addAll(List.of(type.getDeclaredConstructors()));
      for (java.lang.reflect.Executable m : members) {
        if (!java.lang.reflect.Modifier.isPublic(m.getModifiers())
            && !java.lang.reflect.Modifier.isProtected(m.getModifiers())) {
          continue;
        }
        for (java.lang.reflect.Type thrown : m.getGenericExceptionTypes()) {
          if (thrown instanceof Class<?> k
              && !RuntimeException.class.isAssignableFrom(k)
              && !Error.class.isAssignableFrom(k)
              && !CHECKED_CONTRACT.contains(k)) {
            out.add(c.getSimpleName() + "." + m.getName() + " throws " + k.getName());
          }
        }
      }
    }
    return out;
  }

  @Test
  void theEmbeddingApiThrowsNoCheckedExceptionBeyondItsContract() {
    assertThat(checkedExceptionsBeyondTheContractIn("dev.kcshare.embed")).isEmpty();
    assertThat(RecordsException.class.getSuperclass()).isEqualTo(IOException.class);
  }

  @Test
  void theExceptionCheckReportsALibraryPackageThatWouldBreakIt() {
    // the records package declares IOException and FileProblem: the check must see them
    assertThat(checkedExceptionsBeyondTheContractIn("dev.kcshare.host.records"))
        .anySatisfy(m -> assertThat(m).endsWith("throws java.io.IOException"));
  }

  @Test
  void theCheckReportsALibraryPackageThatWouldBreakIt() {
    // the evaluation package's API hands out types of other unexported packages: the same check
    // must report them, or it could not catch the facade doing so
    assertThat(foreignTypesInTheApiOf("dev.kcshare.host.evaluation")).isNotEmpty();
  }
}
