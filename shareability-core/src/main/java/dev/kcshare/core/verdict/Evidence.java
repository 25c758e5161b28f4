package dev.kcshare.core.verdict;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.SelfTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Everything known about one configured MCP server, as plain values. {@link Assessor#assess} turns
 * it into a {@link Verdict}.
 *
 * <p>JSON content coming from a server ({@code capabilities}, {@code toolAnnotations}) is kept as
 * the plain Java values every JSON library produces: {@code Map<String, ?>}, {@code List<?>},
 * {@code String}, {@code Number}, {@code Boolean} and {@code null}. Malformed content is handled by
 * the assessment rules, never rejected here.
 *
 * <p>Use {@link #builder()}; unset fields take the defaults of the specification.
 *
 * <pre>{@code
 * Evidence e = Evidence.builder()
 *     .name("files-mcp")
 *     .observedHazards(ledger.codesForName("files-mcp"))
 *     .preflightRan(true)
 *     .build();
 * }</pre>
 *
 * @param name configured server name
 * @param isStdio the definition launches a process over stdio
 * @param sessionBoundByConstruction from the host profile
 * @param probeOk a handshake with this server was observed and succeeded
 * @param capabilities the server's {@code capabilities}; null when no handshake was observed
 * @param protocolVersion the protocol version the server answered, {@code ""} if none
 * @param toolAnnotations the {@code annotations} objects of the tool listing, in listing order
 * @param hasTools the listing produced at least one tool with a truthy name
 * @param declaredEnvNames env variable names declared for the server (de-duplicated and sorted by
 *     the caller)
 * @param observedHazards hazard codes recorded for this name (sorted by the caller)
 * @param preflightRan null never measured, true measured, false could not run
 * @param preflightCallerSensitive the two answers diverged; meaningful only when {@code
 *     preflightRan} is true
 * @param era the era the handshake was measured in ({@link Era#LEGACY} when none or unknown)
 * @param listingPublic modern only: {@code server/discover} and every {@code tools/list} page
 *     answered {@code cacheScope: "public"}, alike for both identities
 * @param modernOnly the server rejected {@code initialize} and named only modern versions in its
 *     discover result
 * @param divergence the kind of a divergence, when known: {@code in_process} or {@code
 *     across_processes} (the detail of {@code handshake_not_reproducible}); {@code ""} otherwise
 * @param selfTest the outcome of the isolation self-test the server designated; null when it
 *     designated none
 */
public record Evidence(
    String name,
    boolean isStdio,
    boolean sessionBoundByConstruction,
    boolean probeOk,
    @Nullable Map<String, ?> capabilities,
    String protocolVersion,
    List<?> toolAnnotations,
    boolean hasTools,
    List<String> declaredEnvNames,
    List<String> observedHazards,
    @Nullable Boolean preflightRan,
    boolean preflightCallerSensitive,
    Era era,
    boolean listingPublic,
    boolean modernOnly,
    String divergence,
    @Nullable SelfTest selfTest) {

  /**
   * Validates and copies every collection (unmodifiable; {@code capabilities} keeps insertion
   * order).
   *
   * @param name configured server name
   * @param isStdio the definition launches a process over stdio
   * @param sessionBoundByConstruction from the host profile
   * @param probeOk a handshake with this server was observed and succeeded
   * @param capabilities the server's {@code capabilities}; null when no handshake was observed
   * @param protocolVersion the protocol version the server answered, {@code ""} if none
   * @param toolAnnotations the {@code annotations} objects of the tool listing, in listing order
   * @param hasTools the listing produced at least one tool with a truthy name
   * @param declaredEnvNames env variable names declared for the server (de-duplicated and sorted by
   *     the caller)
   * @param observedHazards hazard codes recorded for this name (sorted by the caller)
   * @param preflightRan null never measured, true measured, false could not run
   * @param preflightCallerSensitive the two answers diverged; meaningful only when {@code
   *     preflightRan} is true
   * @param era the era the handshake was measured in ({@link Era#LEGACY} when none or unknown)
   * @param listingPublic modern only: {@code server/discover} and every {@code tools/list} page
   *     answered {@code cacheScope: "public"}, alike for both identities
   * @param modernOnly the server rejected {@code initialize} and named only modern versions in its
   *     discover result
   * @param divergence the kind of a divergence, when known: {@code in_process} or {@code
   *     across_processes} (the detail of {@code handshake_not_reproducible}); {@code ""} otherwise
   * @param selfTest the outcome of the isolation self-test the server designated; null when it
   *     designated none
   * @throws NullPointerException if {@code name}, {@code protocolVersion} or a list is null
   */
  public Evidence {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(era, "era");
    Objects.requireNonNull(divergence, "divergence");
    capabilities = capabilities == null ? null : unmodifiableCopy(capabilities);
    toolAnnotations = Collections.unmodifiableList(new ArrayList<>(toolAnnotations));
    declaredEnvNames = List.copyOf(declaredEnvNames);
    observedHazards = List.copyOf(observedHazards);
  }

  /**
   * Evidence of a legacy-era handshake, as before the era was an input.
   *
   * @param name configured server name
   * @param isStdio the definition launches a process over stdio
   * @param sessionBoundByConstruction from the host profile
   * @param probeOk a handshake with this server was observed and succeeded
   * @param capabilities the server's {@code capabilities}; null when no handshake was observed
   * @param protocolVersion the protocol version the server answered, {@code ""} if none
   * @param toolAnnotations the {@code annotations} objects of the tool listing, in listing order
   * @param hasTools the listing produced at least one tool with a truthy name
   * @param declaredEnvNames env variable names declared for the server (de-duplicated and sorted by
   *     the caller)
   * @param observedHazards hazard codes recorded for this name (sorted by the caller)
   * @param preflightRan null never measured, true measured, false could not run
   * @param preflightCallerSensitive the two answers diverged; meaningful only when {@code
   *     preflightRan} is true
   */
  public Evidence(
      String name,
      boolean isStdio,
      boolean sessionBoundByConstruction,
      boolean probeOk,
      @Nullable Map<String, ?> capabilities,
      String protocolVersion,
      List<?> toolAnnotations,
      boolean hasTools,
      List<String> declaredEnvNames,
      List<String> observedHazards,
      @Nullable Boolean preflightRan,
      boolean preflightCallerSensitive) {
    this(
        name,
        isStdio,
        sessionBoundByConstruction,
        probeOk,
        capabilities,
        protocolVersion,
        toolAnnotations,
        hasTools,
        declaredEnvNames,
        observedHazards,
        preflightRan,
        preflightCallerSensitive,
        Era.LEGACY,
        false,
        false,
        "",
        null);
  }

  private static Map<String, ?> unmodifiableCopy(Map<String, ?> map) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  /**
   * A builder with every field at its specified default.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder initialised from this evidence.
   *
   * @return a new builder holding every field of this evidence
   */
  public Builder toBuilder() {
    return new Builder()
        .name(name)
        .isStdio(isStdio)
        .sessionBoundByConstruction(sessionBoundByConstruction)
        .probeOk(probeOk)
        .capabilities(capabilities)
        .protocolVersion(protocolVersion)
        .toolAnnotations(toolAnnotations)
        .hasTools(hasTools)
        .declaredEnvNames(declaredEnvNames)
        .observedHazards(observedHazards)
        .preflightRan(preflightRan)
        .preflightCallerSensitive(preflightCallerSensitive)
        .era(era)
        .listingPublic(listingPublic)
        .modernOnly(modernOnly)
        .divergence(divergence)
        .selfTest(selfTest);
  }

  /** Builds {@link Evidence}; every setter may be called any number of times. */
  public static final class Builder {
    private String name = "";
    private boolean isStdio = true;
    private boolean sessionBoundByConstruction;
    private boolean probeOk;
    private @Nullable Map<String, ?> capabilities;
    private String protocolVersion = "";
    private List<?> toolAnnotations = List.of();
    private boolean hasTools;
    private List<String> declaredEnvNames = List.of();
    private List<String> observedHazards = List.of();
    private @Nullable Boolean preflightRan;
    private boolean preflightCallerSensitive;
    private Era era = Era.LEGACY;
    private boolean listingPublic;
    private boolean modernOnly;
    private String divergence = "";
    private @Nullable SelfTest selfTest;

    private Builder() {}

    /**
     * The configured server name (default {@code ""}).
     *
     * @param name the value
     * @return this builder
     */
    public Builder name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Whether the definition launches a stdio process (default {@code true}).
     *
     * @param isStdio the value
     * @return this builder
     */
    public Builder isStdio(boolean isStdio) {
      this.isStdio = isStdio;
      return this;
    }

    /**
     * From the host profile, {@link HostProfile#sessionBound} (default {@code false}).
     *
     * @param sessionBoundByConstruction the value
     * @return this builder
     */
    public Builder sessionBoundByConstruction(boolean sessionBoundByConstruction) {
      this.sessionBoundByConstruction = sessionBoundByConstruction;
      return this;
    }

    /**
     * Whether a handshake was observed and succeeded (default {@code false}).
     *
     * @param probeOk the value
     * @return this builder
     */
    public Builder probeOk(boolean probeOk) {
      this.probeOk = probeOk;
      return this;
    }

    /**
     * The server's {@code capabilities} as plain JSON values, or null (the default) when no
     * handshake was observed.
     *
     * @param capabilities the value
     * @return this builder
     */
    public Builder capabilities(@Nullable Map<String, ?> capabilities) {
      this.capabilities = capabilities;
      return this;
    }

    /**
     * The protocol version the server answered (default {@code ""}).
     *
     * @param protocolVersion the value
     * @return this builder
     */
    public Builder protocolVersion(String protocolVersion) {
      this.protocolVersion = Objects.requireNonNull(protocolVersion, "protocolVersion");
      return this;
    }

    /**
     * The {@code annotations} objects of the tool listing, in listing order (default empty).
     *
     * @param toolAnnotations the value
     * @return this builder
     */
    public Builder toolAnnotations(List<?> toolAnnotations) {
      this.toolAnnotations = Objects.requireNonNull(toolAnnotations, "toolAnnotations");
      return this;
    }

    /**
     * Whether the listing produced a tool with a truthy name (default {@code false}).
     *
     * @param hasTools the value
     * @return this builder
     */
    public Builder hasTools(boolean hasTools) {
      this.hasTools = hasTools;
      return this;
    }

    /**
     * The declared env names, de-duplicated and sorted by the caller (default empty).
     *
     * @param declaredEnvNames the value
     * @return this builder
     */
    public Builder declaredEnvNames(List<String> declaredEnvNames) {
      this.declaredEnvNames = Objects.requireNonNull(declaredEnvNames, "declaredEnvNames");
      return this;
    }

    /**
     * The ledger's codes for the name, sorted by the caller (default empty); any code refutes.
     *
     * @param observedHazards the value
     * @return this builder
     */
    public Builder observedHazards(List<String> observedHazards) {
      this.observedHazards = Objects.requireNonNull(observedHazards, "observedHazards");
      return this;
    }

    /**
     * Null never measured (the default), true measured, false could not run.
     *
     * @param preflightRan the value
     * @return this builder
     */
    public Builder preflightRan(@Nullable Boolean preflightRan) {
      this.preflightRan = preflightRan;
      return this;
    }

    /**
     * Whether the two pre-flight answers diverged; read only when {@code preflightRan} is true
     * (default {@code false}).
     *
     * @param preflightCallerSensitive the value
     * @return this builder
     */
    public Builder preflightCallerSensitive(boolean preflightCallerSensitive) {
      this.preflightCallerSensitive = preflightCallerSensitive;
      return this;
    }

    /**
     * The era the handshake was measured in (default {@link Era#LEGACY}).
     *
     * @param era the value
     * @return this builder
     */
    public Builder era(Era era) {
      this.era = Objects.requireNonNull(era, "era");
      return this;
    }

    /**
     * Whether discover and every listing page answered {@code cacheScope: "public"} for both
     * identities (default {@code false}); read only for a modern handshake.
     *
     * @param listingPublic the value
     * @return this builder
     */
    public Builder listingPublic(boolean listingPublic) {
      this.listingPublic = listingPublic;
      return this;
    }

    /**
     * Whether the server rejected {@code initialize} and named only modern versions (default {@code
     * false}).
     *
     * @param modernOnly the value
     * @return this builder
     */
    public Builder modernOnly(boolean modernOnly) {
      this.modernOnly = modernOnly;
      return this;
    }

    /**
     * The kind of a divergence, {@code in_process} or {@code across_processes}, when known (default
     * {@code ""}); the detail of {@code handshake_not_reproducible}.
     *
     * @param divergence the value
     * @return this builder
     */
    public Builder divergence(String divergence) {
      this.divergence = Objects.requireNonNull(divergence, "divergence");
      return this;
    }

    /**
     * The outcome of the isolation self-test, or null (the default) when none was designated.
     *
     * @param selfTest the value
     * @return this builder
     */
    public Builder selfTest(@Nullable SelfTest selfTest) {
      this.selfTest = selfTest;
      return this;
    }

    /**
     * Builds the evidence.
     *
     * @return the evidence with every field set so far and the defaults for the rest
     */
    public Evidence build() {
      return new Evidence(
          name,
          isStdio,
          sessionBoundByConstruction,
          probeOk,
          capabilities,
          protocolVersion,
          toolAnnotations,
          hasTools,
          declaredEnvNames,
          observedHazards,
          preflightRan,
          preflightCallerSensitive,
          era,
          listingPublic,
          modernOnly,
          divergence,
          selfTest);
    }
  }
}
