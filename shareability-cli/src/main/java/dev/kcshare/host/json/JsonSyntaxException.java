package dev.kcshare.host.json;

/** The input is not one valid JSON document. Carries a 1-based line and column when known. */
public final class JsonSyntaxException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final boolean nestingTooDeep;
  private final boolean limitExceeded;

  public JsonSyntaxException(String message, int line, int column) {
    this(message, line, column, false);
  }

  JsonSyntaxException(String message, int line, int column, boolean nestingTooDeep) {
    this(message, line, column, nestingTooDeep, false);
  }

  private JsonSyntaxException(
      String message, int line, int column, boolean nestingTooDeep, boolean limitExceeded) {
    super(message);
    this.line = line;
    this.column = column;
    this.nestingTooDeep = nestingTooDeep;
    this.limitExceeded = limitExceeded;
  }

  /** A document refused by a size limit of the reader (a member name, a number). */
  static JsonSyntaxException limit(String message) {
    return new JsonSyntaxException(message, -1, -1, false, true);
  }

  /**
   * The document may be valid JSON but was refused by one of the reader's size limits (a member
   * name or a number longer than it accepts), rather than for a syntax error.
   */
  public boolean limitExceeded() {
    return limitExceeded;
  }

  /**
   * The document was refused because it nests deeper than the reader's limit (checked while
   * parsing, before the whole document is read), rather than for a syntax error.
   */
  public boolean nestingTooDeep() {
    return nestingTooDeep;
  }

  /** 1-based line, or -1 when unknown. */
  public int line() {
    return line;
  }

  /** 1-based column, or -1 when unknown. */
  public int column() {
    return column;
  }

  /** "message (line L, column C)" or just the message when the location is unknown. */
  public String describe() {
    return line > 0 ? getMessage() + " (line " + line + ", column " + column + ")" : getMessage();
  }
}
