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
import dev.kcshare.api.RecordsException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
 * What an embedder compiles against: the CLI jar exports only {@code dev.kcshare.embed} (the
 * facade) and {@code dev.kcshare.api} (its values) and requires the core transitively, so an
 * embedder sees the unqualified exports of both modules. The types there are exactly the list in
 * {@code exported-api.txt} (test resources, one type per line), and every public signature of every
 * one of them uses only the JDK, those exported packages and JSpecify's annotations (so an embedder
 * on the module path can use all of it). The core's command-line-only packages are exported to this
 * module alone (docs/embedding.md#what-is-exported). No type of the facade or its values is a
 * record or has a public constructor, {@link RecordsException} aside: results are interfaces,
 * inputs are built with factories, so either can gain a member without breaking a caller.
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

  private static final Path EXPECTED_TYPES =
      Path.of("src", "test", "resources", "dev", "kcshare", "embed", "exported-api.txt");

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
  void theCliModuleExportsTheFacadeAndTheApiValuesOnly() throws IOException {
    ModuleDescriptor cli = descriptor("dev.kcshare.cli");
    assertThat(cli.name()).isEqualTo("dev.kcshare.cli");
    assertThat(cli.exports())
        .extracting(ModuleDescriptor.Exports::source)
        .containsExactlyInAnyOrder("dev.kcshare.embed", "dev.kcshare.api");
    assertThat(cli.opens()).isEmpty();
    assertThat(unqualifiedExports(descriptor("dev.kcshare.core"))).isEqualTo(CORE_EXPORTS);
  }

  /** The packages an embedder can compile against: the unqualified exports of both modules. */
  private static Set<String> embedderPackages() {
    try {
      Set<String> out = new TreeSet<>(unqualifiedExports(descriptor("dev.kcshare.cli")));
      out.addAll(unqualifiedExports(descriptor("dev.kcshare.core")));
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final Set<String> EMBEDDER_PACKAGES = embedderPackages();

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
        || EMBEDDER_PACKAGES.contains(pkg)
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
      c.getSuperclass().ifPresent(named::add);
      named.addAll(c.getInterfaces());
      named.addAll(c.getTypeParameters());
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
        named.addAll(u.getTypeParameters());
      }
      for (JavaType t : named) {
        for (JavaClass raw : t.getAllInvolvedRawTypes()) {
          if (!allowed(raw)) {
            out.add(c.getName() + " -> " + raw.getName());
          }
        }
      }
    }
    return out;
  }

  /**
   * A class an embedder can name: public, and when nested, public or protected in such classes (a
   * protected one is reachable from a subclass).
   */
  private static boolean isApi(JavaClass c) {
    if (c.isAnonymousClass() || c.isLocalClass()) {
      return false;
    }
    for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
      boolean nested = k.getEnclosingClass().isPresent();
      if (!k.getModifiers().contains(JavaModifier.PUBLIC)
          && !(nested && k.getModifiers().contains(JavaModifier.PROTECTED))) {
        return false;
      }
    }
    return true;
  }

  /** Every type an embedder can compile against, by its canonical name, sorted. */
  static List<String> embedderTypes() {
    return MAIN.stream()
        .filter(c -> EMBEDDER_PACKAGES.contains(c.getPackageName()) && isApi(c))
        .map(c -> c.getName().replace('$', '.'))
        .sorted()
        .toList();
  }

  /** The lines to add to, and remove from, the expected list so that it matches {@code actual}. */
  static String differences(List<String> expected, List<String> actual) {
    StringBuilder out = new StringBuilder();
    for (String type : actual) {
      if (!expected.contains(type)) {
        out.append("\n  add:    ").append(type);
      }
    }
    for (String type : expected) {
      if (!actual.contains(type)) {
        out.append("\n  remove: ").append(type);
      }
    }
    return out.toString();
  }

  private static List<String> expectedTypes() throws IOException {
    return Files.readAllLines(EXPECTED_TYPES).stream()
        .map(String::strip)
        .filter(l -> !l.isEmpty() && !l.startsWith("#"))
        .toList();
  }

  @Test
  void anEmbedderSeesExactlyTheListedTypes() throws IOException {
    List<String> expected = expectedTypes();
    List<String> actual = embedderTypes();
    assertThat(expected).as("%s lists each type once", EXPECTED_TYPES).doesNotHaveDuplicates();
    String diff = differences(expected, actual);
    assertThat(diff)
        .as(
            "The types an embedder can compile against changed. If that is intended (a public type"
                + " of an exported package added or removed, or moved to a package exported to"
                + " dev.kcshare.cli only), change %s:%s",
            EXPECTED_TYPES, diff)
        .isEmpty();
  }

  @Test
  void theListComparisonNamesWhatToAddAndRemove() {
    assertThat(differences(List.of("a.B", "a.C"), List.of("a.C", "a.D")))
        .isEqualTo("\n  add:    a.D\n  remove: a.B");
    assertThat(differences(List.of("a.B"), List.of("a.B"))).isEmpty();
  }

  @Test
  void theTypeListSeesNestedTypesAndLeavesOutTheQualifiedExports() {
    List<String> types = embedderTypes();
    assertThat(types)
        .contains("dev.kcshare.api.PassResult.Measured", "dev.kcshare.core.verdict.Verdict")
        .noneMatch(t -> t.startsWith("dev.kcshare.core.text."))
        .noneMatch(t -> t.startsWith("dev.kcshare.host."))
        .noneMatch(t -> t.contains(".host."));
  }

  @Test
  void theEmbeddingApiNamesOnlyExportedTypes() {
    assertThat(EMBEDDER_PACKAGES).contains("dev.kcshare.embed").containsAll(CORE_EXPORTS);
    for (String pkg : EMBEDDER_PACKAGES) {
      assertThat(MAIN.stream().filter(c -> c.getPackageName().equals(pkg)))
          .as("%s was imported", pkg)
          .isNotEmpty();
      assertThat(foreignTypesInTheApiOf(pkg))
          .as("public signatures in %s that name a type an embedder cannot see", pkg)
          .isEmpty();
    }
  }

  /**
   * The exported types an embedder may construct with {@code new}: the one checked exception, which
   * the library throws from its own packages; a class, so a later field comes with a further
   * constructor and this one keeps compiling.
   */
  private static final Set<String> CONSTRUCTIBLE = Set.of("dev.kcshare.api.RecordsException");

  /**
   * Every type of {@code pkg} an embedder could construct or take apart by its components: a public
   * record (its canonical constructor is as visible as the record, and it has record patterns), or
   * a public or protected constructor of any other type, beyond {@link #CONSTRUCTIBLE}.
   */
  static List<String> constructibleTypesIn(String pkg) {
    List<String> out = new ArrayList<>();
    for (JavaClass c : MAIN) {
      if (!c.getPackageName().equals(pkg) || !isApi(c)) {
        continue;
      }
      Class<?> type = c.reflect();
      String name = type.getCanonicalName();
      if (type.isRecord()) {
        out.add(name + " is a record");
      } else if (!CONSTRUCTIBLE.contains(name)) {
        for (java.lang.reflect.Constructor<?> k : type.getDeclaredConstructors()) {
          if (java.lang.reflect.Modifier.isPublic(k.getModifiers())
              || java.lang.reflect.Modifier.isProtected(k.getModifiers())) {
            out.add(name + " has the constructor " + k);
          }
        }
      }
    }
    return out;
  }

  @Test
  void noExportedValueHasAConstructorAnEmbedderWouldCall() {
    // results are interfaces kcshare implements, inputs classes with factories and copies: either
    // can gain a member without breaking a caller that builds or reads it
    for (String pkg : List.of("dev.kcshare.api", "dev.kcshare.embed")) {
      assertThat(constructibleTypesIn(pkg))
          .as(
              "types of %s an embedder could construct (results: interfaces; inputs: factories)",
              pkg)
          .isEmpty();
    }
  }

  @Test
  void theConstructorCheckReportsARecordAndAPublicConstructor() {
    // the core's values are records; its JSON input exception has public constructors
    assertThat(constructibleTypesIn("dev.kcshare.core.cost"))
        .anySatisfy(m -> assertThat(m).endsWith(" is a record"));
    assertThat(constructibleTypesIn("dev.kcshare.core.json.internal"))
        .anySatisfy(m -> assertThat(m).contains(" has the constructor public "));
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
  void theCheckReportsATypeOfAPackageExportedToThisModuleOnly() {
    // back-off is the command line's: its signatures name the attempts memory, which an embedder
    // cannot see; the same check over an exported package must report such a type
    assertThat(foreignTypesInTheApiOf("dev.kcshare.core.policy.internal"))
        .contains(
            "dev.kcshare.core.policy.internal.Backoff -> dev.kcshare.core.records.internal.FailedAttempts");
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
