package dev.kcshare.host.prober;

/**
 * One identity's exchange ended in a classified failure (docs/design.md#failure-classes); the
 * message is the detail string exactly as the pre-flight reports it. Control flow only: never
 * escapes the package.
 */
final class ProbeFailure extends Exception {
  private static final long serialVersionUID = 1L;

  static final String NO_RESPONSE = "no response";
  static final String TIMEOUT = "timeout";
  static final String OVERSIZE = "message exceeds 16 MiB";
  static final String TOO_DEEP = "message nesting exceeds 512 levels";
  static final String NAME_TOO_LONG =
      "message member name exceeds " + JsonRpcChannel.NAME_LIMIT + " characters";
  static final String NUMBER_TOO_LONG = "message number exceeds 100000 digits";
  static final String PROBE_ERROR = "probe_error";

  private final boolean noResponse;

  ProbeFailure(String detail) {
    this(detail, false);
  }

  private ProbeFailure(String detail, boolean noResponse) {
    super(detail, null, false, false);
    this.noResponse = noResponse;
  }

  /**
   * A failure for an answer that never came because the server's stdout ended (or its stdin closed,
   * or it wrote only banners): its detail gets how the process ended once it is torn down.
   */
  static ProbeFailure noResponse(String detail) {
    return new ProbeFailure(detail, true);
  }

  String detail() {
    return getMessage();
  }

  /** Whether this is a "no response" failure ({@link #noResponse}). */
  boolean isNoResponse() {
    return noResponse;
  }
}
