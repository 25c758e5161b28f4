package dev.kcshare.api;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which of the host's client configs {@link dev.kcshare.embed.Shareability#hostServers} reads: the
 * files named (as {@code kcshare --config} names them), whether to discover the usual files of
 * every client as well, and an explicit host profile. Immutable; start from {@link #discovery()} or
 * {@link #files(List)}.
 *
 * <pre>{@code
 * ConfigRequest.discovery();                           // the usual files of every client
 * ConfigRequest.discovery().profile("kirocrew");       // --profile kirocrew
 * ConfigRequest.files(List.of("team.json"));           // --config team.json
 * ConfigRequest.files(List.of("a.json")).discover(true); // --config a.json --discover
 * }</pre>
 */
public final class ConfigRequest {
  private final List<String> configFiles;
  private final boolean discover;
  private final @Nullable String profile;

  private ConfigRequest(List<String> configFiles, boolean discover, @Nullable String profile) {
    this.configFiles = List.copyOf(configFiles);
    this.discover = discover;
    this.profile = profile;
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
   * The named files only ({@code --config} for each), automatic profile; discovery too when {@code
   * configFiles} is empty.
   *
   * @param configFiles files to read, in order, as given (relative to the facade's working
   *     directory); a named file that cannot be used is an error
   * @return the request
   * @throws NullPointerException if {@code configFiles} or an element is null
   */
  public static ConfigRequest files(List<String> configFiles) {
    return new ConfigRequest(configFiles, false, null);
  }

  /**
   * A copy that discovers the usual files even though files are named ({@code --discover}), or not.
   *
   * @param discover true to discover as well
   * @return the copy
   */
  public ConfigRequest discover(boolean discover) {
    return new ConfigRequest(configFiles, discover, profile);
  }

  /**
   * A copy with an explicit host profile ({@code --profile}), or with automatic selection.
   *
   * @param profile {@code default} or {@code kirocrew} (checked when the files are read), or null
   *     for automatic selection
   * @return the copy
   */
  public ConfigRequest profile(@Nullable String profile) {
    return new ConfigRequest(configFiles, discover, profile);
  }

  /**
   * The files to read, in order, as given.
   *
   * @return the files (unmodifiable)
   */
  public List<String> configFiles() {
    return configFiles;
  }

  /**
   * Whether {@code --discover} was asked for: discover even though files were named.
   *
   * @return the flag
   */
  public boolean discover() {
    return discover;
  }

  /**
   * The explicit host profile.
   *
   * @return {@code --profile}, or null for automatic selection
   */
  public @Nullable String profile() {
    return profile;
  }

  /**
   * Whether discovery runs: when no file is named, or when {@code discover} asks for it.
   *
   * @return true when the usual files are read
   */
  public boolean discovers() {
    return configFiles.isEmpty() || discover;
  }

  /**
   * Requests are equal when they name the same files and flags.
   *
   * @param o the other object
   * @return true for the same request
   */
  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ConfigRequest r
        && configFiles.equals(r.configFiles)
        && discover == r.discover
        && Objects.equals(profile, r.profile);
  }

  @Override
  public int hashCode() {
    return Objects.hash(configFiles, discover, profile);
  }

  /** The settings, as {@code ConfigRequest[configFiles=[...], discover=..., profile=...]}. */
  @Override
  public String toString() {
    return "ConfigRequest[configFiles="
        + configFiles
        + ", discover="
        + discover
        + ", profile="
        + profile
        + "]";
  }
}
