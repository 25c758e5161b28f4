package dev.kcshare.host.config;

import dev.kcshare.core.policy.internal.KiroCrewHome;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileReads;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The host profile in force and why (docs/design.md#host-profile).
 *
 * @param name {@code default} or {@code kirocrew}
 * @param profile the profile
 * @param reason why it was chosen, in words ({@code ~/.kiro/crew exists}, {@code KIROCREW_HOME is
 *     set}, ...)
 */
public record ProfileSelection(String name, HostProfile profile, String reason) {
  public ProfileSelection {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(reason, "reason");
  }

  /** The selection rule in words, for {@code kcshare config}: what is checked, in order. */
  public static final String RULE =
      "--profile if given; else kirocrew when KIROCREW_HOME is set, or when ~/.kiro/crew exists"
          + " and holds more than the files kcshare writes there; else default";

  /**
   * An explicit {@code --profile} wins; otherwise {@code kirocrew} when {@code KIROCREW_HOME} is
   * set and non-empty or the default Kiro Crew data home ({@code ~/.kiro/crew}) exists as a Kiro
   * Crew home, else the empty default profile. A data home holding nothing but what kcshare itself
   * wrote there (its records, a {@code config.json} it created with only {@code stub_overrides}) is
   * not a Kiro Crew home ({@link KiroCrewHome}): creating it must not switch the profile.
   *
   * @param reads where the files it reads are read once
   * @throws BadInputException for an explicit name other than {@code default} or {@code kirocrew}
   */
  public static ProfileSelection select(
      @Nullable String explicit, Map<String, String> env, FileReads reads) {
    if (explicit != null) {
      if (!explicit.equals("default") && !explicit.equals("kirocrew")) {
        throw new BadInputException("--profile " + explicit + ": expected default or kirocrew");
      }
      return new ProfileSelection(
          explicit, HostProfile.byName(explicit), "--profile " + explicit + " was given");
    }
    String home = env.get("KIROCREW_HOME");
    if (home != null && !home.isEmpty()) {
      return new ProfileSelection("kirocrew", HostProfile.kirocrew(), "KIROCREW_HOME is set");
    }
    Path defaultHome = KiroCrewConfig.home(env);
    if (Files.isDirectory(defaultHome) && onlyKcshareFiles(defaultHome, reads)) {
      return new ProfileSelection(
          "default",
          HostProfile.empty(),
          "~/.kiro/crew holds only files kcshare wrote there, not a Kiro Crew installation");
    }
    if (Files.exists(defaultHome)) {
      return new ProfileSelection("kirocrew", HostProfile.kirocrew(), "~/.kiro/crew exists");
    }
    return new ProfileSelection(
        "default", HostProfile.empty(), "KIROCREW_HOME is unset and ~/.kiro/crew does not exist");
  }

  /** Reads what {@link KiroCrewHome#onlyKcshareFiles} decides on; any doubt reads as "no". */
  private static boolean onlyKcshareFiles(Path home, FileReads reads) {
    try {
      List<String> entries = names(home);
      Path recordsDir = home.resolve(KiroCrewHome.RECORDS);
      List<String> records = Files.isDirectory(recordsDir) ? names(recordsDir) : null;
      // Names first: a Kiro Crew home fails here, before any file is read.
      if (!KiroCrewHome.onlyKcshareFiles(entries, records, List.of())) {
        return false;
      }
      List<@Nullable Object> configs = new ArrayList<>();
      for (String name : List.of(KiroCrewHome.CONFIG, KiroCrewHome.CONFIG + ".bak")) {
        if (entries.contains(name)) {
          ConfigFiles.Read read = ConfigFiles.read(reads, home.resolve(name), FileSyntax.JSON);
          configs.add(read.ok() ? read.root() : null);
        }
      }
      return KiroCrewHome.onlyKcshareFiles(entries, records, configs);
    } catch (IOException | DirectoryIteratorException | SecurityException e) {
      return false;
    }
  }

  private static List<String> names(Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      for (Path p : stream) {
        out.add(p.getFileName().toString());
      }
    }
    return out;
  }
}
