package dev.kcshare.host.config;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.host.config.ConfigSamples.Layout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the one-file-per-client structure honest: the loader names no client and no format, every
 * format belongs to exactly one client, every client has a fixture that reads, and every location a
 * client discovers has a row in {@code docs/config.md}. Adding a client is its file, its fixture
 * and its row.
 */
final class ClientFamiliesTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kcshare.host.config");

  @TempDir Path root;

  /** The orchestration: the loader and the classes it hands files and entries to. */
  private static ArchRule orchestrationNamesNoClient(String... classNames) {
    DescribedPredicate<JavaClass> orchestration =
        DescribedPredicate.describe(
            "the orchestration",
            c -> {
              for (String name : classNames) {
                if (c.getName().equals(name) || c.getName().startsWith(name + "$")) {
                  return true;
                }
              }
              return false;
            });
    DescribedPredicate<JavaClass> client =
        DescribedPredicate.describe(
            "a client",
            c ->
                !c.getName().equals(ClientFamily.class.getName())
                    && c.isAssignableTo(ClientFamily.class));
    DescribedPredicate<JavaFieldAccess> formatConstant =
        DescribedPredicate.describe(
            "a ConfigFormat constant",
            a ->
                a.getTargetOwner().isEquivalentTo(ConfigFormat.class)
                    && a.getTarget().getRawType().isEquivalentTo(ConfigFormat.class));
    return noClasses()
        .that(orchestration)
        .should()
        .dependOnClassesThat(client)
        .orShould()
        .accessFieldWhere(formatConstant)
        .because("what is particular to a client lives in its ClientFamily");
  }

  @Test
  void theLoaderNamesNoClientAndNoFormat() {
    orchestrationNamesNoClient(
            HostConfigLoader.class.getName(),
            ServerSections.class.getName(),
            DiscoverySlots.class.getName(),
            Shapes.class.getName())
        .check(MAIN);
  }

  @Test
  void theRuleReportsAClassThatNamesAClient() {
    // ClientFamilies lists the clients by name: the same rule applied to it must report it, or it
    // could not catch a loader that did.
    assertThat(
            orchestrationNamesNoClient(ClientFamilies.class.getName())
                .evaluate(MAIN)
                .hasViolation())
        .isTrue();
    assertThat(
            orchestrationNamesNoClient(NamedFileClient.class.getName())
                .evaluate(MAIN)
                .hasViolation())
        .isTrue();
  }

  @Test
  void everyFormatBelongsToTheOneClientThatListsIt() {
    for (ConfigFormat f : ConfigFormat.values()) {
      assertThat(ClientFamilies.of(f)).as(f.id()).isNotNull();
      assertThat(ClientFamilies.of(f).formats()).as(f.id()).contains(f);
    }
    Set<Class<?>> seen = new LinkedHashSet<>();
    for (ClientFamily c : ClientFamilies.DISCOVERY) {
      assertThat(seen.add(c.getClass())).as(c.getClass().getSimpleName()).isTrue();
    }
  }

  /** Every origin each client's {@link ClientFamily#locate} offers, in discovery order. */
  private static Map<ClientFamily, List<String>> origins(ClientHost host) {
    Map<ClientFamily, List<String>> out = new java.util.LinkedHashMap<>();
    for (ClientFamily c : ClientFamilies.DISCOVERY) {
      List<String> found = new ArrayList<>();
      c.locate(
          host,
          new ClientFamily.Locations() {
            @Override
            public void userFile(String origin, Path path, ConfigFormat format) {
              found.add(origin);
            }

            @Override
            public void workspaceFile(String origin, String relative, ConfigFormat format) {
              found.add(origin);
            }

            @Override
            public void directory(
                String origin, Path dir, List<String> extensions, ConfigFormat format) {
              found.add(origin);
            }

            @Override
            public void workspaceDirectory(
                String origin, String relative, List<String> extensions, ConfigFormat format) {
              found.add(origin);
            }

            @Override
            public void subdirectoryFiles(
                String origin, Path dir, String fileName, ConfigFormat format) {
              found.add(origin);
            }
          });
      out.put(c, found);
    }
    return out;
  }

  @Test
  void everyDiscoveredLocationHasAFixtureThatReadsAndARowInTheDocs() throws Exception {
    Layout l = ConfigSamples.full(root);
    ClientConfigsTest.install(l, ClientConfigsTest.FIXTURES, root.resolve("pids").toString());
    Map<String, String> env = l.env();
    HostConfig c =
        HostConfigLoader.load(l.context(env).host(), ConfigRequest.discovery(), Platform.LINUX);
    String docs = Files.readString(Path.of("../docs/config.md"), StandardCharsets.UTF_8);
    Map<ClientFamily, List<String>> origins =
        origins(
            new ClientHost(
                env,
                l.home().toAbsolutePath().normalize(),
                l.workspace().toAbsolutePath().normalize(),
                Platform.LINUX));
    assertThat(origins.keySet()).hasSameSizeAs(ClientFamilies.DISCOVERY);
    for (Map.Entry<ClientFamily, List<String>> e : origins.entrySet()) {
      String client = e.getKey().getClass().getSimpleName();
      assertThat(e.getValue()).as(client).isNotEmpty();
      assertThat(c.files())
          .as("%s: a fixture read through one of %s", client, e.getValue())
          .anyMatch(f -> e.getValue().contains(f.origin()) && f.status() == ConfigFile.Status.READ);
      for (String origin : e.getValue()) {
        assertThat(docs)
            .as("%s: docs/config.md row for %s", client, origin)
            .contains("| `" + origin + "` |");
      }
    }
  }
}
