package dev.kcshare.host.prober;

/**
 * One identity's exchange ended in a classified failure ({@code prober.md} §8); the message is the
 * detail string exactly as the pre-flight reports it. Control flow only: never escapes the package.
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

  ProbeFailure(String detail) {
    super(detail, null, false, false);
  }

  String detail() {
    return getMessage();
  }
}
