package dev.kcshare.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The core is a pure function of its arguments (docs/design.md#purity): no file, process, network,
 * environment, clock, thread or randomness access, and no runtime dependency beyond the JDK. These
 * rules enforce that on every main class of {@code dev.kcshare.core}, and a planted impure class
 * proves each rule actually reports violations.
 */
class CorePurityTest {
  private static final String BECAUSE =
      "the core must be a pure function of its arguments (docs/design.md#purity); the CLI does IO";

  /** java.io types that carry no IO. */
  private static final Set<String> IO_ALLOWED =
      Set.of("java.io.Serializable", "java.io.UncheckedIOException");

  private static final Set<String> FORBIDDEN_TYPES =
      Set.of(
          "java.lang.Process",
          "java.lang.ProcessBuilder",
          "java.lang.ProcessHandle",
          "java.lang.Runtime",
          "java.lang.Thread",
          "java.lang.ThreadGroup",
          "java.lang.ClassLoader",
          "java.util.Timer",
          "java.util.concurrent.Executor",
          "java.util.concurrent.Executors",
          "java.util.concurrent.ExecutorService",
          "java.util.concurrent.ScheduledExecutorService",
          "java.util.concurrent.ThreadPoolExecutor",
          "java.util.concurrent.ScheduledThreadPoolExecutor",
          "java.util.concurrent.ForkJoinPool",
          "java.util.concurrent.ForkJoinTask",
          "java.util.concurrent.CompletableFuture",
          "java.util.concurrent.ThreadFactory",
          "java.time.Clock",
          "java.time.InstantSource",
          "java.util.Random",
          "java.util.SplittableRandom",
          "java.util.concurrent.ThreadLocalRandom",
          "java.security.SecureRandom");

  /** The only members of java.lang.System a pure function may touch. */
  private static final Set<String> SYSTEM_ALLOWED = Set.of("arraycopy", "identityHashCode");

  /** Members that read ambient state (environment, properties, default locale, randomness). */
  private static final Set<String> FORBIDDEN_MEMBERS =
      Set.of(
          "java.util.UUID.randomUUID",
          "java.lang.Math.random",
          "java.lang.StrictMath.random",
          "java.lang.Integer.getInteger",
          "java.lang.Long.getLong",
          "java.lang.Boolean.getBoolean",
          "java.util.Locale.getDefault",
          "java.util.TimeZone.getDefault",
          "java.nio.charset.Charset.defaultCharset",
          "java.util.Collection.parallelStream",
          "java.util.stream.BaseStream.parallel");

  /** The rules, for classes whose own code lives under {@code ownPackage}. */
  static List<ArchRule> purityRules(String ownPackage) {
    return List.of(
        noClasses()
            .should()
            .dependOnClassesThat(ioTypes())
            .as("no file, stream, reader/writer, channel or network access")
            .because(BECAUSE),
        noClasses()
            .should()
            .dependOnClassesThat(forbiddenTypes())
            .as("no processes, threads, clocks or random number generators")
            .because(BECAUSE),
        noClasses()
            .should()
            .accessTargetWhere(systemMembers())
            .as("no System member other than arraycopy and identityHashCode")
            .because("System exposes the environment, properties, clock, console and exit"),
        noClasses()
            .should()
            .accessTargetWhere(timeNow())
            .as("no now() of java.time")
            .because("a time, where needed, is passed in (docs/design.md#purity)"),
        noClasses()
            .should()
            .accessTargetWhere(ambientMembers())
            .as("no member that reads ambient state or randomness")
            .because(BECAUSE),
        noClasses()
            .should()
            .accessTargetWhere(defaultLocaleCaseMapping())
            .as("no default-locale case mapping")
            .because(
                "name matching must be locale-independent (docs/design.md#predicates): use Locale.ROOT"),
        noClasses()
            .should()
            .dependOnClassesThat(outsideJdk(ownPackage))
            .as("no dependency beyond the JDK and org.jspecify")
            .because("the core ships with no runtime dependency"));
  }

  @Test
  void coreMainClassesArePure() {
    JavaClasses core =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.kcshare.core");
    assertThat(core.contain("dev.kcshare.core.verdict.Assessor")).isTrue();
    assertThat(core.stream().map(JavaClass::getPackageName))
        .as("test classes must not be part of the checked core")
        .doesNotContain("dev.kcshare.core.testing");
    // Every rule is evaluated so one run reports all violations, each under its own rule.
    List<String> failures = new ArrayList<>();
    for (ArchRule rule : purityRules("dev.kcshare.core")) {
      EvaluationResult result = rule.evaluate(core);
      if (result.hasViolation()) {
        failures.add(result.getFailureReport().toString());
      }
    }
    if (!failures.isEmpty()) {
      throw new AssertionError(String.join("\n\n", failures));
    }
  }

  @Test
  void everyRuleReportsThePlantedViolations() {
    JavaClasses planted = new ClassFileImporter().importPackages("dev.kcshare.archfixture");
    assertThat(planted.contain("dev.kcshare.archfixture.PlantedImpurities")).isTrue();
    List<String> reports = new ArrayList<>();
    for (ArchRule rule : purityRules("dev.kcshare.archfixture")) {
      EvaluationResult result = rule.evaluate(planted);
      assertThat(result.hasViolation())
          .as("rule reports nothing: %s", rule.getDescription())
          .isTrue();
      reports.add(String.join("\n", result.getFailureReport().getDetails()));
    }
    String all = String.join("\n", reports);
    assertThat(all)
        .contains(
            "calls constructor <java.io.File.<init>(java.lang.String)>",
            "calls method <java.nio.file.Path.of(",
            "calls method <java.net.URI.create(java.lang.String)>",
            "calls constructor <java.lang.ProcessBuilder.<init>(",
            "calls method <java.lang.Runtime.getRuntime()>",
            "calls constructor <java.lang.Thread.<init>(java.lang.Runnable)>",
            "calls method <java.util.concurrent.Executors.newSingleThreadExecutor()>",
            "calls method <java.time.Clock.systemUTC()>",
            "calls method <java.time.Instant.now()>",
            "calls method <java.time.LocalDate.now()>",
            "calls method <java.lang.System.getenv(java.lang.String)>",
            "calls method <java.lang.System.getProperty(java.lang.String)>",
            "calls method <java.lang.System.currentTimeMillis()>",
            "references method <java.lang.System.nanoTime()>",
            "gets field <java.lang.System.out>",
            "calls constructor <java.util.Random.<init>(long)>",
            "calls constructor <java.util.SplittableRandom.<init>(long)>",
            "calls constructor <java.security.SecureRandom.<init>()>",
            "calls method <java.util.concurrent.ThreadLocalRandom.current()>",
            "calls method <java.util.UUID.randomUUID()>",
            "calls method <java.lang.Math.random()>",
            "calls method <java.lang.String.toUpperCase()>",
            "calls method <java.lang.Long.getLong(java.lang.String, long)>",
            "has type <org.junit.jupiter.api.TestInfo>")
        .contains("(PlantedImpurities.java:");
  }

  private static DescribedPredicate<JavaClass> ioTypes() {
    return DescribedPredicate.describe(
        "java.io (except Serializable, UncheckedIOException), java.nio.file, java.nio.channels or"
            + " java.net",
        c -> {
          JavaClass t = c.getBaseComponentType();
          String pkg = t.getPackageName();
          if (pkg.equals("java.io")) {
            return !IO_ALLOWED.contains(t.getName());
          }
          return within(pkg, "java.nio.file")
              || within(pkg, "java.nio.channels")
              || within(pkg, "java.net");
        });
  }

  private static DescribedPredicate<JavaClass> forbiddenTypes() {
    return DescribedPredicate.describe(
        "are processes, threads, executors, clocks or random number generators",
        c -> FORBIDDEN_TYPES.contains(c.getBaseComponentType().getName()));
  }

  private static DescribedPredicate<JavaAccess<?>> systemMembers() {
    return DescribedPredicate.describe(
        "target is a member of java.lang.System",
        a ->
            owner(a.getTarget()).equals("java.lang.System")
                && !SYSTEM_ALLOWED.contains(a.getTarget().getName()));
  }

  private static DescribedPredicate<JavaAccess<?>> timeNow() {
    return DescribedPredicate.describe(
        "target is a now() method of java.time",
        a -> within(pkg(a.getTarget()), "java.time") && a.getTarget().getName().equals("now"));
  }

  private static DescribedPredicate<JavaAccess<?>> ambientMembers() {
    return DescribedPredicate.describe(
        "target is one of " + FORBIDDEN_MEMBERS,
        a -> FORBIDDEN_MEMBERS.contains(owner(a.getTarget()) + "." + a.getTarget().getName()));
  }

  private static DescribedPredicate<JavaAccess<?>> defaultLocaleCaseMapping() {
    return DescribedPredicate.describe(
        "target is String.toUpperCase() or String.toLowerCase() without a Locale",
        a ->
            a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget t
                && owner(t).equals("java.lang.String")
                && (t.getName().equals("toUpperCase") || t.getName().equals("toLowerCase"))
                && t.getRawParameterTypes().isEmpty());
  }

  private static DescribedPredicate<JavaClass> outsideJdk(String ownPackage) {
    return DescribedPredicate.describe(
        "are outside java.., org.jspecify.. and " + ownPackage + "..",
        c -> {
          JavaClass t = c.getBaseComponentType();
          if (t.isPrimitive()) {
            return false;
          }
          String pkg = t.getPackageName();
          return !(within(pkg, "java") || within(pkg, "org.jspecify") || within(pkg, ownPackage));
        });
  }

  private static String owner(AccessTarget target) {
    return target.getOwner().getName();
  }

  private static String pkg(AccessTarget target) {
    return target.getOwner().getPackageName();
  }

  private static boolean within(String pkg, String root) {
    return pkg.equals(root) || pkg.startsWith(root + ".");
  }
}
