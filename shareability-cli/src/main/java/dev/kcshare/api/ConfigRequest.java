package dev.kcshare.api;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Which of the host's client configs {@link dev.kcshare.embed.Shareability#hostServers} reads: the
 * files named (as {@code kcshare --config} names them), whether to discover the usual files of
 * every client as well, and an explicit host profile.
 *
 * @param configFiles files to read, in order, as given (relative to the facade's working
 *     directory); a named file that cannot be used is an error
 * @param discover {@code --discover}: discover even though files were named
 * @param profile {@code --profile}, or null for automatic selection
 */
public record ConfigRequest(List<String> configFiles, boolean discover, @Nullable String profile) {
  /**
   * Copies the list.
   *
   * @param configFiles files to read, in order, as given (relative to the facade's working
   *     directory); a named file that cannot be used is an error
   * @param discover {@code --discover}: discover even though files were named
   * @param profile {@code --profile}, or null for automatic selection
   * @throws NullPointerException if {@code configFiles} or an element is null
   */
  public ConfigRequest {
    configFiles = List.copyOf(configFiles);
  }

  /**
   * Discovery only: no named files, automatic profile.
   *
   * @return the request
   */
  public static ConfigRequest discovery() {
    return new ConfigRequest(List.of(), false, null);
  }

  /**
   * Whether discovery runs: when no file is named, or when {@code discover} asks for it.
   *
   * @return true when the usual files are read
   */
  public boolean discovers() {
    return configFiles.isEmpty() || discover;
  }
}
