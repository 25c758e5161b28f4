package dev.kcshare.host;

/**
 * Input named or supplied by the user is unusable: a missing or unreadable file, text that is not
 * JSON, or a member of the wrong type. Exit code 2; the message names the file and, where there is
 * one, the JSON pointer and what was expected.
 */
public final class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadInputException(String message) {
    super(message);
  }

  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
