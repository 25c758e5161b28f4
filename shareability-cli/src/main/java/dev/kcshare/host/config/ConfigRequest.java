package dev.kcshare.host.config;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What to load: the files named with {@code --config}, whether to discover the usual files as well,
 * and an explicit profile.
 *
 * @param configFiles files named on the command line, in order, as given
 * @param discover {@code --discover}: discover even though files were named
 * @param profile {@code --profile}, or null for automatic selection
 */
public record ConfigRequest(List<String> configFiles, boolean discover, @Nullable String profile) {
  public ConfigRequest {
    configFiles = List.copyOf(configFiles);
  }

  /** Discovery only: no named files, automatic profile. */
  public static ConfigRequest discovery() {
    return new ConfigRequest(List.of(), false, null);
  }

  /** Discovery runs when no file is named, or when {@code --discover} asks for it. */
  public boolean discovers() {
    return configFiles.isEmpty() || discover;
  }
}
