package dev.kcshare.host.config;

import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.host.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The host profile in force and why (engine §7).
 *
 * @param name {@code default} or {@code kirocrew}
 * @param profile the profile
 * @param reason why it was chosen, in words
 */
public record ProfileSelection(String name, HostProfile profile, String reason) {
  public ProfileSelection {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(reason, "reason");
  }

  /**
   * An explicit {@code --profile} wins; otherwise {@code kirocrew} when {@code KIROCREW_HOME} is
   * set and non-empty or the default Kiro Crew data home ({@code ~/.kiro/crew}) exists, else the
   * empty default profile.
   *
   * @throws BadInputException for an explicit name other than {@code default} or {@code kirocrew}
   */
  public static ProfileSelection select(@Nullable String explicit, Map<String, String> env) {
    if (explicit != null) {
      if (!explicit.equals("default") && !explicit.equals("kirocrew")) {
        throw new BadInputException("--profile " + explicit + ": expected default or kirocrew");
      }
      return new ProfileSelection(explicit, HostProfile.byName(explicit), "--profile " + explicit);
    }
    String home = env.get("KIROCREW_HOME");
    if (home != null && !home.isEmpty()) {
      return new ProfileSelection("kirocrew", HostProfile.kirocrew(), "KIROCREW_HOME is set");
    }
    Path defaultHome = KiroCrewConfig.home(env);
    if (Files.exists(defaultHome)) {
      return new ProfileSelection(
          "kirocrew", HostProfile.kirocrew(), "the Kiro Crew data home ~/.kiro/crew exists");
    }
    return new ProfileSelection(
        "default",
        HostProfile.empty(),
        "no Kiro Crew home (KIROCREW_HOME unset, ~/.kiro/crew absent)");
  }
}
