package dev.kcshare.core.cost;

import java.util.Locale;

/**
 * Why a server's verdict does not recommend sharing, as the one thing that would have to change for
 * it to. The JSON spelling ({@link #json()}) is stable and, like reason codes, safe to count; the
 * accompanying detail (a hazard code, an env name) is a local observation.
 */
public enum ShareBlocker {
  /** Refuted: the gateway saw it misbehave while shared (detail: the hazard codes). */
  OBSERVED_HAZARD,
  /** Not launched over stdio: there is no local process to share. */
  NOT_STDIO,
  /** The host profile says it identifies its session from its own process. */
  SESSION_BOUND_BY_CONSTRUCTION,
  /** Never measured: nothing is known about it yet. */
  NOT_PROBED,
  /** It declares the caller-identity extension, but no pre-flight has tested that yet. */
  PREFLIGHT_NOT_RUN,
  /** It declares the extension, but a rotating secret would be withheld (detail: the env names). */
  ROTATING_SECRET_ENV,
  /**
   * A third-party server that does not declare the caller-identity extension: only its authors
   * declaring it (and a pre-flight confirming it) can make it shareable.
   */
  NO_CALLER_IDENTITY_DECLARATION;

  private final String json = name().toLowerCase(Locale.ROOT);

  /**
   * The stable JSON spelling, for example {@code "observed_hazard"}.
   *
   * @return the code as written in JSON
   */
  public String json() {
    return json;
  }
}
